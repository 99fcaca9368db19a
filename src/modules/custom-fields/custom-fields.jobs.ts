// Deleting a custom field removes its definition at once (its values stop being shown, since records
// are presented through the definitions); stripping the values from up to a million records runs here
// in short batches instead of one long statement in the request.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { handleJob, jobType } from '../../jobs/queue.js';

export const stripDeletedCustomFieldJob = jobType(
  'customFields.stripDeletedField',
  Type.Object({
    teamId: Type.Integer(),
    object: Type.Union([Type.Literal('lead'), Type.Literal('company')]),
    fieldUuid: Type.String({ format: 'uuid' }),
  }),
  { maxAttempts: 20 },
);

const BATCH = 5000;
const RECORD_TABLES = { lead: 'leads', company: 'companies' } as const;

export async function stripCustomFieldBatch(
  db: Executor,
  table: 'leads' | 'companies',
  teamId: number,
  fieldUuid: string,
) {
  // Records are found through the (team_id, record keys) GIN index of migration 0130.
  const result = await sql`
    with batch as (
      select uuid from ${sql.table(table)}
      where team_id = ${teamId} and custom_fields <> '{}'::jsonb
        and leadflow_jsonb_keys(custom_fields) @> array[${fieldUuid}::text]
      limit ${BATCH} for update
    )
    update ${sql.table(table)} r set custom_fields = r.custom_fields - ${fieldUuid}::text, updated_at = now()
    from batch where r.team_id = ${teamId} and r.uuid = batch.uuid
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export function customFieldJobHandlers(deps: { db: Database }) {
  return [
    handleJob(stripDeletedCustomFieldJob, async ({ teamId, object, fieldUuid }) => {
      while ((await stripCustomFieldBatch(deps.db, RECORD_TABLES[object], teamId, fieldUuid)) > 0) {}
    }),
  ];
}
