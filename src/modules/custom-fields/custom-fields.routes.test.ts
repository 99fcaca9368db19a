import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

type Field = { uuid: string; name: string; object: string; type: string; order: number; user_id: number };

async function createField(user: TestUser, payload: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/custom-fields', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Field;
}

describe('custom field definitions', () => {
  it('creates fields with a default type and order, lists them by order and filters by object', async () => {
    const carol = await ctx.createUser();
    const industry = await createField(carol, { name: 'industry', object: 'lead' });
    expect(industry).toMatchObject({
      name: 'industry',
      object: 'lead',
      type: 'string',
      order: 1,
      user_id: carol.userId,
    });
    const seats = await createField(carol, { name: 'seats', object: 'lead', type: 'number' });
    expect(seats.order).toBe(2);
    const first = await createField(carol, { name: '_first', object: 'lead', type: 'boolean', order: 0 });
    await createField(carol, { name: 'industry', object: 'company', type: 'string' });

    const leads = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/custom-fields?filter[object]=lead',
    });
    expect(leads.json()).toMatchObject({ total: 3, has_more: false });
    expect(leads.json().data.map((f: Field) => f.name)).toEqual(['_first', 'industry', 'seats']);
    const json = await ctx.request(carol, {
      method: 'GET',
      url: `/leads/api/custom-fields?filter=${encodeURIComponent('{"object":"company"}')}`,
    });
    expect(json.json().data.map((f: Field) => [f.name, f.object])).toEqual([['industry', 'company']]);
    const byType = await ctx.request(carol, { method: 'GET', url: '/leads/api/custom-fields?type=boolean' });
    expect(byType.json().data.map((f: Field) => f.uuid)).toEqual([first.uuid]);
    const paged = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/custom-fields?limit=2&offset=2',
    });
    expect(paged.json()).toMatchObject({ total: 4, limit: 2, offset: 2, has_more: false });
    const got = await ctx.request(carol, { method: 'GET', url: `/leads/api/custom-fields/${seats.uuid}` });
    expect(got.json()).toMatchObject({ name: 'seats', type: 'number' });
  });

  it('enforces the name rule with a 422 that states it', async () => {
    for (const name of ['1st', 'has space', 'dash-ed', 'ümlaut', 'a.b']) {
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/custom-fields',
        payload: { name, object: 'lead' },
      });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().message).toContain('must start with a letter or an underscore');
      expect(res.json().error.data).toHaveProperty('name');
    }
    for (const name of ['a', '_', 'Field_2', '_x9']) await createField(alice, { name, object: 'company' });
  });

  it('rejects a bad object or type naming the field', async () => {
    const object = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'x', object: 'deal' },
    });
    expect(object.statusCode).toBe(422);
    expect(object.json().error.data).toHaveProperty('object');
    const type = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'x', object: 'lead', type: 'json' },
    });
    expect(type.statusCode).toBe(422);
    expect(type.json().message).toContain('string, number, boolean, date');
  });

  it('keeps names unique per team and object type, case-insensitively (409)', async () => {
    const field = await createField(alice, { name: 'Region', object: 'lead' });
    const again = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'region', object: 'lead' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('"Region" already exists');
    expect(again.json().error.data.uuid).toBe(field.uuid);
    await createField(alice, { name: 'region', object: 'company' });
    await createField(bob, { name: 'Region', object: 'lead' });
    const other = await createField(alice, { name: 'Zone', object: 'lead' });
    const rename = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/custom-fields/${other.uuid}`,
      payload: { name: 'REGION' },
    });
    expect(rename.statusCode).toBe(409);
  });

  it('allows at most 100 fields per object type: the 101st is a 422', async () => {
    const dave = await ctx.createUser();
    // 99 by direct insert, the 100th through the API (limit not yet reached), then the 101st.
    await ctx.db
      .insertInto('custom_fields')
      .values(
        Array.from({ length: 99 }, (_, index) => ({
          team_id: dave.teamId,
          uuid: newId(),
          name: `field_${index}`,
          object: 'lead' as const,
        })),
      )
      .execute();
    await createField(dave, { name: 'hundredth', object: 'lead' });
    const over = await ctx.request(dave, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'one_too_many', object: 'lead' },
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toContain('at most 100 custom fields per object type');
    expect(over.json().error.data).toHaveProperty('object');
    // The limit is per object type.
    await createField(dave, { name: 'one_too_many', object: 'company' });
    const count = await ctx.request(dave, {
      method: 'GET',
      url: '/leads/api/custom-fields?object=lead&limit=1',
    });
    expect(count.json().total).toBe(100);
  });

  it('holds the limit when creations race', async () => {
    const erin = await ctx.createUser();
    await ctx.db
      .insertInto('custom_fields')
      .values(
        Array.from({ length: 95 }, (_, index) => ({
          team_id: erin.teamId,
          uuid: newId(),
          name: `f${index}`,
          object: 'company' as const,
        })),
      )
      .execute();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        ctx.request(erin, {
          method: 'POST',
          url: '/leads/api/custom-fields',
          payload: { name: `race_${index}`, object: 'company' },
        }),
      ),
    );
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(5);
    expect(results.filter((res) => res.statusCode === 422)).toHaveLength(5);
  });

  it('renames and reorders, but refuses to change the type or the object', async () => {
    const field = await createField(alice, { name: 'score', object: 'lead', type: 'number' });
    const renamed = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/custom-fields/${field.uuid}`,
      payload: { name: 'lead_score', order: 7, type: 'number' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'lead_score', order: 7, type: 'number' });
    const type = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/custom-fields/${field.uuid}`,
      payload: { type: 'string' },
    });
    expect(type.statusCode).toBe(422);
    expect(type.json().message).toContain('type of a custom field cannot be changed');
    expect(type.json().error.data).toHaveProperty('type');
    const object = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/custom-fields/${field.uuid}`,
      payload: { object: 'company', name: 'x' },
    });
    expect(object.statusCode).toBe(422);
    const badName = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/custom-fields/${field.uuid}`,
      payload: { name: 'lead score' },
    });
    expect(badName.statusCode).toBe(422);
    const nothing = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/custom-fields/${field.uuid}`,
      payload: {},
    });
    expect(nothing.statusCode).toBe(422);
  });

  it('deletes a field with all its values on contacts and companies, leaving other values', async () => {
    const frank = await ctx.createUser();
    const doomed = await createField(frank, { name: 'doomed', object: 'lead' });
    const kept = await createField(frank, { name: 'kept', object: 'lead' });
    const companyField = await createField(frank, { name: 'tier', object: 'company' });
    const list = await makeList(ctx.db, frank.teamId);
    const leads = await makeLeads(ctx.db, frank.teamId, list.uuid, [
      { first_name: 'A' },
      { first_name: 'B' },
      { first_name: 'C' },
    ]);
    const set = async (object: 'lead' | 'company', field: string, uuid: string, value: unknown) => {
      const res = await ctx.request(frank, {
        method: 'POST',
        url: '/leads/api/custom-field-values',
        payload: { custom_field_uuid: field, object_type: object, object_uuid: uuid, value },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await set('lead', doomed.uuid, leads[0]!.uuid, 'x');
    await set('lead', doomed.uuid, leads[1]!.uuid, 'y');
    await set('lead', kept.uuid, leads[1]!.uuid, 'keep me');
    const company = await ctx.db
      .insertInto('companies')
      .values({ team_id: frank.teamId, uuid: newId(), name: 'Acme', custom_fields: '{}' })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    await set('company', companyField.uuid, company.uuid, 'gold');

    expect(
      (await ctx.request(frank, { method: 'DELETE', url: `/leads/api/custom-fields/${doomed.uuid}` }))
        .statusCode,
    ).toBe(204);
    // The definition is gone at once (and with it the value on reads); a job strips the stored values.
    const shown = await ctx.request(frank, { method: 'GET', url: `/leads/api/leads/${leads[0]!.uuid}` });
    expect(shown.json().custom_fields).toEqual({});
    await ctx.startWorkers();
    await waitFor(async () => {
      const row = await ctx.db
        .selectFrom('leads')
        .select('custom_fields')
        .where('team_id', '=', frank.teamId)
        .where('uuid', '=', leads[0]!.uuid)
        .executeTakeFirstOrThrow();
      return Object.keys(row.custom_fields).length === 0;
    });
    const rows = await ctx.db
      .selectFrom('leads')
      .select(['uuid', 'custom_fields'])
      .where('team_id', '=', frank.teamId)
      .execute();
    const values = new Map(rows.map((row) => [row.uuid, row.custom_fields]));
    expect(values.get(leads[0]!.uuid)).toEqual({});
    expect(values.get(leads[1]!.uuid)).toEqual({ [kept.uuid]: 'keep me' });
    expect(values.get(leads[2]!.uuid)).toEqual({});
    expect(
      (await ctx.request(frank, { method: 'GET', url: `/leads/api/custom-fields/${doomed.uuid}` }))
        .statusCode,
    ).toBe(404);

    expect(
      (await ctx.request(frank, { method: 'DELETE', url: `/leads/api/custom-fields/${companyField.uuid}` }))
        .statusCode,
    ).toBe(204);
    await waitFor(async () => {
      const row = await ctx.db
        .selectFrom('companies')
        .select('custom_fields')
        .where('uuid', '=', company.uuid)
        .executeTakeFirstOrThrow();
      return Object.keys(row.custom_fields).length === 0;
    });
    const after = await ctx.db
      .selectFrom('companies')
      .select('custom_fields')
      .where('team_id', '=', frank.teamId)
      .where('uuid', '=', company.uuid)
      .executeTakeFirstOrThrow();
    expect(after.custom_fields).toEqual({});
  });

  it('keeps teams apart: another team\u2019s field is 404 for every operation and never listed', async () => {
    const field = await createField(alice, { name: 'secret', object: 'lead' });
    const url = `/leads/api/custom-fields/${field.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'PUT', url, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    const listed = await ctx.request(bob, { method: 'GET', url: '/leads/api/custom-fields?limit=1000' });
    expect(listed.json().data.map((f: Field) => f.uuid)).not.toContain(field.uuid);
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(200);
  });
});
