import { type Kysely, sql } from 'kysely';

// The AI API: a team's LLM connections (the API key sealed), AI agents, and the log of every LLM call.
// References to connections (agents, AI templates) are not foreign keys: a template may still hold the
// hosted service's llm_uuid; a name that matches no connection means the team's default one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table llms (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text not null,
      provider text not null,
      owner text not null default 'customer' check (owner in ('customer', 'gs')),
      base_url text not null,
      model text not null,
      api_key_sealed text,
      api_key_last4 text,
      is_default boolean not null default false,
      last_test_at timestamptz,
      last_test_status text check (last_test_status in ('succeeded', 'failed')),
      last_test_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index llms_team_created_idx on llms (team_id, created_at, uuid);
    create unique index llms_one_default_idx on llms (team_id) where is_default;

    create table ai_agents (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      public_uuid uuid,
      user_id bigint,
      name text not null,
      description text,
      avatar_url text,
      classification_llm_uuid uuid,
      classification_llm_config jsonb,
      classification_prompt text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index ai_agents_team_created_idx on ai_agents (team_id, created_at, uuid);

    create table llm_logs (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      llm_uuid uuid,
      source text not null,
      purpose text not null default 'generation',
      model text not null,
      status text not null check (status in ('succeeded', 'failed')),
      error text,
      tokens_in integer not null default 0,
      tokens_out integer not null default 0,
      latency_ms integer not null default 0,
      messages jsonb,
      answer text,
      flow_uuid uuid,
      lead_uuid uuid,
      ai_template_uuid uuid,
      created_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index llm_logs_team_created_idx on llm_logs (team_id, created_at, uuid);
    create index llm_logs_team_llm_idx on llm_logs (team_id, llm_uuid, created_at);
  `.execute(db);
}
