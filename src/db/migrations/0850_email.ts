import { type Kysely, sql } from 'kysely';

// The e-mail channel (src/modules/email/CONTEXT.md):
// - mailboxes: a team's SMTP/IMAP, Gmail or Outlook account bound to a sender profile. Connection
//   settings hold no secret; passwords and OAuth tokens live sealed (AES-GCM) in `secrets`. The send
//   pacing (next_send_at, today's count) lives on the row so every process honours it;
// - mailbox_errors: what went wrong sending, syncing or logging in, newest first;
// - mailbox_folders: the incremental IMAP sync cursor per folder (UIDVALIDITY, UIDNEXT, MODSEQ);
// - email_bodies and emails: every message sent or synced, stored once per mailbox and Message-ID.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mailboxes (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      sender_profile_uuid uuid not null,
      email text not null,
      sender_name text not null,
      provider text not null check (provider in ('smtp', 'gmail', 'outlook')),
      status text not null default 'active' check (status in ('active', 'inactive', 'error')),
      automation_daily_limit integer not null default 50 check (automation_daily_limit >= 0),
      automation_task_interval integer not null default 120 check (automation_task_interval >= 0),
      custom_tracking_domain_uuid uuid,
      connection_settings jsonb not null default '{}',
      secrets text,
      send_status text not null default 'pending' check (send_status in ('pending', 'ok', 'error')),
      sync_status text not null default 'pending' check (sync_status in ('pending', 'ok', 'error')),
      last_send_at timestamptz,
      last_sync_at timestamptz,
      -- Pacing shared by every process: no automated send before next_send_at, sent_today of sent_day.
      next_send_at timestamptz,
      sent_day date,
      sent_today integer not null default 0,
      -- The process syncing this mailbox holds it until sync_leased_until; next_sync_at: next poll.
      sync_leased_until timestamptz,
      next_sync_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index mailboxes_team_email_key on mailboxes (team_id, lower(email));
    create index mailboxes_team_sender_idx on mailboxes (team_id, sender_profile_uuid);
    create index mailboxes_team_created_idx on mailboxes (team_id, created_at, uuid);
    create index mailboxes_sync_due_idx on mailboxes (next_sync_at) where status = 'active';

    create table mailbox_errors (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      mailbox_uuid uuid not null,
      error_type text not null check (error_type in ('send', 'sync', 'auth')),
      message text not null,
      created_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index mailbox_errors_team_created_idx on mailbox_errors (team_id, created_at, uuid);
    create index mailbox_errors_team_mailbox_idx on mailbox_errors (team_id, mailbox_uuid, created_at);

    create table mailbox_folders (
      team_id bigint not null references teams (id) on delete cascade,
      mailbox_uuid uuid not null,
      path text not null,
      uid_validity bigint not null,
      -- Every message below uid_next has been looked at.
      uid_next bigint not null,
      highest_modseq bigint,
      synced_at timestamptz not null default now(),
      primary key (team_id, mailbox_uuid, path)
    );

    create table email_bodies (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      subject text,
      body text,
      text_body text,
      attachments jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index email_bodies_team_created_idx on email_bodies (team_id, created_at, uuid);

    create table emails (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      sender_profile_uuid uuid,
      mailbox_uuid uuid not null,
      email_body_uuid uuid,
      flow_uuid uuid,
      flow_node_id integer,
      task_uuid uuid,
      lead_uuid uuid,
      type text not null check (type in ('inbox', 'outbox')),
      status text not null check (status in
        ('need_sync', 'idle', 'waiting', 'sent', 'sync', 'cancelled', 'missing_body', 'error', 'bounced')),
      -- reply | auto_reply | bounce for received mail we recognised; null otherwise.
      classification text,
      from_name text,
      from_email text,
      to_name text,
      to_email text,
      cc text[] not null default '{}',
      bcc text[] not null default '{}',
      subject text,
      message_id text not null,
      in_reply_to text,
      "references" text[] not null default '{}',
      thread_uuid uuid,
      replied_to_uuid uuid,
      bounced_by_uuid uuid,
      folder text,
      imap_uid bigint,
      tracking boolean not null default false,
      opened_at timestamptz,
      clicked_at timestamptz,
      error text,
      sent_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index emails_team_mailbox_message_key on emails (team_id, mailbox_uuid, message_id);
    create unique index emails_team_task_key on emails (team_id, task_uuid) where task_uuid is not null;
    create index emails_team_message_idx on emails (team_id, message_id);
    create index emails_team_created_idx on emails (team_id, created_at, uuid);
    create index emails_team_sent_idx on emails (team_id, sent_at, uuid);
    create index emails_team_lead_idx on emails (team_id, lead_uuid, sent_at);
    create index emails_team_thread_idx on emails (team_id, thread_uuid, sent_at);
    create index emails_team_mailbox_idx on emails (team_id, mailbox_uuid, sent_at);
    create index emails_team_sender_idx on emails (team_id, sender_profile_uuid, sent_at);
    create index emails_team_flow_idx on emails (team_id, flow_uuid, sent_at) where flow_uuid is not null;
    create index emails_team_type_status_idx on emails (team_id, type, status, sent_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table emails;
    drop table email_bodies;
    drop table mailbox_folders;
    drop table mailbox_errors;
    drop table mailboxes;
  `.execute(db);
}
