import { type Kysely, sql } from 'kysely';

// Data sources: LinkedIn searches (and the records CSV imports name) that fill a list. The row carries
// the search's cursor (next page, and how far into it) so a paused source resumes where it stopped, and
// its counters, increased per page in the transaction that saves the page (metrics read them, no scan).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_sources (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      sender_profile_uuid uuid,
      list_uuid uuid not null,
      type text not null,
      status text not null default 'not_started' check (
        status in ('not_started', 'in_progress', 'on_hold', 'completed', 'failed', 'contacts_limit_achieved')
      ),
      payload jsonb not null default '{}',
      tags uuid[] not null default '{}',
      errors jsonb not null default '[]',
      next_page integer not null default 1,
      next_index integer not null default 0,
      pages_read integer not null default 0,
      total_results integer,
      read_records integer not null default 0,
      saved_records integer not null default 0,
      duplicate_records integer not null default 0,
      blacklisted_records integer not null default 0,
      error_records integer not null default 0,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid),
      foreign key (team_id, list_uuid) references lists (team_id, uuid) on delete cascade,
      -- Deleting the profile clears sender_profile_uuid (senders.repository.ts; 0930 says why not here).
      foreign key (team_id, sender_profile_uuid) references sender_profiles (team_id, uuid)
    );
    create index data_sources_team_created_idx on data_sources (team_id, created_at);
    create index data_sources_team_updated_idx on data_sources (team_id, updated_at);
    create index data_sources_team_status_idx on data_sources (team_id, status);
    create index data_sources_team_type_idx on data_sources (team_id, type);
    create index data_sources_team_list_idx on data_sources (team_id, list_uuid);
    create index data_sources_team_sender_idx on data_sources (team_id, sender_profile_uuid)
      where sender_profile_uuid is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table data_sources`.execute(db);
}
