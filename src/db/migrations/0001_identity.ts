import { type Kysely, sql } from 'kysely';

// Users, teams, memberships and API keys. Teams are the tenant root: every tenant table
// created later carries team_id as the leading column of its keys.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Time-ordered UUIDs (v7) for rows created in SQL (imports, set-based copies); the app
    -- generates the same kind in TypeScript. PostgreSQL 18 has uuidv7(), 14 does not.
    create or replace function leadflow_uuid_v7() returns uuid language sql volatile as $$
      select encode(
        set_bit(set_bit(
          overlay(uuid_send(gen_random_uuid())
            placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
            from 1 for 6),
          52, 1), 53, 1), 'hex')::uuid
    $$;

    create table users (
      id bigint generated always as identity primary key,
      uuid uuid not null unique,
      email text not null,
      first_name text,
      last_name text,
      email_status text not null default 'ok',
      image_url text,
      timezone text not null default 'UTC',
      config jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));

    create table teams (
      id bigint generated always as identity primary key,
      name text not null,
      color text,
      status text not null default 'active',
      user_id bigint references users (id),
      features jsonb not null default '{}',
      credits_activities bigint not null default 0,
      credits_advanced_enrichment bigint not null default 0,
      credits_llm bigint not null default 0,
      config jsonb not null default '{"is_onboarding_completed": false, "is_cloud_browser_disabled": false}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table team_members (
      team_id bigint not null references teams (id) on delete cascade,
      user_id bigint not null references users (id) on delete cascade,
      role text not null default 'member',
      created_at timestamptz not null default now(),
      primary key (team_id, user_id)
    );
    create index team_members_user_idx on team_members (user_id, team_id);

    -- Keys belong to a user (spec 5); only a SHA-256 of the secret is stored.
    create table api_keys (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      name text not null,
      key_hash text not null unique,
      key_prefix text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_user_idx on api_keys (user_id);
  `.execute(db);
}
