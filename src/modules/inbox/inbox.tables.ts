// Owner: inbox writes email_threads.
import type { ColumnType } from 'kysely';

/** One e-mail thread per contact, kept by the triggers of migration 1210 (never written by the app). */
export interface EmailThreadsTable {
  team_id: number;
  thread_uuid: string;
  lead_uuid: string;
  sender_profile_uuid: string | null;
  mailbox_uuid: string | null;
  subject: string | null;
  last_message_at: ColumnType<Date | null, never, never>;
  unread_count: number;
}
