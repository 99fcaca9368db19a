import { type Kysely, sql } from 'kysely';

// Contact sources that fill themselves: a contact source with a mass_actions_filter enrols, while its
// flow is on, every contact of the team that matches the filter. One row per such source of an active
// version (written when the version is saved) holds where the background fill stands: the full scan's
// position in contact uuid order (existing contacts), and since when changed contacts are to be looked
// at again (new or changed ones). Flows without such a source have no row, so the fill job costs them
// nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table flow_filter_sources (
      team_id bigint not null references teams (id) on delete cascade,
      flow_uuid uuid not null,
      contact_source_id integer not null,
      -- The version whose contact source this is (the flow's active version).
      flow_version_uuid uuid not null,
      -- Contacts with a uuid above this one are still to be scanned; null: the full scan is done.
      scan_after uuid,
      -- Contacts changed since then are looked at again once the full scan is done.
      changed_since timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, flow_uuid, contact_source_id),
      foreign key (team_id, flow_uuid) references flows (team_id, uuid) on delete cascade
    );
  `.execute(db);
}
