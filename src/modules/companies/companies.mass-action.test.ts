import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  companyStages,
  makeCompanyBlacklistEntry,
  makeNote,
  makeTag,
  postCompanies,
  type WireCompany,
} from './companies.fixtures.js';

let ctx: TestContext;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

const massAction = (user: TestUser, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'PUT', url: '/leads/api/companies/mass-action', payload });

/** A fresh team with four companies (the last one blacklisted) and two tags. */
async function setup() {
  const user = await ctx.createUser();
  await makeCompanyBlacklistEntry(ctx, user.teamId, { domain: 'blocked.example' });
  const red = await makeTag(ctx, user.teamId, 'red');
  const blue = await makeTag(ctx, user.teamId, 'blue');
  const companies = await postCompanies(ctx, user, [
    { name: 'One', industry: 'Retail', tags: [red.uuid] },
    { name: 'Two', industry: 'Retail' },
    { name: 'Three', industry: 'Software', tags: [blue.uuid] },
    { name: 'Blocked', domain: 'blocked.example', industry: 'Retail', tags: [red.uuid] },
  ]);
  const [one, two, three, blocked] = companies as [WireCompany, WireCompany, WireCompany, WireCompany];
  return { user, red: red.uuid, blue: blue.uuid, one, two, three, blocked };
}

async function tagsOf(user: TestUser) {
  const res = await ctx.request(user, {
    method: 'GET',
    url: '/leads/api/companies?order_field=name&limit=100',
  });
  return Object.fromEntries(res.json().data.map((c: WireCompany) => [c.name, c.tags]));
}

describe('PUT /leads/api/companies/mass-action', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeEach(async () => {
    s = await setup();
  });

  it('adds tags to the companies a filter selects, skipping blacklisted ones and those that have them', async () => {
    const res = await massAction(s.user, {
      type: 'company_add_tags',
      payload: { tag_uuid: s.red },
      filter: { industry: 'retail' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ affected: 1, operation: null });
    const tags = await tagsOf(s.user);
    expect(tags.Two).toEqual([s.red]);
    expect(tags.Blocked).toEqual([s.red]);
    const many = await massAction(s.user, {
      type: 'company_add_tags',
      payload: { tag_uuids: [s.red, s.blue] },
      filter: { all: true },
    });
    expect(many.json()).toEqual({ affected: 3, operation: null });
    expect((await tagsOf(s.user)).One).toEqual([s.red, s.blue]);
    expect((await tagsOf(s.user)).Blocked).toEqual([s.red]);
  });

  it('removes and replaces tags', async () => {
    const removed = await massAction(s.user, {
      type: 'company_remove_tags',
      payload: { tag_uuids: [s.red, s.blue] },
      filter: { all: true, excludeIds: [s.three.uuid] },
    });
    expect(removed.json()).toEqual({ affected: 1, operation: null });
    expect(await tagsOf(s.user)).toMatchObject({ One: [], Three: [s.blue], Blocked: [s.red] });
    const replaced = await massAction(s.user, {
      type: 'company_replace_tags',
      payload: { tag_uuids: [s.blue] },
      filter: { ids: [s.one.uuid, s.two.uuid, s.three.uuid, s.blocked.uuid] },
    });
    expect(replaced.json()).toEqual({ affected: 2, operation: null });
    expect(await tagsOf(s.user)).toMatchObject({
      One: [s.blue],
      Two: [s.blue],
      Three: [s.blue],
      Blocked: [s.red],
    });
    const cleared = await massAction(s.user, {
      type: 'company_replace_tags',
      payload: { tag_uuids: [] },
      filter: { all: false, ids: [s.one.uuid] },
    });
    expect(cleared.json()).toEqual({ affected: 1, operation: null });
  });

  it('changes the pipeline stage', async () => {
    const stages = await companyStages(ctx, s.user.teamId);
    const res = await massAction(s.user, {
      type: 'company_change_pipeline_stage',
      payload: { pipeline_stage_uuid: stages[2]!.uuid },
      filter: { tags: [s.red, s.blue] },
    });
    expect(res.json()).toEqual({ affected: 2, operation: null });
    const moved = await ctx.request(s.user, {
      method: 'GET',
      url: `/leads/api/companies?filter[pipeline_stage_uuid]=${stages[2]!.uuid}&order_field=name&order_type=asc`,
    });
    expect(moved.json().data.map((c: WireCompany) => c.name)).toEqual(['One', 'Three']);
    const leadStage = (await companyStages(ctx, s.user.teamId, 'lead'))[0]!;
    const wrong = await massAction(s.user, {
      type: 'company_change_pipeline_stage',
      payload: { pipeline_stage_uuid: leadStage.uuid },
      filter: { all: true },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error.data).toHaveProperty(['payload.pipeline_stage_uuid']);
  });

  it('deletes companies in one statement, unlinking contacts and deleting notes', async () => {
    const list = await makeList(ctx.db, s.user.teamId);
    const [contact] = await makeLeads(ctx.db, s.user.teamId, list.uuid, [
      { first_name: 'C', company_name: 'One' },
    ]);
    await ctx.db
      .updateTable('leads')
      .set({ company_uuid: s.one.uuid })
      .where('uuid', '=', contact!.uuid)
      .execute();
    await makeNote(ctx, s.user.teamId, s.one.uuid, 'bye');
    const res = await massAction(s.user, { type: 'company_delete', filter: { industry: 'Retail' } });
    expect(res.json()).toEqual({ affected: 2, operation: null });
    const left = await ctx.request(s.user, { method: 'GET', url: '/leads/api/companies?order_field=name' });
    expect(
      left
        .json()
        .data.map((c: WireCompany) => c.name)
        .sort(),
    ).toEqual(['Blocked', 'Three']);
    const row = await ctx.db
      .selectFrom('leads')
      .select('company_uuid')
      .where('uuid', '=', contact!.uuid)
      .executeTakeFirst();
    expect(row).toEqual({ company_uuid: null });
    const notes = await sql<{
      n: number;
    }>`select count(*)::int as n from notes where team_id = ${s.user.teamId}`.execute(ctx.db);
    expect(notes.rows[0]!.n).toBe(0);
  });

  it('acts only on the caller\u2019s team, whatever ids or filter it names', async () => {
    const foreign = await massAction(bob, {
      type: 'company_delete',
      filter: { ids: [s.one.uuid, s.two.uuid] },
    });
    expect(foreign.json()).toEqual({ affected: 0, operation: null });
    const all = await massAction(bob, { type: 'company_delete', filter: { all: true } });
    expect(all.json()).toEqual({ affected: 0, operation: null });
    const tags = await massAction(bob, {
      type: 'company_add_tags',
      payload: { tag_uuid: s.red },
      filter: { all: true },
    });
    expect(tags.statusCode).toBe(422);
    expect(await tagsOf(s.user)).toMatchObject({ One: [s.red], Two: [] });
  });

  it.each([
    [{ type: 'company_explode', filter: { all: true } }, 'type', 'company_add_tags'],
    [{ type: 'company_add_tags', filter: { all: true } }, 'payload', 'required'],
    [{ type: 'company_add_tags', payload: { tag_uuids: [] }, filter: { all: true } }, 'payload', 'tag_uuid'],
    [{ type: 'company_replace_tags', payload: {}, filter: { all: true } }, 'payload', 'tag_uuids'],
    [
      { type: 'company_change_pipeline_stage', payload: {}, filter: { all: true } },
      'payload.pipeline_stage_uuid',
      'required',
    ],
    [{ type: 'company_delete', filter: {} }, 'filter', 'ids'],
    [{ type: 'company_delete', filter: { ids: ['x'] } }, 'filter.ids.0', 'UUID'],
    [{ type: 'company_delete', filter: { all: 'yes' } }, 'filter.all', 'true or false'],
    [{ type: 'company_delete', filter: { colour: 'red' } }, 'filter.colour', 'Accepted keys'],
    [{ type: 'company_delete' }, 'filter', 'required'],
  ])('rejects %j with 422 naming %s', async (payload, field, hint) => {
    const res = await massAction(s.user, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.data).toHaveProperty([field]);
    expect(res.json().message).toContain(hint);
    expect((await tagsOf(s.user)).One).toEqual([s.red]);
  });
});
