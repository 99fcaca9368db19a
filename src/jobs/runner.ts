// Runs the merged job catalog with graphile-worker in this process, and keeps the queue healthy when
// a worker process dies: graphile-worker would leave that process's jobs locked for four hours, so
// every live process heartbeats its workers and releases the jobs of workers that stopped doing so.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  type CronItem,
  parseCronItems,
  type Runner,
  run,
  type Task,
  type TaskList,
  type WorkerEvents,
} from 'graphile-worker';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { silentWorkerLogger } from '../db/migrate.js';
import { checkPayload, InvalidJobPayload, type JobHandler } from './queue.js';

export type WorkerOptions = {
  db: Database;
  pool: pg.Pool;
  jobs: JobHandler[];
  concurrency: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  log: Logger;
};

export type WorkerHandle = { processId: string; stop(): Promise<void> };

function toTaskList(jobs: JobHandler[], log: Logger): TaskList {
  const tasks: TaskList = {};
  for (const { type: job, run: handler } of jobs) {
    if (tasks[job.name]) throw new Error(`Two job handlers are registered for ${job.name}`);
    const task: Task = async (payload, helpers) => {
      const jobLog = log.child({ job: job.name, jobId: helpers.job.id, attempt: helpers.job.attempts });
      let checked: unknown;
      try {
        checked = checkPayload(job, payload);
      } catch (error) {
        if (error instanceof InvalidJobPayload) {
          // Retrying cannot fix a malformed payload: log it and drop the job.
          jobLog.error({ err: error }, 'dropping job with invalid payload');
          return;
        }
        throw error;
      }
      await handler(checked as never, {
        jobId: helpers.job.id,
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
        log: jobLog,
      });
    };
    tasks[job.name] = task;
  }
  return tasks;
}

/**
 * graphile-worker cron items for the scheduled jobs. The job key keeps one pending run at most (a tick
 * that finds the previous run still queued does not add a second).
 */
export function cronItemsOf(jobs: JobHandler[]): CronItem[] {
  return jobs
    .filter(({ type }) => type.schedule)
    .map(({ type }) => ({
      task: type.name,
      match: type.schedule!,
      identifier: type.name,
      options: { maxAttempts: type.maxAttempts ?? 3, jobKey: type.name, jobKeyMode: 'preserve_run_at' },
    }));
}

export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const processId = randomUUID();
  // The ids this process locks jobs under. graphile-worker 0.17 locks with the worker *pool's* id;
  // worker ids are recorded too so the heartbeat stays right if that ever changes.
  const workerIds = new Set<string>();
  const { db, log } = options;

  // Our own emitter, passed in, so the pool and worker creation events (emitted while run() starts)
  // are not missed.
  const events = new EventEmitter() as WorkerEvents;
  events.on('pool:create', ({ workerPool }) => workerIds.add(workerPool.id));
  events.on('worker:create', ({ worker }) => workerIds.add(worker.workerId));
  const runner: Runner = await run({
    pgPool: options.pool,
    taskList: toTaskList(options.jobs, log),
    parsedCronItems: parseCronItems(cronItemsOf(options.jobs)),
    concurrency: options.concurrency,
    pollInterval: options.pollIntervalMs,
    noHandleSignals: true,
    logger: silentWorkerLogger,
    events,
  });
  runner.events.on('job:error', ({ job, error }) =>
    log.warn(
      { err: error, job: job.task_identifier, jobId: job.id, attempt: job.attempts },
      'job failed; will retry',
    ),
  );
  runner.events.on('job:failed', ({ job, error }) =>
    log.error({ err: error, job: job.task_identifier, jobId: job.id }, 'job failed permanently'),
  );

  async function beat(): Promise<void> {
    if (workerIds.size === 0) return;
    await sql`
      insert into worker_heartbeats (worker_id, process_id, heartbeat_at)
      select id, ${processId}, now() from unnest(${[...workerIds]}::text[]) as id
      on conflict (worker_id) do update set heartbeat_at = excluded.heartbeat_at
    `.execute(db);
  }

  async function releaseDeadWorkers(): Promise<void> {
    const timeout = `${options.heartbeatTimeoutMs} milliseconds`;
    // Workers whose process stopped beating, plus lock holders that never registered at all.
    const dead = await sql<{ worker_id: string }>`
      select worker_id from worker_heartbeats where heartbeat_at < now() - ${timeout}::interval
      union
      select distinct j.locked_by from graphile_worker._private_jobs j
      where j.locked_by is not null and j.locked_at < now() - ${timeout}::interval
        and not exists (select 1 from worker_heartbeats h where h.worker_id = j.locked_by)
    `.execute(db);
    const ids = dead.rows.map((row) => row.worker_id).filter((id) => !workerIds.has(id));
    if (ids.length === 0) return;
    await sql`select graphile_worker.force_unlock_workers(${ids}::text[])`.execute(db);
    await sql`delete from worker_heartbeats where worker_id = any(${ids}::text[])`.execute(db);
    log.warn({ workers: ids }, 'released jobs of workers that stopped heartbeating');
  }

  const tick = async () => {
    try {
      await beat();
      await releaseDeadWorkers();
    } catch (error) {
      log.warn({ err: error }, 'worker heartbeat failed');
    }
  };
  await tick();
  const timer = setInterval(tick, options.heartbeatIntervalMs);
  timer.unref();

  let stopped = false;
  return {
    processId,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      // Graceful: running jobs finish (or are released when they outlast graphile's abort timeout).
      await runner.stop();
      await sql`delete from worker_heartbeats where process_id = ${processId}`
        .execute(db)
        .catch(() => undefined);
    },
  };
}
