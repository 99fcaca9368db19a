// Deleting a tag removes its row at once; taking its uuid off every contact and company can touch a
// million rows, so it runs here in short batches instead of one long statement in the request.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { handleJob, jobType } from '../../jobs/queue.js';

export const stripDeletedTagJob = jobType(
  'tags.stripDeletedTag',
  Type.Object({ teamId: Type.Integer(), tagUuid: Type.String({ format: 'uuid' }) }),
  { maxAttempts: 20 },
);

const BATCH = 5000;

/** Takes the tag off up to BATCH records of `table`; returns how many it changed. */
export async function stripTagBatch(
  db: Executor,
  table: 'leads' | 'companies',
  teamId: number,
  tagUuid: string,
) {
  const result = await sql`
    with batch as (
      select uuid from ${sql.table(table)}
      where team_id = ${teamId} and tags @> array[${tagUuid}::uuid]
      limit ${BATCH} for update
    )
    update ${sql.table(table)} r set tags = array_remove(r.tags, ${tagUuid}::uuid), updated_at = now()
    from batch where r.team_id = ${teamId} and r.uuid = batch.uuid
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export function tagJobHandlers(deps: { db: Database }) {
  return [
    handleJob(stripDeletedTagJob, async ({ teamId, tagUuid }) => {
      for (const table of ['leads', 'companies'] as const) {
        while ((await stripTagBatch(deps.db, table, teamId, tagUuid)) > 0) {}
      }
    }),
  ];
}
