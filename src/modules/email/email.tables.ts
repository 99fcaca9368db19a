// Owner: email writes mailboxes, mailbox_errors, mailbox_folders, email_bodies, emails.
import type { CreatedAt, Defaulted, Json, UpdatedAt } from '../../db/column-types.js';

export type MailboxProvider = 'smtp' | 'gmail' | 'outlook';
export type MailboxStatus = 'active' | 'inactive' | 'error';
export type HealthStatus = 'pending' | 'ok' | 'error';

/** Connection settings as stored and returned: hosts, ports, security and usernames - never a secret. */
export type ConnectionSettings = {
  smtp_host?: string;
  smtp_port?: number;
  smtp_secure?: boolean;
  smtp_username?: string;
  imap_host?: string;
  imap_port?: number;
  imap_secure?: boolean;
  imap_username?: string;
};

export interface MailboxesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string;
  email: string;
  sender_name: string;
  provider: MailboxProvider;
  status: Defaulted<MailboxStatus>;
  automation_daily_limit: Defaulted<number>;
  automation_task_interval: Defaulted<number>;
  custom_tracking_domain_uuid: string | null;
  connection_settings: Json<ConnectionSettings>;
  /** Sealed JSON (src/lib/secrets.ts): passwords or OAuth tokens. */
  secrets: string | null;
  send_status: Defaulted<HealthStatus>;
  sync_status: Defaulted<HealthStatus>;
  last_send_at: Date | null;
  last_sync_at: Date | null;
  next_send_at: Date | null;
  sent_day: string | null;
  sent_today: Defaulted<number>;
  sync_leased_until: Date | null;
  next_sync_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type MailboxErrorType = 'send' | 'sync' | 'auth';

export interface MailboxErrorsTable {
  team_id: number;
  uuid: string;
  mailbox_uuid: string;
  error_type: MailboxErrorType;
  message: string;
  created_at: CreatedAt;
}

export interface MailboxFoldersTable {
  team_id: number;
  mailbox_uuid: string;
  path: string;
  uid_validity: string;
  uid_next: string;
  highest_modseq: string | null;
  synced_at: Defaulted<Date>;
}

export type EmailAttachmentRef = { uuid?: string; name: string; type: string; size: number };

export interface EmailBodiesTable {
  team_id: number;
  uuid: string;
  subject: string | null;
  body: string | null;
  text_body: string | null;
  attachments: Json<EmailAttachmentRef[]>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type EmailType = 'inbox' | 'outbox';
export type EmailStatus =
  | 'need_sync'
  | 'idle'
  | 'waiting'
  | 'sent'
  | 'sync'
  | 'cancelled'
  | 'missing_body'
  | 'error'
  | 'bounced';
export type EmailClassification = 'reply' | 'auto_reply' | 'bounce';

export interface EmailsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string | null;
  mailbox_uuid: string;
  email_body_uuid: string | null;
  flow_uuid: string | null;
  flow_node_id: number | null;
  task_uuid: string | null;
  lead_uuid: string | null;
  type: EmailType;
  status: EmailStatus;
  classification: EmailClassification | null;
  from_name: string | null;
  from_email: string | null;
  to_name: string | null;
  to_email: string | null;
  cc: Defaulted<string[]>;
  bcc: Defaulted<string[]>;
  subject: string | null;
  message_id: string;
  in_reply_to: string | null;
  references: Defaulted<string[]>;
  thread_uuid: string | null;
  replied_to_uuid: string | null;
  bounced_by_uuid: string | null;
  folder: string | null;
  imap_uid: string | null;
  tracking: Defaulted<boolean>;
  opened_at: Date | null;
  clicked_at: Date | null;
  /** Incoming e-mails: when someone marked it read (null: unread). */
  read_at: Date | null;
  error: string | null;
  sent_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
