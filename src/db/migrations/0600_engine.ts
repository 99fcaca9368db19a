import { type Kysely, sql } from 'kysely';

// The automation engine's own state, next to the model of migration 0500:
// - a contact time zone (schedules can run in the contact's zone);
// - LinkedIn seats, minimal here (the seat a sender acts through and which driver runs it); the
//   LinkedIn channel adds the rest;
// - per sender and channel: when its next action may go out (human spacing), what is paused by a
//   limit signal, and which flow it served last (fair turns) - the dispatcher claims these rows;
// - signals from the outside world about a contact (accepted invitation, reply, open, click), the
//   facts triggers and stop rules read; stored once per external key, whatever the retries;
// - the sandbox LinkedIn network's record of what it was asked to do and how it will answer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table leads add column timezone text;

    -- A claim holds an enrollment until lease_until (a worker that dies gives it back then). Neither it
    -- nor claim_token is indexed, so a claim is a HOT update that leaves every index alone; the free
    -- space fillfactor keeps on each page is what lets it be HOT.
    alter table flow_leads add column lease_until timestamptz;
    alter table flow_leads set (fillfactor = 85);

    create table linkedin_browsers (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      sender_profile_uuid uuid not null,
      driver text not null default 'chromium' check (driver in ('chromium', 'sandbox')),
      name text,
      status text not null default 'stopped' check (status in
        ('running', 'stopped', 'idle', 'start_issue', 'running_issue', 'login_issue', 'initializing')),
      error_reason text,
      linkedin_account_uuid uuid,
      user_id bigint,
      last_start_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, id)
    );
    -- (0930 indexes id alone: a unique index without team_id is one Citus refuses.)
    create index linkedin_browsers_team_sender_idx on linkedin_browsers (team_id, sender_profile_uuid);

    create table sender_channel_state (
      team_id bigint not null references teams (id) on delete cascade,
      sender_profile_uuid uuid not null,
      channel text not null check (channel in ('linkedin', 'email')),
      -- When the dispatcher should look at this sender's ready actions again; null: nothing ready.
      next_dispatch_at timestamptz,
      -- The earliest instant of this sender's next action on this channel (randomised human gap).
      next_slot_at timestamptz,
      -- action type -> paused until (a channel's limit signal, e.g. LinkedIn's weekly invitation limit).
      paused_until jsonb not null default '{}',
      -- flow uuid -> when this sender last served it, for fair turns between flows of one priority.
      flow_turns jsonb not null default '{}',
      actions_done bigint not null default 0,
      -- A dispatcher working on this sender holds it until then; nobody else claims it meanwhile.
      leased_until timestamptz,
      -- Actions that became ready while a dispatcher held the sender: its release keeps the earliest.
      pending_dispatch_at timestamptz,
      claim_token integer not null default 0,
      updated_at timestamptz not null default now(),
      primary key (team_id, sender_profile_uuid, channel)
    );
    create index sender_channel_state_due_idx on sender_channel_state (next_dispatch_at)
      where next_dispatch_at is not null;

    -- Fair rotation: how many enrollments of a contact source each sender was given.
    create table contact_source_rotation (
      team_id bigint not null references teams (id) on delete cascade,
      flow_uuid uuid not null,
      contact_source_id integer not null,
      sender_profile_uuid uuid not null,
      assigned bigint not null default 0,
      primary key (team_id, flow_uuid, contact_source_id, sender_profile_uuid)
    );

    create table lead_signals (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      lead_uuid uuid not null,
      sender_profile_uuid uuid,
      -- connection_accepted, linkedin_replied, linkedin_inmail_replied, email_replied, email_opened,
      -- link_clicked, email_bounced, email_unsubscribed
      kind text not null,
      occurred_at timestamptz not null,
      -- The channel's id of what happened (message id...): a signal is stored once per key.
      external_key text,
      payload jsonb,
      primary key (team_id, id)
    );
    create unique index lead_signals_team_key on lead_signals (team_id, kind, external_key)
      where external_key is not null;
    create index lead_signals_team_lead_idx on lead_signals (team_id, lead_uuid, kind, occurred_at);

    -- Actions ready for the dispatcher: one sender's oldest per flow, found by index.
    create index tasks_ready_actions_idx on tasks (team_id, sender_profile_uuid, flow_uuid, schedule_at)
      where status = 'in_progress' and automation = 'auto' and taken_to_execute_at is null
        and (type like 'linkedin_%' or type = 'email_send_message');
    -- Today's (and this week's) usage of a sender's limits: actions taken, by type.
    create index tasks_team_sender_taken_idx on tasks (team_id, sender_profile_uuid, type, taken_to_execute_at)
      where taken_to_execute_at is not null;
    -- Actions whose outcome was never recorded (a worker died mid-send): the reconciler's list.
    create index tasks_unconfirmed_idx on tasks (taken_to_execute_at)
      where status = 'in_progress' and taken_to_execute_at is not null;

    -- The sandbox LinkedIn network: every action it was asked to do (duplicates included - the
    -- simulation counts them), and the answer it will give and when.
    create table sandbox_linkedin_actions (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      seat_id bigint,
      sender_profile_uuid uuid not null,
      lead_uuid uuid not null,
      action text not null,
      task_uuid uuid,
      text text,
      performed_at timestamptz not null,
      -- accept (a connection request) or reply (a message); null: no answer will come.
      response text,
      respond_at timestamptz,
      responded_at timestamptz,
      primary key (team_id, id)
    );
    create index sandbox_linkedin_actions_task_idx on sandbox_linkedin_actions (task_uuid);
    create index sandbox_linkedin_actions_team_sender_idx
      on sandbox_linkedin_actions (team_id, sender_profile_uuid, action, performed_at);
    create index sandbox_linkedin_actions_due_idx on sandbox_linkedin_actions (respond_at)
      where responded_at is null and respond_at is not null;
  `.execute(db);
}
