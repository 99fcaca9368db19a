import { type Kysely, sql } from 'kysely';

// The running sources of every team, for the scheduled job that gives a running source without a
// pending run a new one (data-sources.runner.ts, resumeStalledDataSources).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index data_sources_running_idx on data_sources (team_id, uuid) where status = 'in_progress';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index data_sources_running_idx`.execute(db);
}
