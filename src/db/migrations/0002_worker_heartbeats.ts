import { type Kysely, sql } from 'kysely';

// graphile-worker keeps a job locked for 4 hours when the process running it dies. Workers record a
// heartbeat here so a live process can release a dead one's jobs within a minute instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table worker_heartbeats (
      worker_id text primary key,
      process_id text not null,
      heartbeat_at timestamptz not null default now()
    );
  `.execute(db);
}
