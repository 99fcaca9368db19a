import { type Kysely, sql } from 'kysely';

// Sign-in for the web application: password hashes, browser sessions, one-time password links (first
// start, admin resets) and team invites. Secrets are stored only as SHA-256 (tokens) or scrypt (passwords).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_passwords (
      user_id bigint primary key references users (id) on delete cascade,
      hash text not null,
      updated_at timestamptz not null default now()
    );

    create table user_sessions (
      token_hash text primary key,
      user_id bigint not null references users (id) on delete cascade,
      csrf_token text not null,
      user_agent text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index user_sessions_user_idx on user_sessions (user_id);

    create table password_tokens (
      token_hash text primary key,
      user_id bigint not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index password_tokens_user_idx on password_tokens (user_id);

    create table team_invites (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      email text not null,
      role text not null,
      token_hash text not null unique,
      invited_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      accepted_at timestamptz,
      primary key (team_id, uuid)
    );
    create index team_invites_pending_idx on team_invites (team_id, created_at) where accepted_at is null;
  `.execute(db);
}
