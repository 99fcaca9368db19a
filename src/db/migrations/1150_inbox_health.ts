import { type Kysely, sql } from 'kysely';

// The inbox sync's health per seat: how many conversations the seat's inbox listed on its last read that
// listed any, and how many reads in a row came back empty since. An inbox that had conversations and
// comes back empty twice in a row is flagged (the driver most likely no longer sees the page).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table linkedin_sync_state
      add column listed_conversations integer,
      add column empty_inbox_reads integer not null default 0;
  `.execute(db);
}
