import { type Kysely, sql } from 'kysely';

// LinkedIn seats in full: proxy settings (the password sealed), sharing, the LinkedIn session sealed at
// rest (a browser started by any process restores it; `session_version` tells an open browser that a
// newer session exists), the public login link (only the key's hash is stored) and its one viewer's
// lease, and the inbox sync's bookkeeping.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table linkedin_browsers
      add column external_id text,
      add column shared_emails text[] not null default '{}',
      add column proxy_country_code text,
      add column custom_proxy_config jsonb not null default '[]',
      add column proxy_password_sealed text,
      add column session_sealed text,
      add column session_version integer not null default 0,
      add column session_saved_at timestamptz,
      add column linkedin_member_id text,
      add column access_key_hash text,
      add column access_key_expires_at timestamptz,
      add column viewer_lease_until timestamptz,
      add column viewer_id text,
      add column last_sync_at timestamptz,
      add column sync_cursor jsonb;
    -- (0930 indexes access_key_hash: a unique index without team_id is one Citus refuses.)
    -- The sync job walks running seats by when they were last synced.
    create index linkedin_browsers_sync_idx on linkedin_browsers (last_sync_at nulls first)
      where status = 'running';
  `.execute(db);
}
