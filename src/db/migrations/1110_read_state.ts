import { type Kysely, sql } from 'kysely';

// Read state of the inbox: a LinkedIn conversation counts the contact's messages nobody has read yet
// (unread_count, moved as messages arrive and reset by contact_mark_read), and an incoming e-mail is
// unread until read_at is set. The "has unread" contact filter and the unread counts read the small
// partial indexes of unread rows, never the message tables.
//
// What was received before this migration counts as read: an upgraded inbox does not start with
// every old message unread.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table linkedin_conversations add column unread_count integer not null default 0;
    create index linkedin_conversations_team_unread_idx on linkedin_conversations (team_id, lead_uuid)
      where unread_count > 0;
    update linkedin_messages set read_at = coalesce(sent_at, created_at)
      where type = 'inbox' and read_at is null;

    alter table emails add column read_at timestamptz;
    update emails set read_at = coalesce(sent_at, created_at) where type = 'inbox';
    create index emails_team_unread_idx on emails (team_id, lead_uuid, thread_uuid)
      where type = 'inbox' and read_at is null and lead_uuid is not null;
  `.execute(db);
}
