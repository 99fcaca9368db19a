import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, handleJob, jobType } from '../../src/jobs/queue.js';
import { createTestContext, type TestContext, waitFor } from '../harness.js';

const flakyJob = jobType('test.flaky', Type.Object({ key: Type.String(), failTimes: Type.Integer() }));
const attempts = new Map<string, number>();
const done = new Set<string>();
const slowJob = jobType('test.slow', Type.Object({ key: Type.String(), ms: Type.Integer() }));
const slowHandler = handleJob(slowJob, async ({ key, ms }) => {
  attempts.set(key, (attempts.get(key) ?? 0) + 1);
  await new Promise((resolve) => setTimeout(resolve, ms));
  done.add(key);
});
const flakyHandler = handleJob(flakyJob, async ({ key, failTimes }) => {
  const attempt = (attempts.get(key) ?? 0) + 1;
  attempts.set(key, attempt);
  if (attempt <= failTimes) throw new Error(`planned failure ${attempt}`);
  done.add(key);
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    config: {
      worker: { concurrency: 2, pollIntervalMs: 100, heartbeatIntervalMs: 200, heartbeatTimeoutMs: 1000 },
    },
  });
});
afterAll(() => ctx.close());

/** graphile-worker backs off exponentially; pull a failed job's next run forward so the test stays fast. */
async function hurry() {
  await ctx.db
    .updateTable('graphile_worker._private_jobs' as never)
    .set({ run_at: new Date() } as never)
    .execute();
}

describe('background jobs', () => {
  it('retries a job after a failure', async () => {
    const worker = await ctx.startWorkers({ extraJobs: [flakyHandler] });
    await enqueueJob(ctx.db, flakyJob, { key: 'retry', failTimes: 1 });
    await waitFor(async () => attempts.get('retry') === 1);
    await hurry();
    await waitFor(async () => done.has('retry'));
    expect(attempts.get('retry')).toBe(2);
    await worker.stop();
  });

  it('runs a job enqueued while no worker runs, after workers start again', async () => {
    await enqueueJob(ctx.db, flakyJob, { key: 'later', failTimes: 0 });
    expect(done.has('later')).toBe(false);
    const worker = await ctx.startWorkers({ extraJobs: [flakyHandler] });
    await waitFor(async () => done.has('later'));
    await worker.stop();
  });

  it('does not enqueue a job whose transaction rolls back', async () => {
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, flakyJob, { key: 'rolled-back', failTimes: 0 });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const worker = await ctx.startWorkers({ extraJobs: [flakyHandler] });
    await enqueueJob(ctx.db, flakyJob, { key: 'marker', failTimes: 0 });
    await waitFor(async () => done.has('marker'));
    expect(attempts.has('rolled-back')).toBe(false);
    await worker.stop();
  });

  it('releases the jobs of a worker process that died, so another process finishes them', async () => {
    // A job locked by a worker that never heartbeats again (its process was killed).
    await enqueueJob(ctx.db, flakyJob, { key: 'orphan', failTimes: 0 });
    await ctx.db
      .updateTable('graphile_worker._private_jobs' as never)
      .set({ locked_by: 'worker-dead', locked_at: new Date(Date.now() - 5000) } as never)
      .execute();
    await ctx.db
      .insertInto('worker_heartbeats')
      .values({ worker_id: 'worker-dead', process_id: 'gone', heartbeat_at: new Date(Date.now() - 5000) })
      .execute();
    const worker = await ctx.startWorkers({ extraJobs: [flakyHandler] });
    await waitFor(async () => done.has('orphan'));
    await worker.stop();
  });

  it('never releases a live process\u2019s long-running job (it runs once)', async () => {
    // Runs well past the heartbeat timeout (1 s) while the process keeps heartbeating.
    const worker = await ctx.startWorkers({ extraJobs: [slowHandler, flakyHandler] });
    await enqueueJob(ctx.db, slowJob, { key: 'long', ms: 3000 });
    await waitFor(async () => done.has('long'), 10_000);
    expect(attempts.get('long')).toBe(1);
    const live = await ctx.db.selectFrom('worker_heartbeats').select('worker_id').execute();
    expect(live.length).toBeGreaterThan(0);
    await worker.stop();
  });

  it('drops a job whose payload does not match its schema instead of retrying it forever', async () => {
    const worker = await ctx.startWorkers({ extraJobs: [flakyHandler] });
    await enqueueJob(ctx.db, flakyJob, { key: 'bad' } as never);
    await waitFor(async () => {
      const left = await ctx.db
        .selectFrom('graphile_worker._private_jobs' as never)
        .selectAll()
        .execute();
      return left.length === 0;
    });
    expect(attempts.has('bad')).toBe(false);
    await worker.stop();
  });
});
