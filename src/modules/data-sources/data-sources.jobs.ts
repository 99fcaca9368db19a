// The data sources' jobs: one run of a source at a time (a job key per source, and a run lock), a
// sweep giving every running source without a pending run one, and (re)scheduling a source's run.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, handleJob, jobType } from '../../jobs/queue.js';
import { exclusively } from '../files/run-lock.js';
import { type DataSourceRunnerDeps, runDataSource } from './data-sources.runner.js';

export const runDataSourceJob = jobType(
  'dataSources.run',
  Type.Object({ teamId: Type.Integer(), uuid: Type.String({ format: 'uuid' }) }),
  { maxAttempts: 25 },
);

const jobKey = (teamId: number, uuid: string) => `data-sources.run:${teamId}:${uuid}`;

export const resumeStalledDataSourcesJob = jobType('dataSources.resumeStalled', Type.Object({}), {
  schedule: '*/10 * * * *',
  maxAttempts: 3,
});

/**
 * Gives every running source without a live run one: a run that failed its last retry, a queue
 * emptied by a restore. One statement; a source whose run is pending (or running) is left alone.
 */
export async function resumeStalledDataSources(db: Executor): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(graphile_worker.add_job(
      identifier => ${runDataSourceJob.name}::text,
      payload => json_build_object('teamId', d.team_id, 'uuid', d.uuid),
      max_attempts => ${runDataSourceJob.maxAttempts ?? null}::int,
      job_key => 'data-sources.run:' || d.team_id || ':' || d.uuid,
      job_key_mode => 'replace'
    ))::int as n
    from data_sources d
    where d.status = 'in_progress' and d.type <> 'csv_leads'
      and not exists (
        select 1 from graphile_worker._private_jobs j
        where j.key = 'data-sources.run:' || d.team_id || ':' || d.uuid and j.attempts < j.max_attempts
      )
  `.execute(db);
  return result.rows[0]?.n ?? 0;
}

export function resumeStalledDataSourcesHandler(deps: { db: Database }) {
  return handleJob(resumeStalledDataSourcesJob, async (_payload, { log }) => {
    const resumed = await resumeStalledDataSources(deps.db);
    if (resumed > 0) log.warn({ resumed }, 'data sources without a pending run were given one');
  });
}

/** (Re)schedules the source's run; one pending run per source (the job key replaces an earlier one). */
export async function scheduleDataSourceRun(db: Executor, teamId: number, uuid: string, runAt?: Date) {
  await enqueueJob(
    db,
    runDataSourceJob,
    { teamId, uuid },
    { jobKey: jobKey(teamId, uuid), jobKeyMode: 'replace', ...(runAt ? { runAt } : {}) },
  );
}

export function dataSourceJobHandler(deps: DataSourceRunnerDeps) {
  return handleJob(runDataSourceJob, async ({ teamId, uuid }) => {
    let next: Date | null = null;
    const ran = await exclusively(deps.db, jobKey(teamId, uuid), async (connection) => {
      next = await runDataSource({ ...deps, db: connection }, teamId, uuid);
    });
    if (ran) {
      // Scheduled after the run's lock is released, so the next run never finds it still held.
      if (next) await scheduleDataSourceRun(deps.db, teamId, uuid, next);
      return;
    }
    // Another live run has it and schedules the next one when it ends; should its process die, this
    // one looks again later (an earlier run it schedules meanwhile wins).
    await enqueueJob(
      deps.db,
      runDataSourceJob,
      { teamId, uuid },
      {
        jobKey: jobKey(teamId, uuid),
        jobKeyMode: 'preserve_run_at',
        runAt: new Date(deps.clock.now().getTime() + deps.waitMs),
      },
    );
  });
}
