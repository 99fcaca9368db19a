// Mass actions too large for one request run here: the request stores a bulk_operations row and
// queues this job in the same transaction; the job hands the operation to the runner registered for
// its type (contacts, companies...), which works in short batches and reports progress per batch.
import { type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, handleJob, jobType } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import {
  addBulkOperationProgress,
  finishBulkOperation,
  insertBulkOperation,
  startBulkOperation,
} from './bulk-operations.repository.js';
import type { BulkOperationsTable } from './bulk-operations.tables.js';

export type BulkOperationRow = Selectable<BulkOperationsTable>;

export const runBulkOperationJob = jobType(
  'bulkOperations.run',
  Type.Object({ teamId: Type.Integer(), uuid: Type.String({ format: 'uuid' }) }),
  { maxAttempts: 5 },
);

/** Records `affected` more changed records, inside the batch's own transaction. */
export type ProgressFn = (trx: Executor, affected: number) => Promise<void>;

export type BulkOperationRunner = {
  /** Operation types this runner executes. */
  types: readonly string[];
  /** Runs the operation to the end. An AppError fails it for good; other errors are retried. */
  run(operation: BulkOperationRow, progress: ProgressFn): Promise<void>;
};

/**
 * Applies an action to the team's records of `table` (alias `alias`) matching `where`, in batches
 * taken in uuid order, each in its own short transaction that also records its progress. `apply`
 * gets the batch as a condition and returns how many records it changed. Actions only touch records
 * not yet in the wanted state, so a retried run repeats no change.
 *
 * With `drain`, `where` must select exactly the records the action changes (every change takes a
 * record out of `where`): each batch is then the first records still matching, found by the index
 * that serves `where`, instead of a walk along the uuids of the whole team.
 */
export async function applyInBatches(
  db: Database,
  scope: {
    table: 'leads' | 'companies' | 'tasks';
    alias: 'l' | 'c' | 't';
    teamId: number;
    where: RawBuilder<SqlBool>;
  },
  batchSize: number,
  apply: (trx: Executor, batch: RawBuilder<SqlBool>) => Promise<number>,
  progress: ProgressFn,
  options: { drain?: boolean } = {},
): Promise<void> {
  const alias = sql.raw(scope.alias);
  let after: string | null = null;
  for (;;) {
    const { taken, changed } = await db.transaction().execute(async (trx) => {
      const cursor = after === null ? sql<SqlBool>`true` : sql<SqlBool>`${alias}.uuid > ${after}::uuid`;
      const rows = await sql<{ uuid: string }>`
        select ${alias}.uuid from ${sql.table(scope.table)} ${alias}
        where ${alias}.team_id = ${scope.teamId} and ${scope.where} and ${cursor}
        ${options.drain ? sql`` : sql`order by ${alias}.uuid`} limit ${batchSize}
      `.execute(trx);
      const uuids = rows.rows.map((row) => row.uuid);
      if (uuids.length === 0) return { taken: uuids, changed: 0 };
      const count = await apply(trx, sql<SqlBool>`${scope.where} and ${alias}.uuid = any(${uuids}::uuid[])`);
      await progress(trx, count);
      return { taken: uuids, changed: count };
    });
    if (taken.length < batchSize) return;
    // Draining: the changed records left the selection; one that did not change would come back, so
    // a batch that changed nothing ends the run.
    if (options.drain) {
      if (changed === 0) return;
    } else after = taken.at(-1)!;
  }
}

/** Stores the operation and queues its job; call inside the caller's transaction. */
export async function queueBulkOperation(
  trx: Executor,
  operation: { teamId: number; userId: number | null; type: string; filter: unknown; payload: unknown },
): Promise<BulkOperationRow> {
  const row = await insertBulkOperation(trx, {
    team_id: operation.teamId,
    uuid: newId(),
    user_id: operation.userId,
    type: operation.type,
    filter: operation.filter,
    payload: operation.payload,
  });
  await enqueueJob(trx, runBulkOperationJob, { teamId: row.team_id, uuid: row.uuid });
  return row;
}

export function runBulkOperationHandler(deps: { db: Database; runners: BulkOperationRunner[] }) {
  const byType = new Map<string, BulkOperationRunner>();
  for (const runner of deps.runners) for (const type of runner.types) byType.set(type, runner);
  return handleJob(runBulkOperationJob, async ({ teamId, uuid }, context) => {
    const operation = await startBulkOperation(deps.db, teamId, uuid);
    if (!operation) return;
    const runner = byType.get(operation.type);
    if (!runner) {
      await finishBulkOperation(deps.db, teamId, uuid, {
        status: 'failed',
        error: `No runner for operation type ${operation.type}`,
      });
      return;
    }
    try {
      await runner.run(operation, (trx, affected) => addBulkOperationProgress(trx, teamId, uuid, affected));
      await finishBulkOperation(deps.db, teamId, uuid, { status: 'done' });
    } catch (error) {
      const final = error instanceof AppError || context.attempt >= context.maxAttempts;
      if (!final) throw error;
      context.log.warn({ err: error, operation: uuid }, 'bulk operation failed');
      await finishBulkOperation(deps.db, teamId, uuid, {
        status: 'failed',
        error: error instanceof AppError ? error.message : 'Internal error; the operation was stopped.',
      });
    }
  });
}
