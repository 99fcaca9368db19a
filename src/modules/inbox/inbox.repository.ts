// The inbox: LinkedIn conversations (one per sender profile and contact) and e-mail threads with a
// contact, in one list - unread first, then the latest activity first. Bounce reports are no
// conversation. The last message of each row is read for the page only.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';

export type InboxFilter = {
  channel?: 'linkedin' | 'email';
  sender_profile_uuid?: string[];
  lead_uuid?: string;
  unread?: boolean;
};

type Row = {
  channel: 'linkedin' | 'email';
  uuid: string;
  lead_uuid: string;
  sender_profile_uuid: string | null;
  mailbox_uuid: string | null;
  subject: string | null;
  last_message_at: Date | null;
  unread_count: number;
};

type LastMessage = { key: string; uuid: string; direction: 'inbox' | 'outbox'; snippet: string | null };

const and = (parts: RawBuilder<SqlBool>[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);

export async function selectInbox(
  db: Executor,
  teamId: number,
  filter: InboxFilter,
  page: { limit: number; offset: number },
) {
  const li: RawBuilder<SqlBool>[] = [sql`c.team_id = ${teamId}`];
  const em: RawBuilder<SqlBool>[] = [sql`t.team_id = ${teamId}`];
  if (filter.sender_profile_uuid) {
    li.push(sql`c.sender_profile_uuid = any(${filter.sender_profile_uuid}::uuid[])`);
    em.push(sql`t.sender_profile_uuid = any(${filter.sender_profile_uuid}::uuid[])`);
  }
  if (filter.lead_uuid) {
    li.push(sql`c.lead_uuid = ${filter.lead_uuid}`);
    em.push(sql`t.lead_uuid = ${filter.lead_uuid}`);
  }
  if (filter.unread !== undefined) {
    li.push(filter.unread ? sql`c.unread_count > 0` : sql`c.unread_count = 0`);
    em.push(filter.unread ? sql`t.unread_count > 0` : sql`t.unread_count = 0`);
  }
  // Each table gives its first offset + limit rows in the order of its inbox index (migration 1210), and
  // only those are merged and sorted; the total is two counts of their own.
  const order = (unread: string, at: string, uuid: string) =>
    sql.raw(`order by (${unread} > 0) desc, ${at} desc nulls last, ${uuid}`);
  const top = sql`limit ${page.offset + page.limit}`;
  const linkedin = sql`
    (select 'linkedin' as channel, c.uuid, c.lead_uuid, c.sender_profile_uuid, null::uuid as mailbox_uuid,
      null::text as subject, c.last_activity_at as last_message_at, c.unread_count
    from linkedin_conversations c where ${and(li)}
    ${order('c.unread_count', 'c.last_activity_at', 'c.uuid')} ${top})`;
  // The threads as migration 1210's triggers keep them (one row per thread and contact).
  const email = sql`
    (select 'email' as channel, t.thread_uuid as uuid, t.lead_uuid, t.sender_profile_uuid, t.mailbox_uuid,
      t.subject, t.last_message_at, t.unread_count
    from email_threads t where ${and(em)}
    ${order('t.unread_count', 't.last_message_at', 't.thread_uuid')} ${top})`;
  const union =
    filter.channel === 'linkedin'
      ? linkedin
      : filter.channel === 'email'
        ? email
        : sql`${linkedin} union all ${email}`;
  const counts = [
    ...(filter.channel === 'email'
      ? []
      : [sql`(select count(*) from linkedin_conversations c where ${and(li)})`]),
    ...(filter.channel === 'linkedin' ? [] : [sql`(select count(*) from email_threads t where ${and(em)})`]),
  ];
  const [{ rows }, count] = await Promise.all([
    sql<Row>`
      select * from (${union}) conversations
      ${order('unread_count', 'last_message_at', 'uuid')}
      limit ${page.limit} offset ${page.offset}
    `.execute(db),
    sql<{ n: number }>`select (${sql.join(counts, sql` + `)})::int as n`.execute(db),
  ]);
  const last = await selectLastMessages(db, teamId, rows);
  return {
    total: count.rows[0]?.n ?? 0,
    data: rows.map((row) => {
      const message = last.get(`${row.channel}:${row.uuid}`);
      return {
        ...row,
        last_message: message
          ? { uuid: message.uuid, direction: message.direction, snippet: message.snippet }
          : null,
      };
    }),
  };
}

/** The latest message of each LinkedIn conversation and e-mail thread of a page. */
async function selectLastMessages(db: Executor, teamId: number, rows: Row[]) {
  const conversations = rows.filter((r) => r.channel === 'linkedin').map((r) => r.uuid);
  const threads = rows.filter((r) => r.channel === 'email').map((r) => r.uuid);
  const [linkedin, email] = await Promise.all([
    conversations.length === 0
      ? { rows: [] as LastMessage[] }
      : sql<LastMessage>`
          select distinct on (m.linkedin_conversation_uuid) 'linkedin:' || m.linkedin_conversation_uuid as key,
            m.uuid, m.type as direction, left(m.text, 280) as snippet
          from linkedin_messages m
          where m.team_id = ${teamId} and m.linkedin_conversation_uuid = any(${conversations}::uuid[])
          order by m.linkedin_conversation_uuid, coalesce(m.sent_at, m.created_at) desc, m.uuid desc
        `.execute(db),
    threads.length === 0
      ? { rows: [] as LastMessage[] }
      : sql<LastMessage>`
          select distinct on (coalesce(e.thread_uuid, e.uuid)) 'email:' || coalesce(e.thread_uuid, e.uuid) as key,
            e.uuid, e.type as direction, left(coalesce(b.text_body, e.subject), 280) as snippet
          from emails e left join email_bodies b on b.team_id = e.team_id and b.uuid = e.email_body_uuid
          where e.team_id = ${teamId} and e.classification is distinct from 'bounce'
            and (e.thread_uuid = any(${threads}::uuid[]) or e.uuid = any(${threads}::uuid[]))
          order by coalesce(e.thread_uuid, e.uuid), coalesce(e.sent_at, e.created_at) desc, e.uuid desc
        `.execute(db),
  ]);
  return new Map([...linkedin.rows, ...email.rows].map((m) => [m.key, m]));
}
