import { type Kysely, sql } from 'kysely';

// Retention: old events and old CSV files are removed by scheduled jobs. The file records stay (they
// are the history of imports and exports) and say when their file was removed. Deleting an event
// cascades to its deliveries, which needs an index from the event side.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table file_imports add column file_removed_at timestamptz;
    alter table file_exports add column file_removed_at timestamptz;
    create index webhook_deliveries_team_event_idx on webhook_deliveries (team_id, event_uuid);
  `.execute(db);
}
