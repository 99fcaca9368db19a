import { type Kysely, sql } from 'kysely';

// LinkedIn messages and conversations (src/modules/linkedin-messages/): what was sent through a seat
// (by hand, queued with POST, or by a flow) and what was read from its inbox by the sync. One index per
// list filter, each leading with team_id. A synced message is stored once: (team, sender, remote
// message id) is unique. Plus the per-seat sync state and the sandbox network's inbox.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table linkedin_conversations (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      id bigint generated always as identity,
      sender_profile_uuid uuid not null,
      lead_uuid uuid not null,
      -- The remote conversation id when the channel told it.
      conversation_hash text,
      ln_id text,
      ln_member_id bigint,
      sn_id text,
      lead_nickname text,
      linkedin_messenger_type text not null default 'basic',
      event_count integer not null default 0,
      last_activity_at timestamptz,
      last_stored_message_at timestamptz,
      last_msg_sync_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    -- A 1:1 conversation per sender and contact.
    create unique index linkedin_conversations_team_sender_lead_key
      on linkedin_conversations (team_id, sender_profile_uuid, lead_uuid);
    create index linkedin_conversations_team_lead_idx on linkedin_conversations (team_id, lead_uuid);
    create index linkedin_conversations_team_created_idx on linkedin_conversations (team_id, created_at, uuid);
    create index linkedin_conversations_team_updated_idx on linkedin_conversations (team_id, updated_at, uuid);
    create index linkedin_conversations_team_activity_idx
      on linkedin_conversations (team_id, last_activity_at, uuid);

    create table linkedin_messages (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      sender_profile_uuid uuid not null,
      linkedin_conversation_uuid uuid,
      lead_uuid uuid,
      user_id bigint,
      flow_uuid uuid,
      task_uuid uuid,
      template_uuid uuid,
      -- The remote message id (sync) or the channel's reference of a sent one.
      message_hash text,
      subject text,
      text text,
      attachments jsonb,
      type text not null check (type in ('inbox', 'outbox')),
      automation text not null check (automation in ('auto', 'manual', 'synced')),
      linkedin_type text not null,
      status text not null check (status in ('new', 'in_progress', 'done', 'failed')),
      fail_reason text,
      attempts integer not null default 0,
      -- When the send was taken (the intent, before the driver is called).
      taken_at timestamptz,
      read_at timestamptz,
      sent_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index linkedin_messages_team_sender_hash_key
      on linkedin_messages (team_id, sender_profile_uuid, message_hash) where message_hash is not null;
    create index linkedin_messages_team_hash_idx on linkedin_messages (team_id, message_hash);
    create index linkedin_messages_team_lead_idx on linkedin_messages (team_id, lead_uuid, created_at);
    create index linkedin_messages_team_sender_idx on linkedin_messages (team_id, sender_profile_uuid, created_at);
    create index linkedin_messages_team_conversation_idx
      on linkedin_messages (team_id, linkedin_conversation_uuid, sent_at);
    create index linkedin_messages_team_type_idx on linkedin_messages (team_id, type, created_at);
    create index linkedin_messages_team_status_idx on linkedin_messages (team_id, status, created_at);
    create index linkedin_messages_team_ltype_idx on linkedin_messages (team_id, linkedin_type, created_at);
    create index linkedin_messages_team_automation_idx on linkedin_messages (team_id, automation, created_at);
    create index linkedin_messages_team_task_idx on linkedin_messages (team_id, task_uuid) where task_uuid is not null;
    create index linkedin_messages_team_template_idx on linkedin_messages (team_id, template_uuid)
      where template_uuid is not null;
    create index linkedin_messages_team_user_idx on linkedin_messages (team_id, user_id) where user_id is not null;
    create index linkedin_messages_team_created_idx on linkedin_messages (team_id, created_at, uuid);
    create index linkedin_messages_team_updated_idx on linkedin_messages (team_id, updated_at, uuid);
    create index linkedin_messages_team_sent_idx on linkedin_messages (team_id, sent_at, uuid);
    create index linkedin_messages_team_search_idx on linkedin_messages
      using gin (team_id, (lower(coalesce(subject, '') || ' ' || coalesce(text, ''))) gin_trgm_ops);
    -- Manual sends of a sender by day (its limits) and the queue of a sender.
    create index linkedin_messages_sender_taken_idx on linkedin_messages (team_id, sender_profile_uuid, taken_at)
      where automation = 'manual' and taken_at is not null;
    create index linkedin_messages_in_progress_idx on linkedin_messages (team_id, sender_profile_uuid, taken_at)
      where status = 'in_progress';

    -- Per seat (sender): where the inbox sync got to, and when it runs next.
    create table linkedin_sync_state (
      team_id bigint not null references teams (id) on delete cascade,
      sender_profile_uuid uuid not null,
      cursor text,
      next_sync_at timestamptz not null default now(),
      leased_until timestamptz,
      last_synced_at timestamptz,
      last_error text,
      primary key (team_id, sender_profile_uuid)
    );
    create index linkedin_sync_state_due_idx on linkedin_sync_state (next_sync_at);

    -- The sandbox network's inbox: answers of its members (replies, accepted invitations) a sandbox
    -- seat's sync reads.
    create table sandbox_linkedin_inbox (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      sender_profile_uuid uuid not null,
      lead_uuid uuid,
      kind text not null check (kind in ('message', 'accepted')),
      conversation_id text,
      member jsonb not null default '{}',
      text text,
      subject text,
      linkedin_type text,
      occurred_at timestamptz not null,
      primary key (team_id, id)
    );
    create index sandbox_linkedin_inbox_sender_idx on sandbox_linkedin_inbox (team_id, sender_profile_uuid, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table sandbox_linkedin_inbox;
    drop table linkedin_sync_state;
    drop table linkedin_messages;
    drop table linkedin_conversations;
  `.execute(db);
}
