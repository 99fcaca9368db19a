import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

export async function insertBulkOperation(
  db: Executor,
  operation: {
    team_id: number;
    uuid: string;
    user_id: number | null;
    type: string;
    filter: unknown;
    payload: unknown;
  },
) {
  return db
    .insertInto('bulk_operations')
    .values({
      team_id: operation.team_id,
      uuid: operation.uuid,
      user_id: operation.user_id,
      type: operation.type,
      filter: JSON.stringify(operation.filter ?? null),
      payload: JSON.stringify(operation.payload ?? null),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function selectBulkOperation(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('bulk_operations')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Moves a queued (or retried) operation to processing; undefined when it is already finished. */
export async function startBulkOperation(db: Executor, teamId: number, uuid: string) {
  return db
    .updateTable('bulk_operations')
    .set({ status: 'processing', updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', 'in', ['queued', 'processing'])
    .returningAll()
    .executeTakeFirst();
}

/** Adds a batch's count; run in the batch's transaction so the count never disagrees with the data. */
export async function addBulkOperationProgress(db: Executor, teamId: number, uuid: string, affected: number) {
  await sql`
    update bulk_operations set affected = coalesce(affected, 0) + ${affected}, updated_at = now()
    where team_id = ${teamId} and uuid = ${uuid}
  `.execute(db);
}

export async function finishBulkOperation(
  db: Executor,
  teamId: number,
  uuid: string,
  outcome: { status: 'done' } | { status: 'failed'; error: string },
) {
  await db
    .updateTable('bulk_operations')
    .set({
      status: outcome.status,
      error: outcome.status === 'failed' ? outcome.error : null,
      affected: sql<number>`coalesce(affected, 0)`,
      finished_at: new Date(),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .execute();
}
