import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { createLeads, listOf, search, upsert } from './leads.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function totals(user: TestUser) {
  const [page, all, real] = await Promise.all([
    search(ctx, user, { limit: 1 }),
    ctx.request(user, { method: 'POST', url: '/leads/api/leads/count', payload: { all: true } }),
    sql<{ n: number }>`select count(*)::int as n from leads where team_id = ${user.teamId}`.execute(ctx.db),
  ]);
  return { page: page.json().total, count: all.json().total, real: real.rows[0]!.n };
}

const deltaRows = async (teamId: number) =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from lead_count_deltas where team_id = ${teamId}`.execute(ctx.db)
  ).rows[0]!.n;

describe('exact team totals from count deltas', () => {
  it('follow creates, upserts, direct inserts and deletes, and stay exact when compacted', async () => {
    const list = await listOf(ctx, alice);
    await createLeads(ctx, alice, list.uuid, [{ first_name: 'A' }, { first_name: 'B' }, { first_name: 'C' }]);
    for (let i = 0; i < 70; i++) {
      const res = await upsert(ctx, alice, { list_uuid: list.uuid, lead: { email: `u${i}@x.io` } });
      expect(res.statusCode).toBe(200);
    }
    // Repeats and duplicates insert nothing and count nothing.
    await upsert(ctx, alice, { list_uuid: list.uuid, lead: { email: 'u1@x.io' } });
    await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Direct' }]);
    expect(await deltaRows(alice.teamId)).toBeGreaterThan(64);
    expect(await totals(alice)).toEqual({ page: 74, count: 74, real: 74 });
    expect(await deltaRows(alice.teamId)).toBeLessThanOrEqual(2);
    expect(await totals(alice)).toEqual({ page: 74, count: 74, real: 74 });

    const { data } = (await search(ctx, alice, { limit: 2 })).json();
    const deleted = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/leads/${data[0].uuid}` });
    expect(deleted.statusCode).toBe(204);
    const mass = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/leads/mass-action',
      payload: { type: 'contact_delete', filter: { ids: [data[1].uuid] } },
    });
    expect(mass.json().affected).toBe(1);
    expect(await totals(alice)).toEqual({ page: 72, count: 72, real: 72 });
    expect((await totals(bob)).page).toBe(0);
  });

  it('lets a team with contacts be deleted, taking its deltas with it', async () => {
    const carol = await ctx.createUser();
    const list = await listOf(ctx, carol);
    await createLeads(ctx, carol, list.uuid, [{ first_name: 'Gone' }]);
    await sql`delete from teams where id = ${carol.teamId}`.execute(ctx.db);
    expect(await deltaRows(carol.teamId)).toBe(0);
  });
});
