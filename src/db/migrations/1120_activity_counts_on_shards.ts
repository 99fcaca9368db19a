import { type Kysely, sql } from 'kysely';
import { deltaRows, deltaTriggerFunction } from './0960_count_deltas_on_shards.js';

// The activity count triggers of 1100 in the form that also runs on Citus (0960 says why).
export async function up(db: Kysely<unknown>): Promise<void> {
  const dims = [['type', 'text']] as const;
  await sql
    .raw(
      [
        { fn: 'leadflow_activity_count_inserted', source: deltaRows(dims, 'leadflow_new_rows', 1) },
        { fn: 'leadflow_activity_count_deleted', source: deltaRows(dims, 'leadflow_old_rows', -1) },
      ]
        .map(({ fn, source }) => deltaTriggerFunction({ fn, table: 'activity_count_deltas', dims, source }))
        .join('\n'),
    )
    .execute(db);
}
