// Deleting contacts is permanent and immediate for reads; what hangs on them (notes, enrollments,
// messages...) is removed by a background job, so deleting a million contacts stays one statement
// in the request. Deleted uuids wait in lead_tombstones until the job has purged their dependents.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, handleJob, jobType } from '../../jobs/queue.js';

export const purgeDeletedLeadsJob = jobType(
  'leads.purgeDeletedLeads',
  Type.Object({ teamId: Type.Integer() }),
  { maxAttempts: 20 },
);

/** Removes a batch of deleted contacts' dependent records; modules add one each (notes, tasks...). */
export type LeadPurgeStep = (trx: Executor, teamId: number, leadUuids: string[]) => Promise<void>;

const PURGE_BATCH = 1000;

/**
 * Deletes the team's contacts matching `where` (on alias `l`) and queues the purge of their dependents.
 * Returns the number of contacts deleted. Run it inside the caller's transaction.
 */
export async function deleteLeadsWhere(
  trx: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
): Promise<number> {
  const result = await sql<{ deleted: number }>`
    with deleted as (
      delete from leads l where l.team_id = ${teamId} and ${where} returning l.team_id, l.uuid
    ), tombstones as (
      insert into lead_tombstones (team_id, uuid) select team_id, uuid from deleted
      on conflict do nothing
    )
    select count(*)::int as deleted from deleted
  `.execute(trx);
  const deleted = result.rows[0]?.deleted ?? 0;
  if (deleted > 0) {
    // One pending purge per team is enough: it drains every tombstone of the team.
    await enqueueJob(
      trx,
      purgeDeletedLeadsJob,
      { teamId },
      { jobKey: `leads.purge:${teamId}`, jobKeyMode: 'preserve_run_at' },
    );
  }
  return deleted;
}

/** Deletes one contact of the team (see deleteLeadsWhere); 0 when there is none. */
export function deleteLead(trx: Executor, teamId: number, uuid: string): Promise<number> {
  return deleteLeadsWhere(trx, teamId, sql<SqlBool>`l.uuid = ${uuid}`);
}

/** Deletes the contacts of one list of the team (see deleteLeadsWhere). */
export function deleteLeadsOfList(trx: Executor, teamId: number, listUuid: string): Promise<number> {
  return deleteLeadsWhere(trx, teamId, sql<SqlBool>`l.list_uuid = ${listUuid}`);
}

export function purgeDeletedLeadsHandler(deps: { db: Database; steps: LeadPurgeStep[] }) {
  return handleJob(purgeDeletedLeadsJob, async ({ teamId }) => {
    for (;;) {
      const purged = await deps.db.transaction().execute(async (trx) => {
        const batch = await sql<{ uuid: string }>`
          select uuid from lead_tombstones where team_id = ${teamId}
          order by deleted_at limit ${PURGE_BATCH} for update skip locked
        `.execute(trx);
        const uuids = batch.rows.map((row) => row.uuid);
        if (uuids.length === 0) return 0;
        for (const step of deps.steps) await step(trx, teamId, uuids);
        await sql`delete from lead_tombstones where team_id = ${teamId} and uuid = any(${uuids}::uuid[])`.execute(
          trx,
        );
        return uuids.length;
      });
      if (purged < PURGE_BATCH) return;
    }
  });
}
