import { type Kysely, sql } from 'kysely';

// One row per sender and read kind: when its next LinkedIn read may start and how many it made on the
// current UTC day. Enrichment and data sources of every process claim reads through it
// (src/modules/channels/read-pace.ts), so one account's reads share one budget.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table linkedin_read_pace (
      team_id bigint not null references teams (id) on delete cascade,
      sender_profile_uuid uuid not null,
      kind text not null check (kind in ('profile', 'search')),
      next_at timestamptz not null,
      day date not null,
      count integer not null,
      primary key (team_id, sender_profile_uuid, kind),
      foreign key (team_id, sender_profile_uuid) references sender_profiles (team_id, uuid) on delete cascade
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table linkedin_read_pace`.execute(db);
}
