import { type Kysely, sql } from 'kysely';

// Saved views of the web application's tables (contacts, companies, tasks): a name, the page's filters,
// sort and visible columns, kept per user and team. A user's view names are unique per page
// (case-insensitive); removing the user or the team removes their views.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table saved_views (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint not null references users (id) on delete cascade,
      page text not null check (page in ('contacts', 'companies', 'tasks')),
      name text not null,
      filter jsonb not null default '{}',
      sort jsonb,
      columns text[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index saved_views_team_user_page_name_idx
      on saved_views (team_id, user_id, page, lower(name));
  `.execute(db);
}
