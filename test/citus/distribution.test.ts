// Leadflow's schema on Citus (npm run test:citus; skipped on plain PostgreSQL): where every table went,
// and that the job queue, LISTEN/NOTIFY and the count-delta triggers work across the cluster.
import { sql } from 'kysely';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_TABLES } from '../../src/db/citus.js';
import { enqueueJob, handleJob, jobType } from '../../src/jobs/queue.js';
import { newId } from '../../src/lib/ids.js';
import { makeLeads, makeList } from '../factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../harness.js';
import { onCitus } from './on-citus.js';

describe.skipIf(!onCitus('the Citus schema tests'))('Leadflow on Citus', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    alice = await ctx.createUser();
    bob = await ctx.createUser();
  });
  afterAll(() => ctx?.close());

  it('distributes every tenant table by team_id in one co-location group, and places the global ones', async () => {
    const { rows } = await sql<{
      name: string;
      type: string | null;
      column: string | null;
      colocation: number;
    }>`
      select c.relname as name, t.citus_table_type as type, t.distribution_column as column,
        t.colocation_id as colocation
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join citus_tables t on t.table_name = c.oid
      where n.nspname = 'public' and c.relkind = 'r' and c.relname not like 'kysely\\_%'
        and not pg_catalog.relation_is_a_known_shard(c.oid)
    `.execute(ctx.db);
    const distributed = rows.filter((r) => r.type === 'distributed');
    expect(distributed.length).toBeGreaterThan(30);
    expect(new Set(distributed.map((r) => r.column))).toEqual(new Set(['team_id']));
    expect(new Set(distributed.map((r) => r.colocation)).size).toBe(1);
    for (const row of rows) {
      const global = GLOBAL_TABLES[row.name];
      if (global?.placement === 'reference') expect(row.type, row.name).toBe('reference');
      // Local: a plain table, or one Citus keeps on the coordinator for its foreign key to a reference table.
      else if (global?.placement === 'local') expect([null, 'local'], row.name).toContain(row.type);
      else expect(row.type, `${row.name} should be distributed`).toBe('distributed');
    }
    // The job queue stays on the coordinator, outside Citus.
    const queue = await sql<{ n: number }>`
      select count(*)::int as n from pg_dist_partition p join pg_class c on c.oid = p.logicalrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'graphile_worker'
    `.execute(ctx.db);
    expect(queue.rows[0]!.n).toBe(0);
  });

  it('spreads teams over both workers and answers a team from its own shard group', async () => {
    const { rows } = await sql<{ nodes: number }>`
      select count(distinct nodeport)::int as nodes from citus_shards where table_name = 'leads'::regclass
    `.execute(ctx.db);
    expect(rows[0]!.nodes).toBe(2);
    const list = await makeList(ctx.db, alice.teamId);
    await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Ann' }, { first_name: 'Bo' }]);
    const search = await ctx.request(alice, { method: 'POST', url: '/leads/api/leads/search', payload: {} });
    expect(search.statusCode).toBe(200);
    expect(search.json().total).toBe(2);
    const other = await ctx.request(bob, { method: 'POST', url: '/leads/api/leads/search', payload: {} });
    expect(other.json().total).toBe(0);
  });

  it('runs a job enqueued in the transaction of a distributed write (the queue is local to the coordinator)', async () => {
    const seen: number[] = [];
    const probe = jobType('test.citus-probe', Type.Object({ teamId: Type.Number() }));
    const worker = await ctx.startWorkers({
      extraJobs: [handleJob(probe, async ({ teamId }) => void seen.push(teamId))],
    });
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('lists')
        .values({ team_id: alice.teamId, uuid: newId(), name: 'Queued' })
        .execute();
      await enqueueJob(trx, probe, { teamId: alice.teamId });
    });
    await waitFor(async () => seen.includes(alice.teamId));
    await worker.stop();
  });

  it('delivers auth changes made on reference tables (NOTIFY from the coordinator) at once', async () => {
    const before = await ctx.request(bob, { method: 'GET', url: '/id/api/users/current' });
    expect(before.statusCode).toBe(200);
    await sql`update api_keys set revoked_at = now() where user_id = ${bob.userId}`.execute(ctx.db);
    await waitFor(
      async () =>
        (await ctx.request(bob, { method: 'GET', url: '/id/api/users/current' })).statusCode === 401,
    );
  });

  it('keeps count deltas exact through triggers on the shards', async () => {
    const list = await makeList(ctx.db, alice.teamId, 'Counted');
    await makeLeads(
      ctx.db,
      alice.teamId,
      list.uuid,
      Array.from({ length: 25 }, (_, i) => ({ first_name: `C${i}` })),
    );
    await sql`delete from leads where team_id = ${alice.teamId} and first_name in ('C1', 'C2')`.execute(
      ctx.db,
    );
    const { rows } = await sql<{ deltas: number; real: number }>`
      select (select coalesce(sum(delta), 0)::int from lead_count_deltas where team_id = ${alice.teamId}) as deltas,
        (select count(*)::int from leads where team_id = ${alice.teamId}) as real
    `.execute(ctx.db);
    expect(rows[0]!.deltas).toBe(rows[0]!.real);
    expect(rows[0]!.real).toBe(25);
  });
});
