import { type Kysely, sql } from 'kysely';

// Activities: the timeline of contacts and companies (what the team and the product did with them), and
// lead_markers: per contact and sender profile, the counters the hosted service calls "markers" (e-mails
// sent/received/opened/clicked, LinkedIn messages, connection dates), kept as rows change instead of
// counted on read.
//
// A team gathers millions of activities (every message, open and stage change), so each filter a
// timeline uses has its own index in time order: per contact, per company (its own activities and its
// contacts'), per type, and team-wide. Exact totals of the unfiltered and type-filtered lists come from
// signed count deltas written by statement triggers, like lead_count_deltas (migration 0110).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table activities (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      object_type text not null check (object_type in ('lead', 'company')),
      object_uuid uuid not null,
      -- The contact (object_type lead), and the company: the object itself, or the contact's company
      -- when the activity was recorded, so a company's timeline shows its contacts' activities too.
      lead_uuid uuid,
      company_uuid uuid,
      type text not null,
      payload jsonb not null default '{}',
      -- Who recorded it through the API; null for what Leadflow recorded itself.
      user_id bigint,
      created_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index activities_team_created_idx on activities (team_id, created_at, uuid);
    create index activities_team_type_idx on activities (team_id, type, created_at, uuid);
    create index activities_team_lead_idx on activities (team_id, lead_uuid, created_at, uuid)
      where lead_uuid is not null;
    create index activities_team_company_idx on activities (team_id, company_uuid, created_at, uuid)
      where company_uuid is not null;

    create table activity_count_deltas (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      type text not null,
      delta bigint not null,
      primary key (team_id, id)
    );

    create function leadflow_activity_count_inserted() returns trigger language plpgsql as $$
    begin
      insert into activity_count_deltas (team_id, type, delta)
      select g.team_id, g.type, g.n from (
        select team_id, type, count(*) as n from leadflow_new_rows group by team_id, type
      ) g
      where exists (select 1 from teams t where t.id = g.team_id);
      return null;
    end $$;

    create function leadflow_activity_count_deleted() returns trigger language plpgsql as $$
    begin
      insert into activity_count_deltas (team_id, type, delta)
      select g.team_id, g.type, -g.n from (
        select team_id, type, count(*) as n from leadflow_old_rows group by team_id, type
      ) g
      where exists (select 1 from teams t where t.id = g.team_id);
      return null;
    end $$;

    create trigger activities_count_inserted after insert on activities
      referencing new table as leadflow_new_rows
      for each statement execute function leadflow_activity_count_inserted();
    create trigger activities_count_deleted after delete on activities
      referencing old table as leadflow_old_rows
      for each statement execute function leadflow_activity_count_deleted();

    create table lead_markers (
      team_id bigint not null references teams (id) on delete cascade,
      lead_uuid uuid not null,
      sender_profile_uuid uuid not null,
      email_sent_count integer not null default 0,
      email_inbox_count integer not null default 0,
      email_read_count integer not null default 0,
      email_click_count integer not null default 0,
      email_first_message_sent_at timestamptz,
      email_last_message_sent_at timestamptz,
      linkedin_last_connection_sent_at timestamptz,
      linkedin_last_connection_accepted_at timestamptz,
      linkedin_last_connection_lost_at timestamptz,
      linkedin_messages_sent_count integer not null default 0,
      linkedin_messages_inbox_count integer not null default 0,
      last_messaging_activity_at timestamptz,
      updated_at timestamptz not null default now(),
      primary key (team_id, lead_uuid, sender_profile_uuid)
    );

    -- Markers of what happened before this migration, from the messages, e-mails and signals stored.
    insert into lead_markers (team_id, lead_uuid, sender_profile_uuid, email_sent_count, email_inbox_count,
      email_read_count, email_click_count, email_first_message_sent_at, email_last_message_sent_at,
      linkedin_last_connection_sent_at, linkedin_last_connection_accepted_at,
      linkedin_messages_sent_count, linkedin_messages_inbox_count, last_messaging_activity_at)
    select team_id, lead_uuid, sender_profile_uuid,
      sum(email_sent)::int, sum(email_inbox)::int, sum(email_read)::int, sum(email_click)::int,
      min(email_first), max(email_last), max(connection_sent), max(connection_accepted),
      sum(li_sent)::int, sum(li_inbox)::int, max(messaging)
    from (
      select e.team_id, e.lead_uuid, e.sender_profile_uuid,
        (e.type = 'outbox' and e.status in ('sent', 'sync'))::int as email_sent,
        (e.type = 'inbox')::int as email_inbox,
        (e.opened_at is not null)::int as email_read, (e.clicked_at is not null)::int as email_click,
        case when e.type = 'outbox' then e.sent_at end as email_first,
        case when e.type = 'outbox' then e.sent_at end as email_last,
        null::timestamptz as connection_sent, null::timestamptz as connection_accepted,
        0 as li_sent, 0 as li_inbox, e.sent_at as messaging
      from emails e
      where e.lead_uuid is not null and e.sender_profile_uuid is not null
        and (e.type = 'inbox' or e.status in ('sent', 'sync'))
      union all
      select m.team_id, m.lead_uuid, m.sender_profile_uuid, 0, 0, 0, 0, null, null,
        case when m.linkedin_type = 'connection_note' then m.sent_at end, null,
        (m.type = 'outbox' and m.linkedin_type <> 'connection_note')::int, (m.type = 'inbox')::int,
        case when m.linkedin_type <> 'connection_note' then m.sent_at end
      from linkedin_messages m
      where m.lead_uuid is not null and m.status = 'done'
      union all
      select t.team_id, t.lead_uuid, t.sender_profile_uuid, 0, 0, 0, 0, null, null, t.executed_at, null,
        0, 0, null
      from tasks t
      where t.type = 'linkedin_send_connection_request' and t.status = 'closed'
        and t.sender_profile_uuid is not null
      union all
      select s.team_id, s.lead_uuid, s.sender_profile_uuid, 0, 0, 0, 0, null, null, null, s.occurred_at,
        0, 0, null
      from lead_signals s
      where s.kind = 'connection_accepted' and s.sender_profile_uuid is not null
    ) facts
    group by team_id, lead_uuid, sender_profile_uuid;
  `.execute(db);
}
