import { type Kysely, sql } from 'kysely';

// CSV imports and exports. An import is one uploaded file plus the state of its (latest) import run:
// the mapping and options, the counters, the first errors and the checkpoint a restarted run resumes
// from. An export is a filter plus the file it produced. Both are keyed by (team_id, uuid) and every
// index leads with team_id; an export's file name is unique per team because downloads look it up by
// team + name.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_imports (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      type text not null default 'csv_leads' check (type in ('csv_leads', 'csv_companies')),
      status text not null default 'uploaded'
        check (status in ('uploaded', 'queued', 'processing', 'done', 'failed')),
      file_name text not null,
      storage_key text not null,
      size_bytes bigint not null,
      encoding text not null,
      has_bom boolean not null default false,
      delimiter text not null,
      headers jsonb not null,
      rows_count integer not null,
      sample_rows jsonb not null,
      -- The mapping and options of the current run (null until an import is started).
      config jsonb,
      total_rows integer not null default 0,
      processed_rows integer not null default 0,
      -- File row (header = 1) of the last record whose chunk committed; a restarted run skips up to it.
      checkpoint_row integer not null default 0,
      created_count integer not null default 0,
      updated_count integer not null default 0,
      duplicate_count integer not null default 0,
      blacklisted_count integer not null default 0,
      error_count integer not null default 0,
      -- The first 100 row errors, {row, reason}.
      errors jsonb not null default '[]',
      error text,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index file_imports_team_created_idx on file_imports (team_id, created_at, uuid);
    create index file_imports_team_status_idx on file_imports (team_id, status, created_at);

    create table file_exports (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      type text not null check (type in ('contact_export_csv', 'account_export_csv')),
      status text not null default 'queued' check (status in ('queued', 'processing', 'done', 'failed')),
      filter jsonb not null,
      -- Columns asked for (null: all of them).
      fields jsonb,
      -- Mass-action exports leave blacklisted contacts out, like every other mass action.
      skip_blacklisted boolean not null default false,
      file_name text,
      storage_key text,
      rows_count integer,
      size_bytes bigint,
      error text,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index file_exports_team_file_name_key on file_exports (team_id, file_name)
      where file_name is not null;
    create index file_exports_team_created_idx on file_exports (team_id, created_at, uuid);
    create index file_exports_team_status_idx on file_exports (team_id, status, created_at);
  `.execute(db);
}
