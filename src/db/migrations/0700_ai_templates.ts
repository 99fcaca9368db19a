import { type Kysely, sql } from 'kysely';

// AI templates: saved message templates (Liquid + spintax body, optional LLM prompt with validation and
// a fallback). A team has tens to hundreds of them, so lists scan the team's rows in index order.
// Deleting a template removes the row (the hosted service keeps serving deleted templates; we do not).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ai_templates (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      template_category_uuid uuid,
      name text not null,
      type text not null check (type in ('message', 'connection_note', 'email', 'post_comment')),
      -- false: only its creator sees it.
      is_public boolean not null default true,
      subject text,
      body text,
      fallback_body text,
      attachments jsonb,
      prompt text,
      llm_uuid uuid,
      llm_config jsonb,
      enable_validation boolean not null default false,
      validation_prompt text,
      validation_llm_uuid uuid,
      validation_llm_config jsonb,
      enable_fallback boolean not null default false,
      settings jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index ai_templates_team_created_idx on ai_templates (team_id, created_at, uuid);
    create index ai_templates_team_updated_idx on ai_templates (team_id, updated_at, uuid);
  `.execute(db);
}
