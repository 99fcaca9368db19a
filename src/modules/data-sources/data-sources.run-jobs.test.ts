// The data source run job: one live run per source, and the sweep that gives a run to sources that have
// none.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import type { TestContext, TestUser } from '../../../test/harness.js';
import { createLogger } from '../../lib/logger.js';
import { dataSourceJobHandler, resumeStalledDataSources } from './data-sources.jobs.js';
import { createSource, metrics, SEARCH, setUpDataSourceRun } from './data-sources.run.test-support.js';
import type { DataSourceRunnerDeps } from './data-sources.runner.js';

const run = setUpDataSourceRun();
let ctx: TestContext;
let alice: TestUser;
let sender: string;
let deps: DataSourceRunnerDeps;
beforeAll(() => {
  ({ ctx, alice, sender, deps } = run);
});

describe('the run job', () => {
  it('steps back while another live run holds the source, and looks again later', async () => {
    const list = (await makeList(ctx.db, alice.teamId, 'Locked')).uuid;
    const ds = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: `${SEARCH}&sandbox_results=30&locked=1` },
      sender_profile_uuid: sender,
    });
    const handler = dataSourceJobHandler(deps);
    const context = { jobId: '1', attempt: 1, maxAttempts: 25, log: createLogger('silent') };
    const key = `data-sources.run:${alice.teamId}:${ds.uuid}`;
    const runAt = async () =>
      (
        await sql<{ run_at: Date }>`select run_at from graphile_worker.jobs where key = ${key}`.execute(
          ctx.db,
        )
      ).rows.map((row) => row.run_at.getTime());
    const before = Date.now();
    await ctx.db.connection().execute(async (other) => {
      await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(other);
      try {
        // The pending run (from the create) is due now, so it is kept as it is.
        await handler.run({ teamId: alice.teamId, uuid: ds.uuid }, context);
        expect(await runAt()).toHaveLength(1);
        await sql`delete from graphile_worker._private_jobs where key = ${key}`.execute(ctx.db);
        await handler.run({ teamId: alice.teamId, uuid: ds.uuid }, context);
        const [later] = await runAt();
        expect(later).toBeGreaterThanOrEqual(before + 59_000);
      } finally {
        await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(other);
      }
    });
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 0 });
    await handler.run({ teamId: alice.teamId, uuid: ds.uuid }, context);
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 25 });
    // The run scheduled its successor at once, replacing the later look.
    const [next] = await runAt();
    expect(next).toBeLessThan(before + 30_000);
  });
});

describe('running sources without a live run', () => {
  it('get a new run from the scheduled sweep; pending and running ones are left alone', async () => {
    const list = (await makeList(ctx.db, alice.teamId, 'Sweep')).uuid;
    const make = async (n: number) =>
      createSource({
        type: 'sn_leads_search',
        list_uuid: list,
        payload: { url: `${SEARCH}&sweep=${n}` },
        sender_profile_uuid: sender,
      });
    const [lost, dead, pending] = [await make(1), await make(2), await make(3)];
    const key = (uuid: string) => `data-sources.run:${alice.teamId}:${uuid}`;
    const job = async (uuid: string) =>
      (
        await sql<{ run_at: Date; attempts: number; max_attempts: number }>`
          select run_at, attempts, max_attempts from graphile_worker._private_jobs where key = ${key(uuid)}`.execute(
          ctx.db,
        )
      ).rows[0];
    await sql`delete from graphile_worker._private_jobs where key = ${key(lost.uuid)}`.execute(ctx.db);
    await sql`update graphile_worker._private_jobs set attempts = max_attempts where key = ${key(dead.uuid)}`.execute(
      ctx.db,
    );
    const later = new Date(Date.now() + 3_600_000);
    await sql`update graphile_worker._private_jobs set run_at = ${later} where key = ${key(pending.uuid)}`.execute(
      ctx.db,
    );
    expect(await resumeStalledDataSources(ctx.db)).toBeGreaterThanOrEqual(2);
    expect(await job(lost.uuid)).toMatchObject({ attempts: 0 });
    expect(await job(dead.uuid)).toMatchObject({ attempts: 0 });
    expect((await job(pending.uuid))!.run_at.getTime()).toBe(later.getTime());
    // Nothing left to resume for them.
    await resumeStalledDataSources(ctx.db);
    expect((await job(pending.uuid))!.run_at.getTime()).toBe(later.getTime());
  });
});
