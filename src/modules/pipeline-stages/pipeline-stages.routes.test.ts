import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { DEFAULT_STAGES } from './pipeline-stages.defaults.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

type Stage = {
  uuid: string;
  name: string;
  object: string;
  object_type: string;
  type: string;
  category: string;
  order: number;
  is_default: boolean;
};

async function listStages(user: TestUser, query: string) {
  const res = await ctx.request(user, { method: 'GET', url: `/leads/api/pipeline-stages${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Stage[]; total: number };
}

async function createStage(user: TestUser, payload: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/pipeline-stages', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Stage;
}

describe('default stages and listing', () => {
  it('gives every team the default stages, listed by order, filtered with a JSON-string filter', async () => {
    const leads = await listStages(alice, `?filter=${encodeURIComponent('{"object":"lead"}')}`);
    expect(leads.data.map((s) => s.name)).toEqual(DEFAULT_STAGES.lead.map((s) => s.name));
    expect(leads.data[0]).toMatchObject({
      object: 'lead',
      object_type: 'lead',
      type: 'new',
      category: 'cold',
      order: 1,
      is_default: true,
    });
    const cold = await listStages(
      alice,
      `?filter=${encodeURIComponent('{"object":"company","category":"cold"}')}`,
    );
    expect(cold.data.map((s) => [s.object, s.category, s.name])).toEqual([['company', 'cold', 'New']]);
  });

  it('accepts the bracket form, the object_type alias, type and a flat parameter', async () => {
    const bracket = await listStages(alice, '?filter[object]=company');
    expect(bracket.total).toBe(DEFAULT_STAGES.company.length);
    const alias = await listStages(alice, '?filter[object_type]=company&filter[category]=positive');
    expect(alias.data.map((s) => s.name)).toEqual(['Customer']);
    const byType = await listStages(alice, '?filter={"object":"lead","type":"replied"}');
    expect(byType.data.map((s) => s.name)).toEqual(['Replied']);
    const flat = await listStages(alice, '?object=lead&category=engaging');
    expect(flat.data.map((s) => s.name)).toEqual(['Approaching', 'Engaging']);
  });

  it('rejects a bad object, a malformed JSON filter and unknown keys with 422', async () => {
    const badObject = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/pipeline-stages?filter[object]=deal',
    });
    expect(badObject.statusCode).toBe(422);
    expect(badObject.json().message).toContain('lead, company');
    const badJson = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/pipeline-stages?filter={object',
    });
    expect(badJson.statusCode).toBe(422);
    const unknown = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/pipeline-stages?filter[colour]=x',
    });
    expect(unknown.statusCode).toBe(422);
  });
});

describe('custom stages', () => {
  it('creates a stage after the last one, updates it and validates input', async () => {
    const stage = await createStage(alice, { name: ' Demo booked ', object: 'lead', category: 'positive' });
    expect(stage).toMatchObject({
      name: 'Demo booked',
      object: 'lead',
      type: 'custom',
      category: 'positive',
      order: DEFAULT_STAGES.lead.length + 1,
      is_default: false,
    });
    const placed = await createStage(alice, { name: 'First', object: 'company', category: 'cold', order: 0 });
    expect(placed.order).toBe(0);
    const companies = await listStages(alice, '?filter[object]=company');
    expect(companies.data[0]!.name).toBe('First');

    const updated = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/pipeline-stages/${stage.uuid}`,
      payload: { name: 'Meeting held', category: 'engaging', order: 3 },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Meeting held', category: 'engaging', order: 3 });
    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/pipeline-stages/${stage.uuid}` });
    expect(got.json()).toMatchObject({ name: 'Meeting held' });

    const noCategory = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/pipeline-stages',
      payload: { name: 'X', object: 'lead' },
    });
    expect(noCategory.statusCode).toBe(422);
    expect(noCategory.json().error.data).toHaveProperty('category');
    const badCategory = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/pipeline-stages',
      payload: { name: 'X', object: 'lead', category: 'warm' },
    });
    expect(badCategory.statusCode).toBe(422);
    expect(badCategory.json().message).toContain('cold, engaging, positive, negative');
    const empty = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/pipeline-stages/${stage.uuid}`,
      payload: {},
    });
    expect(empty.statusCode).toBe(422);
  });

  it('refuses to delete a default stage with 422', async () => {
    const [first] = (await listStages(alice, '?filter[object]=lead&filter[is_default]=true')).data;
    const res = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/pipeline-stages/${first!.uuid}`,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('default pipeline stages');
  });

  it('moves the contacts of a deleted stage to the first other stage of the same category', async () => {
    const carol = await ctx.createUser();
    const positive = (await listStages(carol, '?filter[object]=lead&filter[category]=positive')).data;
    expect(positive.map((s) => s.name)).toEqual(['Replied', 'Interested']);
    const custom = await createStage(carol, { name: 'Won', object: 'lead', category: 'positive' });
    const list = await makeList(ctx.db, carol.teamId);
    const leads = await makeLeads(ctx.db, carol.teamId, list.uuid, [
      { first_name: 'A' },
      { first_name: 'B' },
    ]);
    const [moved, stays] = leads;
    await ctx.db
      .updateTable('leads')
      .set({ pipeline_stage_uuid: custom.uuid })
      .where('team_id', '=', carol.teamId)
      .where('uuid', '=', moved!.uuid)
      .execute();

    const res = await ctx.request(carol, {
      method: 'DELETE',
      url: `/leads/api/pipeline-stages/${custom.uuid}`,
    });
    expect(res.statusCode).toBe(204);
    const rows = await ctx.db
      .selectFrom('leads')
      .select(['uuid', 'pipeline_stage_uuid', 'updated_at'])
      .where('team_id', '=', carol.teamId)
      .execute();
    const byUuid = new Map(rows.map((row) => [row.uuid, row]));
    expect(byUuid.get(moved!.uuid)!.pipeline_stage_uuid).toBe(positive[0]!.uuid);
    expect(byUuid.get(moved!.uuid)!.updated_at.getTime()).toBeGreaterThan(moved!.updated_at.getTime());
    expect(byUuid.get(stays!.uuid)!.pipeline_stage_uuid).toBe(stays!.pipeline_stage_uuid);
    expect(
      (await ctx.request(carol, { method: 'GET', url: `/leads/api/pipeline-stages/${custom.uuid}` }))
        .statusCode,
    ).toBe(404);
  });

  it('moves companies too, and falls back to a cold stage when the category has no other stage', async () => {
    const dave = await ctx.createUser();
    const [customer] = (await listStages(dave, '?filter[object]=company&filter[category]=positive')).data;
    // The only other positive company stage leaves the category, so none is left there.
    await ctx.request(dave, {
      method: 'PUT',
      url: `/leads/api/pipeline-stages/${customer!.uuid}`,
      payload: { category: 'engaging' },
    });
    const custom = await createStage(dave, { name: 'Champion', object: 'company', category: 'positive' });
    const company = await ctx.db
      .insertInto('companies')
      .values({
        team_id: dave.teamId,
        uuid: newId(),
        name: 'Acme',
        custom_fields: '{}',
        pipeline_stage_uuid: custom.uuid,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(
      (await ctx.request(dave, { method: 'DELETE', url: `/leads/api/pipeline-stages/${custom.uuid}` }))
        .statusCode,
    ).toBe(204);
    const [cold] = (await listStages(dave, '?filter[object]=company&filter[category]=cold')).data;
    const after = await ctx.db
      .selectFrom('companies')
      .select('pipeline_stage_uuid')
      .where('team_id', '=', dave.teamId)
      .where('uuid', '=', company.uuid)
      .executeTakeFirstOrThrow();
    expect(after.pipeline_stage_uuid).toBe(cold!.uuid);
  });

  it('keeps teams apart: another team\u2019s stage is 404 and never listed', async () => {
    const stage = await createStage(alice, { name: 'Secret', object: 'lead', category: 'cold' });
    const url = `/leads/api/pipeline-stages/${stage.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'PUT', url, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    const listed = await listStages(bob, '?limit=1000');
    expect(listed.data.map((s) => s.uuid)).not.toContain(stage.uuid);
    expect(listed.total).toBe(DEFAULT_STAGES.lead.length + DEFAULT_STAGES.company.length);
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(200);
  });
});
