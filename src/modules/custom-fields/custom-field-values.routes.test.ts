import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { newId } from '../../lib/ids.js';
import { customFieldsFilterField } from './custom-fields.filter.js';
import { selectCustomFieldDefinitions } from './custom-fields.repository.js';
import { customFieldValueUuid } from './custom-fields.service.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let leadUuid: string;
let companyUuid: string;
const fields: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const list = await makeList(ctx.db, alice.teamId);
  const [lead] = await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Ann' }]);
  leadUuid = lead!.uuid;
  const company = await ctx.db
    .insertInto('companies')
    .values({ team_id: alice.teamId, uuid: newId(), name: 'Acme', custom_fields: '{}' })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  companyUuid = company.uuid;
  for (const [name, object, type] of [
    ['industry', 'lead', 'string'],
    ['seats', 'lead', 'number'],
    ['decision_maker', 'lead', 'boolean'],
    ['renewal', 'lead', 'date'],
    ['tier', 'company', 'string'],
  ]) {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name, object, type },
    });
    fields[name!] = res.json().uuid;
  }
});
afterAll(() => ctx.close());

function setValue(user: TestUser, payload: Record<string, unknown>) {
  return ctx.request(user, { method: 'POST', url: '/leads/api/custom-field-values', payload });
}

async function storedLeadValues() {
  const row = await ctx.db
    .selectFrom('leads')
    .select(['custom_fields', 'updated_at'])
    .where('team_id', '=', alice.teamId)
    .where('uuid', '=', leadUuid)
    .executeTakeFirstOrThrow();
  return row;
}

describe('setting custom field values', () => {
  it('sets a value and answers 201 with the value object, bumping the record\u2019s updated_at', async () => {
    const before = await storedLeadValues();
    const res = await setValue(alice, {
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'SaaS',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      uuid: customFieldValueUuid(fields.industry!, leadUuid),
      team_id: alice.teamId,
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'SaaS',
    });
    const after = await storedLeadValues();
    expect(after.custom_fields).toMatchObject({ [fields.industry!]: 'SaaS' });
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
    expect(new Date(body.updated_at).getTime()).toBe(after.updated_at.getTime());

    // Same field and record: the same value uuid; the value is replaced.
    const again = await setValue(alice, {
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'Fintech',
    });
    expect(again.json().uuid).toBe(body.uuid);
    expect((await storedLeadValues()).custom_fields).toMatchObject({ [fields.industry!]: 'Fintech' });
  });

  it('converts values to the field\u2019s type', async () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['seats', '1,5', 1.5],
      ['seats', 42, 42],
      ['decision_maker', 'yes', true],
      ['decision_maker', false, false],
      ['renewal', '2026-03-01', '2026-03-01'],
      ['renewal', '2026-03-01T10:00:00+02:00', '2026-03-01T08:00:00.000Z'],
      ['industry', 12, '12'],
    ];
    for (const [name, input, expected] of cases) {
      const res = await setValue(alice, {
        custom_field_uuid: fields[name],
        object_type: 'lead',
        object_uuid: leadUuid,
        value: input,
      });
      expect(res.statusCode, `${name} ${String(input)}`).toBe(201);
      expect(res.json().value).toEqual(expected);
      expect((await storedLeadValues()).custom_fields[fields[name]!]).toEqual(expected);
    }
  });

  it('rejects a value that does not fit the type with 422 naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['seats', 'many', 'must be a number'],
      ['decision_maker', 'perhaps', 'must be true or false'],
      ['renewal', 'next spring', 'must be an ISO 8601 date'],
    ];
    for (const [name, input, message] of cases) {
      const res = await setValue(alice, {
        custom_field_uuid: fields[name],
        object_type: 'lead',
        object_uuid: leadUuid,
        value: input,
      });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().message).toContain(message);
      expect(res.json().message).toContain(`"${name}"`);
      expect(res.json().error.data).toHaveProperty('value');
    }
    const objectValue = await setValue(alice, {
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: { a: 1 },
    });
    expect(objectValue.statusCode).toBe(422);
  });

  it('clears a value with null (or an empty string), removing it from the record', async () => {
    await setValue(alice, {
      custom_field_uuid: fields.seats,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 5,
    });
    const cleared = await setValue(alice, {
      custom_field_uuid: fields.seats,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: null,
    });
    expect(cleared.statusCode).toBe(201);
    expect(cleared.json().value).toBeNull();
    expect((await storedLeadValues()).custom_fields).not.toHaveProperty(fields.seats!);
    await setValue(alice, {
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: '',
    });
    expect((await storedLeadValues()).custom_fields).not.toHaveProperty(fields.industry!);
  });

  it('sets company values, and the object_type must be the field\u2019s object (422)', async () => {
    const ok = await setValue(alice, {
      custom_field_uuid: fields.tier,
      object_type: 'company',
      object_uuid: companyUuid,
      value: 'gold',
    });
    expect(ok.statusCode).toBe(201);
    const company = await ctx.db
      .selectFrom('companies')
      .select('custom_fields')
      .where('team_id', '=', alice.teamId)
      .where('uuid', '=', companyUuid)
      .executeTakeFirstOrThrow();
    expect(company.custom_fields).toEqual({ [fields.tier!]: 'gold' });
    const mismatch = await setValue(alice, {
      custom_field_uuid: fields.tier,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'gold',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().message).toContain('object_type must be company');
    expect(mismatch.json().error.data).toHaveProperty('object_type');
  });

  it('answers 404 for an unknown record, an unknown field, and another team\u2019s field or record', async () => {
    const unknownRecord = await setValue(alice, {
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: newId(),
      value: 'x',
    });
    expect(unknownRecord.statusCode).toBe(404);
    expect(unknownRecord.json().message).toBe('Contact not found');
    const unknownField = await setValue(alice, {
      custom_field_uuid: newId(),
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'x',
    });
    expect(unknownField.statusCode).toBe(404);
    expect(unknownField.json().message).toBe('Custom field not found');
    // Bob names Alice's field and Alice's contact: neither exists for him.
    const foreign = await setValue(bob, {
      custom_field_uuid: fields.industry,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'x',
    });
    expect(foreign.statusCode).toBe(404);
    const bobField = await ctx.request(bob, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'industry', object: 'lead' },
    });
    const foreignRecord = await setValue(bob, {
      custom_field_uuid: bobField.json().uuid,
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'x',
    });
    expect(foreignRecord.statusCode).toBe(404);
    expect((await storedLeadValues()).custom_fields).not.toHaveProperty(bobField.json().uuid);
  });

  it('requires the body fields, naming them', async () => {
    const res = await setValue(alice, {
      custom_field_uuid: fields.industry,
      object_uuid: leadUuid,
      value: 'x',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('object_type');
    const badUuid = await setValue(alice, {
      custom_field_uuid: 'nope',
      object_type: 'lead',
      object_uuid: leadUuid,
      value: 'x',
    });
    expect(badUuid.statusCode).toBe(422);
    expect(badUuid.json().error.data).toHaveProperty('custom_field_uuid');
  });
});

describe('PUT /leads/api/custom-fields/{uuid}/values (alias)', () => {
  it('sets and clears a value of the field in the path', async () => {
    const url = `/leads/api/custom-fields/${fields.seats}/values`;
    const set = await ctx.request(alice, {
      method: 'PUT',
      url,
      payload: { object_type: 'lead', object_uuid: leadUuid, value: '12' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ custom_field_uuid: fields.seats, value: 12 });
    expect((await storedLeadValues()).custom_fields[fields.seats!]).toBe(12);
    const cleared = await ctx.request(alice, {
      method: 'PUT',
      url,
      payload: { object_type: 'lead', object_uuid: leadUuid, value: null },
    });
    expect(cleared.json().value).toBeNull();
    expect((await storedLeadValues()).custom_fields).not.toHaveProperty(fields.seats!);
    const foreign = await ctx.request(bob, {
      method: 'PUT',
      url,
      payload: { object_type: 'lead', object_uuid: leadUuid, value: 1 },
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('filtering records by custom field values', () => {
  it('matches equality, lists, "is set", ranges and typed values', async () => {
    const gina = await ctx.createUser();
    const list = await makeList(ctx.db, gina.teamId);
    const leads = await makeLeads(ctx.db, gina.teamId, list.uuid, [
      { first_name: 'A' },
      { first_name: 'B' },
      { first_name: 'C' },
      { first_name: 'D' },
    ]);
    const field = async (name: string, type: string) =>
      (
        await ctx.request(gina, {
          method: 'POST',
          url: '/leads/api/custom-fields',
          payload: { name, object: 'lead', type },
        })
      ).json().uuid as string;
    const industry = await field('industry', 'string');
    const seats = await field('seats', 'number');
    const vip = await field('vip', 'boolean');
    const values: Array<[string, number, unknown]> = [
      [industry, 0, 'SaaS'],
      [industry, 1, 'Fintech'],
      [industry, 2, 'Retail'],
      [seats, 0, 10],
      [seats, 1, 250],
      [vip, 1, true],
      [vip, 2, false],
    ];
    for (const [uuid, index, value] of values) {
      await setValueAs(gina, uuid, leads[index]!.uuid, value);
    }
    const definitions = await selectCustomFieldDefinitions(ctx.db, gina.teamId, 'lead');
    const spec: FilterSpec = {
      name: 'contact filter',
      fields: { custom_fields: customFieldsFilterField(definitions, 'l.custom_fields') },
    };
    const names = async (filter: Record<string, unknown>) => {
      const where = compileFilter(spec, { custom_fields: filter })!;
      const rows = await ctx.db
        .selectFrom('leads as l')
        .select('l.name')
        .where('l.team_id', '=', gina.teamId)
        .where(where)
        .orderBy('l.name')
        .execute();
      return rows.map((row) => row.name);
    };
    expect(await names({ industry: 'SaaS' })).toEqual(['A']);
    expect(await names({ industry: ['SaaS', 'Retail'] })).toEqual(['A', 'C']);
    expect(await names({ industry: 'is_not_null' })).toEqual(['A', 'B', 'C']);
    expect(await names({ industry: 'is_null' })).toEqual(['D']);
    expect(await names({ seats: '250' })).toEqual(['B']);
    expect(await names({ seats: { '>=': 50 } })).toEqual(['B']);
    expect(await names({ seats: [10, 250] })).toEqual(['A', 'B']);
    expect(await names({ vip: 'false' })).toEqual(['C']);
    expect(await names({ vip: true, seats: 'is_not_null' })).toEqual(['B']);
    expect(() => compileFilter(spec, { custom_fields: { seats: 'many' } })).toThrow(/seats must be a number/);
  });
});

async function setValueAs(user: TestUser, field: string, record: string, value: unknown) {
  const res = await setValue(user, {
    custom_field_uuid: field,
    object_type: 'lead',
    object_uuid: record,
    value,
  });
  expect(res.statusCode, res.body).toBe(201);
}
