// Read state of the inbox: what a contact sent that nobody has read yet. A LinkedIn conversation keeps
// its unread_count (moved by the LinkedIn sync as messages arrive), an incoming e-mail is unread until
// its read_at is set; bounce reports never count. Both are found through partial indexes of unread
// rows only (migration 1110), so "has unread" and the counts stay cheap however large the inbox is.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { coerceScalar, type FilterField } from '../../lib/filter.js';

/** An unread e-mail of alias `e` (matches the partial index emails_team_unread_idx). */
const unreadEmail = sql<SqlBool>`e.type = 'inbox' and e.read_at is null and e.lead_uuid is not null
  and e.classification is distinct from 'bounce'`;

/**
 * Contacts (alias `l`) of team `teamId` with an unread LinkedIn message or e-mail. The team is a value in
 * the subqueries (not `l.team_id`), so on Citus they reach the team's own shard group. Without a team,
 * the contact's own.
 */
export function hasUnread(teamId: number | undefined) {
  const team = teamId === undefined ? sql.ref('l.team_id') : sql`${teamId}::bigint`;
  return sql<SqlBool>`(
  exists (select 1 from linkedin_conversations c
          where c.team_id = ${team} and c.lead_uuid = l.uuid and c.unread_count > 0)
  or exists (select 1 from emails e where e.team_id = ${team} and e.lead_uuid = l.uuid and ${unreadEmail}))`;
}

/** The contact filter key `has_unread` (true: something unread; false: nothing) of team `teamId`. */
export function hasUnreadFilterField(teamId: number | undefined): FilterField {
  return {
    type: 'boolean',
    description: 'Has an unread LinkedIn message or e-mail (true) or none (false)',
    compile: (value, { path }) =>
      coerceScalar({ type: 'boolean' }, value, path)
        ? hasUnread(teamId)
        : sql<SqlBool>`not ${hasUnread(teamId)}`,
  };
}

export type UnreadCount = {
  category: 'linkedin' | 'email';
  sender_profile_uuid: string | null;
  count: number;
};

/** The contact's unread counts per channel and sender profile (only non-zero entries). */
export async function selectUnreadCounts(
  db: Executor,
  teamId: number,
  leadUuid: string,
): Promise<UnreadCount[]> {
  const { rows } = await sql<UnreadCount>`
    select 'linkedin' as category, c.sender_profile_uuid, sum(c.unread_count)::int as count
    from linkedin_conversations c
    where c.team_id = ${teamId} and c.lead_uuid = ${leadUuid} and c.unread_count > 0
    group by c.sender_profile_uuid
    union all
    select 'email', e.sender_profile_uuid, count(*)::int
    from emails e where e.team_id = ${teamId} and e.lead_uuid = ${leadUuid} and ${unreadEmail}
    group by e.sender_profile_uuid
    order by 1, 2
  `.execute(db);
  return rows;
}

/** Unread incoming e-mails per thread among `threadUuids` (for the e-mail list). */
export async function selectUnreadByThread(db: Executor, teamId: number, threadUuids: string[]) {
  if (threadUuids.length === 0) return new Map<string, number>();
  const { rows } = await sql<{ thread_uuid: string; count: number }>`
    select e.thread_uuid, count(*)::int as count from emails e
    where e.team_id = ${teamId} and e.thread_uuid = any(${threadUuids}::uuid[]) and ${unreadEmail}
    group by e.thread_uuid
  `.execute(db);
  return new Map(rows.map((row) => [row.thread_uuid, row.count]));
}

/**
 * Marks everything the selected contacts (alias `l`, condition `where`) sent as read: their LinkedIn
 * messages and conversations and their e-mails. One statement; only contacts with something unread are
 * touched. Returns how many contacts had something to mark.
 */
export async function markContactsRead(
  trx: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with picked as (
      select l.uuid from leads l where l.team_id = ${teamId} and ${where} and ${hasUnread(teamId)}
    ),
    read_conversations as (
      update linkedin_conversations c set unread_count = 0, updated_at = now() from picked p
      where c.team_id = ${teamId} and c.lead_uuid = p.uuid and c.unread_count > 0
      returning c.lead_uuid
    ),
    read_messages as (
      update linkedin_messages m set read_at = now(), updated_at = now() from picked p
      where m.team_id = ${teamId} and m.lead_uuid = p.uuid and m.type = 'inbox' and m.read_at is null
      returning m.lead_uuid
    ),
    read_emails as (
      update emails e set read_at = now(), updated_at = now() from picked p
      where e.team_id = ${teamId} and e.lead_uuid = p.uuid and ${unreadEmail}
      returning e.lead_uuid
    )
    select count(*)::int as n from picked
  `.execute(trx);
  return rows[0]?.n ?? 0;
}

export type ConversationRef = { channel: 'linkedin' | 'email'; uuid: string; lead_uuid: string };

/**
 * The unread count of one inbox conversation (a LinkedIn conversation, or an e-mail thread with one
 * contact), or undefined when the team has no such conversation.
 */
export async function selectConversationUnread(
  db: Executor,
  teamId: number,
  ref: ConversationRef,
): Promise<number | undefined> {
  const { rows } = await (ref.channel === 'linkedin'
    ? sql<{ unread_count: number }>`select c.unread_count from linkedin_conversations c
        where c.team_id = ${teamId} and c.uuid = ${ref.uuid} and c.lead_uuid = ${ref.lead_uuid}`
    : sql<{ unread_count: number }>`select t.unread_count from email_threads t
        where t.team_id = ${teamId} and t.thread_uuid = ${ref.uuid} and t.lead_uuid = ${ref.lead_uuid}`
  ).execute(db);
  return rows[0]?.unread_count;
}

/** Marks what the contact sent in one conversation as read (the thread's counts follow by trigger). */
export async function markConversationRead(db: Executor, teamId: number, ref: ConversationRef) {
  if (ref.channel === 'linkedin') {
    await sql`
      with read_conversation as (
        update linkedin_conversations c set unread_count = 0, updated_at = now()
        where c.team_id = ${teamId} and c.uuid = ${ref.uuid} and c.unread_count > 0 returning c.uuid
      )
      update linkedin_messages m set read_at = now(), updated_at = now()
      where m.team_id = ${teamId} and m.linkedin_conversation_uuid = ${ref.uuid} and m.type = 'inbox'
        and m.read_at is null`.execute(db);
    return;
  }
  await sql`
    update emails e set read_at = now(), updated_at = now()
    where e.team_id = ${teamId} and e.thread_uuid = ${ref.uuid} and e.lead_uuid = ${ref.lead_uuid}
      and ${unreadEmail}`.execute(db);
}

/**
 * Marks one conversation unread again: its latest message from the contact becomes unread. Returns false
 * when the contact sent nothing in it (nothing to mark).
 */
export async function markConversationUnread(
  db: Executor,
  teamId: number,
  ref: ConversationRef,
): Promise<boolean> {
  if (ref.channel === 'linkedin') {
    const { rows } = await sql<{ uuid: string }>`
      with latest as (
        select m.uuid from linkedin_messages m
        where m.team_id = ${teamId} and m.linkedin_conversation_uuid = ${ref.uuid} and m.type = 'inbox'
        order by coalesce(m.sent_at, m.created_at) desc, m.uuid desc limit 1
      ),
      unread_message as (
        update linkedin_messages m set read_at = null, updated_at = now() from latest
        where m.team_id = ${teamId} and m.uuid = latest.uuid returning m.uuid
      )
      update linkedin_conversations c set unread_count = greatest(c.unread_count, 1), updated_at = now()
      from latest where c.team_id = ${teamId} and c.uuid = ${ref.uuid}
      returning latest.uuid`.execute(db);
    return rows.length > 0;
  }
  const { rows } = await sql<{ uuid: string }>`
    update emails e set read_at = null, updated_at = now()
    where e.team_id = ${teamId} and e.uuid = (
      select x.uuid from emails x
      where x.team_id = ${teamId} and x.thread_uuid = ${ref.uuid} and x.lead_uuid = ${ref.lead_uuid}
        and x.type = 'inbox' and x.classification is distinct from 'bounce'
      order by coalesce(x.sent_at, x.created_at) desc, x.uuid desc limit 1
    ) returning e.uuid`.execute(db);
  return rows.length > 0;
}
