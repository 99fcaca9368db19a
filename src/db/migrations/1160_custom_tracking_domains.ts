import { type Kysely, sql } from 'kysely';

// Custom tracking domains: a host of the team's own domain pointed at Leadflow with a CNAME, used in its
// e-mails' tracked links, open pixels and unsubscribe URLs once the CNAME is verified.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table custom_tracking_domains (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      domain text not null,
      status text not null default 'pending' check (status in ('pending', 'verified', 'failed')),
      cname_found text[] not null default '{}',
      error text,
      verified_at timestamptz,
      checked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid),
      unique (team_id, domain)
    );
    create index custom_tracking_domains_team_created_idx
      on custom_tracking_domains (team_id, created_at, uuid);
  `.execute(db);
}
