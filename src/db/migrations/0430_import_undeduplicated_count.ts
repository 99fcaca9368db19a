import { type Kysely, sql } from 'kysely';

// Contact imports accept rows known only by a name, as POST /leads/api/leads does; such rows cannot be
// deduplicated, and the import record counts them so its owner knows a second import creates them again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_imports add column undeduplicated_count integer not null default 0`.execute(db);
}
