import { type Kysely, sql } from 'kysely';

// Contacts: exact totals without counting, and the index of the work_email_domain filter.
//
// Exact contact totals per team without counting rows. An unfiltered contact list must show the
// exact total, and count(*) over a team of a million contacts walks a million index entries (~50-80
// ms on two cores) on every page. Statement triggers record each insert and delete as a signed delta
// row instead (one row per statement, whatever the number of contacts, and no row that concurrent
// writers fight over); the total is the sum of the team's deltas, which readers compact now and then.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table lead_count_deltas (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      delta bigint not null,
      primary key (team_id, id)
    );

    -- Rows of a team being deleted are skipped: its deltas go with it (on delete cascade).
    create function leadflow_lead_count_inserted() returns trigger language plpgsql as $$
    begin
      insert into lead_count_deltas (team_id, delta)
      select g.team_id, g.n from (
        select team_id, count(*) as n from leadflow_new_rows group by team_id
      ) g
      where exists (select 1 from teams t where t.id = g.team_id);
      return null;
    end $$;

    create function leadflow_lead_count_deleted() returns trigger language plpgsql as $$
    begin
      insert into lead_count_deltas (team_id, delta)
      select g.team_id, -g.n from (
        select team_id, count(*) as n from leadflow_old_rows group by team_id
      ) g
      where exists (select 1 from teams t where t.id = g.team_id);
      return null;
    end $$;

    create trigger leads_count_inserted after insert on leads
      referencing new table as leadflow_new_rows
      for each statement execute function leadflow_lead_count_inserted();
    create trigger leads_count_deleted after delete on leads
      referencing old table as leadflow_old_rows
      for each statement execute function leadflow_lead_count_deleted();

    insert into lead_count_deltas (team_id, delta) select team_id, count(*) from leads group by team_id;

    -- filter.work_email_domain compares this expression (0120's domain index holds unlinked contacts only).
    create index leads_team_work_email_domain_idx on leads (team_id, split_part(work_email, '@', 2))
      where work_email is not null;
  `.execute(db);
}
