// Background jobs run on graphile-worker: a PostgreSQL queue (no extra server), jobs added with plain
// SQL inside the caller's transaction (so a job exists exactly when its state change committed),
// retries with exponential backoff, and any number of worker processes via SKIP LOCKED.
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Static, TSchema } from 'typebox';
import { Check, Errors } from 'typebox/value';
import type { Executor } from '../db/database.js';

export type JobContext = {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  log: Logger;
};

/** A kind of job: its name and payload schema. Enqueuers import this; handlers are bound in deps.ts. */
export type JobType<S extends TSchema = TSchema> = {
  /** `module.verbNoun`, e.g. `leads.purgeLead`. */
  name: string;
  payload: S;
  maxAttempts?: number;
  /**
   * Crontab time fields (UTC) for a recurring job, e.g. `17 * * * *` (hourly at :17). Every worker
   * process registers it; graphile-worker enqueues each tick once however many processes run.
   */
  schedule?: string;
};

export function jobType<S extends TSchema>(
  name: string,
  payload: S,
  options: { maxAttempts?: number; schedule?: string } = {},
): JobType<S> {
  return { name, payload, ...options };
}

export type JobHandler<S extends TSchema = TSchema> = {
  type: JobType<S>;
  run: (payload: Static<S>, context: JobContext) => Promise<void>;
};

export function handleJob<S extends TSchema>(
  type: JobType<S>,
  run: (payload: Static<S>, context: JobContext) => Promise<void>,
): JobHandler<S> {
  return { type, run } as JobHandler<S>;
}

export type EnqueueOptions = {
  runAt?: Date;
  /** Deduplicates: a second job with the same key replaces (or, with `preserve_run_at`, keeps) the first. */
  jobKey?: string;
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  maxAttempts?: number;
  /** Jobs in one named queue run one at a time, in order. */
  queueName?: string;
  priority?: number;
};

/** Adds a job using `executor`, so inside a transaction it commits or rolls back with it. */
export async function enqueueJob<S extends TSchema>(
  executor: Executor,
  job: JobType<S>,
  payload: Static<S>,
  options: EnqueueOptions = {},
): Promise<string> {
  const result = await sql<{ id: string }>`
    select (graphile_worker.add_job(
      identifier => ${job.name}::text,
      payload => ${JSON.stringify(payload)}::json,
      queue_name => ${options.queueName ?? null}::text,
      run_at => ${options.runAt ?? null}::timestamptz,
      max_attempts => ${options.maxAttempts ?? job.maxAttempts ?? null}::int,
      job_key => ${options.jobKey ?? null}::text,
      priority => ${options.priority ?? null}::int,
      job_key_mode => ${options.jobKeyMode ?? null}::text
    )).id::text as id
  `.execute(executor);
  return result.rows[0]!.id;
}

/** Adds many jobs of one kind in a single statement. */
export async function enqueueJobs<S extends TSchema>(
  executor: Executor,
  job: JobType<S>,
  payloads: Static<S>[],
  options: Pick<EnqueueOptions, 'runAt' | 'maxAttempts' | 'queueName'> = {},
): Promise<void> {
  if (payloads.length === 0) return;
  await sql`
    select graphile_worker.add_jobs(array(
      select (
        ${job.name}::text, p, ${options.queueName ?? null}::text, ${options.runAt ?? null}::timestamptz,
        ${options.maxAttempts ?? job.maxAttempts ?? null}::int, null::text, null::int, null::text[]
      )::graphile_worker.job_spec
      from json_array_elements(${JSON.stringify(payloads)}::json) as p
    ))
  `.execute(executor);
}

export class InvalidJobPayload extends Error {}

/** Payloads may come from older code; check them against the definition before running. */
export function checkPayload<S extends TSchema>(job: JobType<S>, payload: unknown): Static<S> {
  if (Check(job.payload, payload)) return payload as Static<S>;
  const first = Errors(job.payload, payload)[0];
  throw new InvalidJobPayload(
    `Job ${job.name} has an invalid payload: ${first ? `${first.instancePath} ${first.message}` : 'unknown error'}`,
  );
}
