import { type Kysely, sql } from 'kysely';

// The automation model: sender profiles, flows (with folders and immutable versions), enrollments
// (flow_leads: one contact's position in one flow) and tasks (one per enrollment step, plus manual
// to-dos). The engine reads and writes these; the API areas flows, senders and tasks own them.
//
// Reports must answer at ten million tasks and a million enrollments without counting rows, so every
// insert, update and delete of tasks and enrollments also writes signed count deltas (statement
// triggers with transition tables: one delta row per group and statement, whatever the number of rows
// changed, and no single counter row that concurrent writers fight over). Readers sum the deltas of
// the groups they need and fold them now and then, as lead_count_deltas (migration 0110) does.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sender_profiles (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      assignee_user_id bigint,
      first_name text not null,
      last_name text,
      label text,
      avatar_url text,
      -- {timezone, use_lead_timezone, timeblocks: [{dow, min, max}]} (src/lib/schedule.ts)
      schedule jsonb not null,
      -- Daily (and, for connection requests, weekly) targets per action type that override the
      -- defaults; see the senders module for the defaults and the warm-up ramp.
      limits jsonb not null default '{}',
      -- Rolling-7-day caps per action type that override the defaults (connection requests).
      weekly_limits jsonb not null default '{}',
      smart_limits_enabled boolean not null default false,
      -- Seconds between two actions of this sender inside a window (randomised around it); null = default.
      action_interval_seconds integer,
      status text not null default 'enabled' check (status in ('enabled', 'disabled')),
      hold_tasks_till timestamptz,
      linkedin_browser_id bigint,
      mailbox_uuid uuid,
      notification_emails text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index sender_profiles_team_created_idx on sender_profiles (team_id, created_at, uuid);

    create table flow_workspaces (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text not null,
      "order" integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index flow_workspaces_team_created_idx on flow_workspaces (team_id, created_at, uuid);

    create table flows (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      public_uuid uuid,
      user_id bigint,
      name text not null,
      description text,
      flow_workspace_uuid uuid,
      -- The active version: what new steps are planned from.
      flow_version_uuid uuid not null,
      use_sender_schedule boolean not null default false,
      schedule jsonb not null,
      -- Higher runs first when a sender's capacity is contended.
      priority integer not null default 2,
      status text not null default 'draft' check (status in ('on', 'off', 'draft', 'archived')),
      is_public boolean not null default false,
      -- Per-flow options that are not part of the hosted object (e-mail tracking opt-ins...).
      settings jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index flows_team_created_idx on flows (team_id, created_at, uuid);
    create index flows_team_status_idx on flows (team_id, status);
    create index flows_team_workspace_idx on flows (team_id, flow_workspace_uuid);

    -- Immutable: written once, never updated (a change is a new version).
    create table flow_versions (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      flow_uuid uuid not null,
      nodes jsonb not null,
      contact_sources jsonb not null,
      first_common_node_id integer,
      created_at timestamptz not null default now(),
      primary key (team_id, uuid),
      foreign key (team_id, flow_uuid) references flows (team_id, uuid) on delete cascade
    );
    create index flow_versions_team_flow_idx on flow_versions (team_id, flow_uuid, created_at);

    -- Enrollments (the hosted service's flow-leads). No foreign keys to flows or leads: an enrollment
    -- outlives a deleted flow or contact as history (ended with a reason) until it is purged.
    create table flow_leads (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      flow_uuid uuid not null,
      flow_version_uuid uuid not null,
      lead_uuid uuid not null,
      contact_source_id integer not null default 1,
      -- How it entered: 'user' (API, mass action), 'filter' (a self-filling contact source) or
      -- 'flow' (another flow's gs_send_to_flow node).
      added_by text not null default 'user' check (added_by in ('user', 'filter', 'flow')),
      sender_profile_uuid uuid,
      status text not null default 'in_progress'
        check (status in ('in_progress', 'paused', 'finished', 'canceled', 'failed')),
      -- The node it is at; with next_run_at null and status in_progress it waits for an event.
      flow_node_id integer,
      -- Number of steps taken so far: (enrollment, step) names one node visit for idempotency.
      step integer not null default 0,
      -- When the engine must look at it next. The engine's claim moves it a lease ahead, so rows of a
      -- worker that died come back by themselves.
      next_run_at timestamptz,
      -- Mirrors "the flow is on": the claim index holds only rows of running flows, so a stopped
      -- flow's backlog never slows the claim of the others. Set-based on start/stop/archive.
      flow_active boolean not null default false,
      -- Bumped by every claim and transition; a worker whose token is stale lost the row.
      claim_token integer not null default 0,
      -- What it is waiting for (engine-owned): {"kind": "event"|"hold"|..., "deadline": ...}.
      wait jsonb,
      -- Why it paused or ended: replied, node_removed, canceled, flow_deleted, sender_disabled...
      reason text,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    -- A contact enters a flow at most once, ever.
    create unique index flow_leads_team_flow_lead_key on flow_leads (team_id, flow_uuid, lead_uuid);
    create index flow_leads_team_flow_status_idx on flow_leads (team_id, flow_uuid, status, created_at, uuid);
    create index flow_leads_team_lead_idx on flow_leads (team_id, lead_uuid, flow_uuid);
    create index flow_leads_team_created_idx on flow_leads (team_id, created_at, uuid);
    -- Replies stop the contact's running enrollments with that sender; only live rows are indexed.
    create index flow_leads_team_lead_live_idx on flow_leads (team_id, lead_uuid, sender_profile_uuid)
      where status in ('in_progress', 'paused');
    -- The engine's claim: every team's due rows, earliest first. Finished, paused, waiting and
    -- stopped-flow rows are not in it, so history does not slow the claim down.
    create index flow_leads_due_idx on flow_leads (next_run_at)
      where status = 'in_progress' and flow_active and next_run_at is not null;

    create table tasks (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      lead_uuid uuid not null,
      company_uuid uuid,
      sender_profile_uuid uuid,
      mailbox_uuid uuid,
      flow_uuid uuid,
      flow_lead_uuid uuid,
      flow_node_id integer,
      -- The enrollment step this task is; with flow_lead_uuid it makes an automation task unique.
      step integer,
      type text not null,
      automation text not null check (automation in ('manual', 'auto')),
      status text not null default 'in_progress'
        check (status in ('in_progress', 'closed', 'canceled', 'failed', 'skipped')),
      payload jsonb,
      attempts integer not null default 0,
      error_msg text,
      automation_error_code text,
      fork_result integer,
      priority integer not null default 0,
      note text,
      timezone text,
      schedule_at timestamptz,
      executed_at timestamptz,
      -- Set in the same commit as the intent to execute, before any outside call (never-twice rule).
      taken_to_execute_at timestamptz,
      -- The channel's reference of what was done (message id, invitation id), for outcome checks.
      remote_ref text,
      assigned_to bigint,
      user_id bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index tasks_team_flow_lead_step_key on tasks (team_id, flow_lead_uuid, step)
      where flow_lead_uuid is not null;
    create index tasks_team_created_idx on tasks (team_id, created_at, uuid);
    create index tasks_team_flow_status_idx on tasks (team_id, flow_uuid, status, created_at, uuid);
    create index tasks_team_flow_node_idx on tasks (team_id, flow_uuid, flow_node_id, executed_at);
    create index tasks_team_sender_executed_idx on tasks (team_id, sender_profile_uuid, executed_at);
    -- A sender's day (planned tasks by time); across the team, PostgreSQL skips through the senders.
    create index tasks_team_sender_schedule_idx on tasks (team_id, sender_profile_uuid, schedule_at);
    create index tasks_team_lead_idx on tasks (team_id, lead_uuid, created_at);
    create index tasks_team_status_created_idx on tasks (team_id, status, created_at, uuid);
    create index tasks_team_executed_idx on tasks (team_id, executed_at) where executed_at is not null;
    -- One index per filter of the task list: the others lead the indexes above (schedule_at across a
    -- team is served by a skip scan of the sender index on PostgreSQL 18: a team has tens of senders).
    -- A type, however rare (InMails among millions of visits); to-dos, a small share of a team's
    -- tasks, by status for mass moves and in creation order for their list.
    create index tasks_team_type_idx on tasks (team_id, type, created_at, uuid);
    create index tasks_team_manual_idx on tasks (team_id, status, created_at, uuid) where automation = 'manual';

    -- Task counts by every dimension the reports group by (sums of these answer group-counts,
    -- flow metrics and node statistics without reading tasks).
    create table task_count_deltas (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      flow_uuid uuid,
      flow_node_id integer,
      sender_profile_uuid uuid,
      type text not null,
      automation text not null,
      status text not null,
      fork_result integer,
      automation_error_code text,
      delta bigint not null,
      primary key (team_id, id)
    );
    create index task_count_deltas_team_flow_idx on task_count_deltas (team_id, flow_uuid, flow_node_id);
  `.execute(db);

  // A statement trigger declares the transition tables of its one operation (no NEW TABLE on
  // DELETE), so each operation has its own trigger function.
  await sql`
    create function leadflow_task_counts_insert() returns trigger language plpgsql as $$
    begin
      insert into task_count_deltas (team_id, flow_uuid, flow_node_id, sender_profile_uuid, type,
        automation, status, fork_result, automation_error_code, delta)
      select team_id, flow_uuid, flow_node_id, sender_profile_uuid, type, automation, status,
        fork_result, automation_error_code, count(*)
      from leadflow_new_rows n
      where exists (select 1 from teams t where t.id = n.team_id)
      group by team_id, flow_uuid, flow_node_id, sender_profile_uuid, type, automation, status,
        fork_result, automation_error_code;
      return null;
    end $$;
    create function leadflow_task_counts_delete() returns trigger language plpgsql as $$
    begin
      insert into task_count_deltas (team_id, flow_uuid, flow_node_id, sender_profile_uuid, type,
        automation, status, fork_result, automation_error_code, delta)
      select team_id, flow_uuid, flow_node_id, sender_profile_uuid, type, automation, status,
        fork_result, automation_error_code, -count(*)
      from leadflow_old_rows o
      where exists (select 1 from teams t where t.id = o.team_id)
      group by team_id, flow_uuid, flow_node_id, sender_profile_uuid, type, automation, status,
        fork_result, automation_error_code;
      return null;
    end $$;
    create function leadflow_task_counts_update() returns trigger language plpgsql as $$
    begin
      insert into task_count_deltas (team_id, flow_uuid, flow_node_id, sender_profile_uuid, type,
        automation, status, fork_result, automation_error_code, delta)
      select d.team_id, d.flow_uuid, d.flow_node_id, d.sender_profile_uuid, d.type, d.automation,
        d.status, d.fork_result, d.automation_error_code, sum(d.n)
      from (
        select team_id, flow_uuid, flow_node_id, sender_profile_uuid, type, automation, status,
          fork_result, automation_error_code, 1 as n from leadflow_new_rows
        union all
        select team_id, flow_uuid, flow_node_id, sender_profile_uuid, type, automation, status,
          fork_result, automation_error_code, -1 as n from leadflow_old_rows
      ) d
      where exists (select 1 from teams t where t.id = d.team_id)
      group by d.team_id, d.flow_uuid, d.flow_node_id, d.sender_profile_uuid, d.type, d.automation,
        d.status, d.fork_result, d.automation_error_code
      having sum(d.n) <> 0;
      return null;
    end $$;

    create trigger tasks_counts_inserted after insert on tasks
      referencing new table as leadflow_new_rows
      for each statement execute function leadflow_task_counts_insert();
    create trigger tasks_counts_updated after update on tasks
      referencing old table as leadflow_old_rows new table as leadflow_new_rows
      for each statement execute function leadflow_task_counts_update();
    create trigger tasks_counts_deleted after delete on tasks
      referencing old table as leadflow_old_rows
      for each statement execute function leadflow_task_counts_delete();

    -- Enrollment counts per flow, contact source, way in and status (flow metrics, contact-source
    -- statistics and exact totals of flows-leads lists filtered by flow and status).
    create table flow_lead_count_deltas (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      flow_uuid uuid not null,
      contact_source_id integer not null,
      added_by text not null,
      status text not null,
      delta bigint not null,
      primary key (team_id, id)
    );
    create index flow_lead_count_deltas_team_flow_idx on flow_lead_count_deltas (team_id, flow_uuid);

    create function leadflow_flow_lead_counts_insert() returns trigger language plpgsql as $$
    begin
      insert into flow_lead_count_deltas (team_id, flow_uuid, contact_source_id, added_by, status, delta)
      select team_id, flow_uuid, contact_source_id, added_by, status, count(*)
      from leadflow_new_rows n
      where exists (select 1 from teams t where t.id = n.team_id)
      group by team_id, flow_uuid, contact_source_id, added_by, status;
      return null;
    end $$;
    create function leadflow_flow_lead_counts_delete() returns trigger language plpgsql as $$
    begin
      insert into flow_lead_count_deltas (team_id, flow_uuid, contact_source_id, added_by, status, delta)
      select team_id, flow_uuid, contact_source_id, added_by, status, -count(*)
      from leadflow_old_rows o
      where exists (select 1 from teams t where t.id = o.team_id)
      group by team_id, flow_uuid, contact_source_id, added_by, status;
      return null;
    end $$;
    create function leadflow_flow_lead_counts_update() returns trigger language plpgsql as $$
    begin
      insert into flow_lead_count_deltas (team_id, flow_uuid, contact_source_id, added_by, status, delta)
      select d.team_id, d.flow_uuid, d.contact_source_id, d.added_by, d.status, sum(d.n)
      from (
        select team_id, flow_uuid, contact_source_id, added_by, status, 1 as n from leadflow_new_rows
        union all
        select team_id, flow_uuid, contact_source_id, added_by, status, -1 as n from leadflow_old_rows
      ) d
      where exists (select 1 from teams t where t.id = d.team_id)
      group by d.team_id, d.flow_uuid, d.contact_source_id, d.added_by, d.status
      having sum(d.n) <> 0;
      return null;
    end $$;

    create trigger flow_leads_counts_inserted after insert on flow_leads
      referencing new table as leadflow_new_rows
      for each statement execute function leadflow_flow_lead_counts_insert();
    create trigger flow_leads_counts_updated after update on flow_leads
      referencing old table as leadflow_old_rows new table as leadflow_new_rows
      for each statement execute function leadflow_flow_lead_counts_update();
    create trigger flow_leads_counts_deleted after delete on flow_leads
      referencing old table as leadflow_old_rows
      for each statement execute function leadflow_flow_lead_counts_delete();

    -- Conversions the engine attributes to a node and a contact source when they happen (a
    -- connection request accepted, a message replied to, an e-mail opened...), and what was sent per
    -- channel: node and contact-source statistics sum these.
    create table flow_conversion_deltas (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      flow_uuid uuid not null,
      flow_node_id integer not null,
      contact_source_id integer not null,
      -- linkedin_connection_request, linkedin_message, linkedin_inmail, email
      channel text not null,
      -- sent, accepted, replied, opened, clicked, blocked, bounced
      kind text not null,
      delta bigint not null,
      occurred_at timestamptz not null default now(),
      primary key (team_id, id)
    );
    create index flow_conversion_deltas_team_flow_idx on flow_conversion_deltas (team_id, flow_uuid, flow_node_id);
  `.execute(db);
}
