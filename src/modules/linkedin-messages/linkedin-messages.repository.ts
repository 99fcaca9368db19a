import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { LinkedinConversationsTable, LinkedinMessagesTable } from './linkedin-messages.tables.js';

export type LinkedInMessageRow = Selectable<LinkedinMessagesTable>;
export type LinkedInConversationRow = Selectable<LinkedinConversationsTable>;

export const MESSAGE_TYPES = ['inbox', 'outbox'] as const;
export const MESSAGE_STATUSES = ['new', 'in_progress', 'done', 'failed'] as const;
// amo_synced and connect are values real clients filter by; no message of ours has them.
export const MESSAGE_AUTOMATIONS = ['auto', 'manual', 'synced', 'amo_synced', 'connect'] as const;

// Every filter has an index of its own leading with team_id (migration 0870).
export const messageFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Text or subject contains (case-insensitive)',
    compile: (value, { path }) =>
      textContains(sql`lower(coalesce(m.subject, '') || ' ' || coalesce(m.text, ''))`, value, path),
  },
  uuid: { type: 'uuid', column: 'm.uuid' },
  lead_uuid: { type: 'uuid', column: 'm.lead_uuid' },
  sender_profile_uuid: { type: 'uuid', column: 'm.sender_profile_uuid' },
  linkedin_account_uuid: {
    type: 'uuid',
    column: 'm.sender_profile_uuid',
    description: 'The LinkedIn account: in Leadflow the sender profile (same as sender_profile_uuid)',
  },
  linkedin_conversation_uuid: { type: 'uuid', column: 'm.linkedin_conversation_uuid' },
  task_pipeline_uuid: { type: 'uuid', column: 'm.task_uuid', description: 'The flow task that sent it' },
  template_uuid: { type: 'uuid', column: 'm.template_uuid' },
  message_hash: { type: 'string', column: 'm.message_hash', description: 'The channel id of the message' },
  user_id: { type: 'integer', column: 'm.user_id' },
  type: {
    type: 'enum',
    values: MESSAGE_TYPES,
    column: 'm.type',
    description: 'inbox (received) | outbox (sent)',
  },
  status: { type: 'enum', values: MESSAGE_STATUSES, column: 'm.status' },
  automation: {
    type: 'enum',
    values: MESSAGE_AUTOMATIONS,
    column: 'm.automation',
    description: 'auto (a flow) | manual (queued through the API) | synced (read from the inbox)',
  },
  linkedin_type: {
    type: 'string',
    column: 'm.linkedin_type',
    description: 'connection_note | message | InMail | MEMBER_TO_MEMBER (synced)...',
  },
  sent_at: { type: 'datetime', column: 'm.sent_at' },
  created_at: { type: 'datetime', column: 'm.created_at' },
  updated_at: { type: 'datetime', column: 'm.updated_at' },
};
const messageFilter: FilterSpec = { name: 'LinkedIn message filter', fields: messageFilterFields };

export const messageSort: SortSpec = {
  fields: { uuid: 'm.uuid', sent_at: 'm.sent_at', created_at: 'm.created_at', updated_at: 'm.updated_at' },
  tiebreaker: 'm.uuid',
};

export async function selectMessages(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(messageFilter, filter);
  let base = db.selectFrom('linkedin_messages as m').where('m.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('m')
      .orderBy(orderByClause(page, messageSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectMessage(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('linkedin_messages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function deleteMessage(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('linkedin_messages')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning('uuid')
    .executeTakeFirst();
}

export type NewManualMessage = {
  team_id: number;
  uuid: string;
  sender_profile_uuid: string;
  lead_uuid: string;
  user_id: number;
  template_uuid: string | null;
  subject: string | null;
  text: string;
  attachments: Array<{ uuid: string }> | null;
  linkedin_type: string;
  linkedin_conversation_uuid: string | null;
};

export async function insertManualMessage(db: Executor, m: NewManualMessage, now: Date) {
  return db
    .insertInto('linkedin_messages')
    .values({
      team_id: m.team_id,
      uuid: m.uuid,
      sender_profile_uuid: m.sender_profile_uuid,
      lead_uuid: m.lead_uuid,
      user_id: m.user_id,
      template_uuid: m.template_uuid,
      subject: m.subject,
      text: m.text,
      attachments: m.attachments ? JSON.stringify(m.attachments) : null,
      linkedin_type: m.linkedin_type,
      linkedin_conversation_uuid: m.linkedin_conversation_uuid,
      type: 'outbox',
      automation: 'manual',
      status: 'new',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const conversationFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'c.uuid' },
  lead_uuid: { type: 'uuid', column: 'c.lead_uuid' },
  sender_profile_uuid: { type: 'uuid', column: 'c.sender_profile_uuid' },
  linkedin_account_uuid: {
    type: 'uuid',
    column: 'c.sender_profile_uuid',
    description: 'The LinkedIn account: in Leadflow the sender profile',
  },
  last_activity_at: { type: 'datetime', column: 'c.last_activity_at' },
  unread_count: {
    type: 'integer',
    column: 'c.unread_count',
    description: 'Unread messages from the contact, e.g. {">": 0} for unread conversations',
  },
  created_at: { type: 'datetime', column: 'c.created_at' },
  updated_at: { type: 'datetime', column: 'c.updated_at' },
};
const conversationFilter: FilterSpec = {
  name: 'LinkedIn conversation filter',
  fields: conversationFilterFields,
};

export const conversationSort: SortSpec = {
  fields: { created_at: 'c.created_at', updated_at: 'c.updated_at', last_activity_at: 'c.last_activity_at' },
  tiebreaker: 'c.uuid',
};

export async function selectConversations(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(conversationFilter, filter);
  let base = db.selectFrom('linkedin_conversations as c').where('c.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('c')
      .orderBy(orderByClause(page, conversationSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** What group-counts groups by (linkedin_account_uuid is the sender profile). */
export const MESSAGE_GROUP_FIELDS = [
  'status',
  'type',
  'sender_profile_uuid',
  'linkedin_account_uuid',
] as const;
export type MessageGroupField = (typeof MESSAGE_GROUP_FIELDS)[number];
const GROUP_COLUMNS: Record<MessageGroupField, string> = {
  status: 'm.status',
  type: 'm.type',
  sender_profile_uuid: 'm.sender_profile_uuid',
  linkedin_account_uuid: 'm.sender_profile_uuid',
};

/** The keys group-counts filters by: a subset of the list's filter (same columns, same indexes). */
export const MESSAGE_COUNT_FILTER_KEYS = [
  'type',
  'status',
  'sender_profile_uuid',
  'linkedin_account_uuid',
  'lead_uuid',
  'sent_at',
] as const;
const countFilter: FilterSpec = {
  name: 'LinkedIn message count filter',
  fields: Object.fromEntries(MESSAGE_COUNT_FILTER_KEYS.map((key) => [key, messageFilterFields[key]!])),
};

/** Messages per value of `field` among those matching `filter`: one grouped statement. */
export async function groupMessageCounts(
  db: Executor,
  teamId: number,
  field: MessageGroupField,
  filter: unknown,
) {
  const where = compileFilter(countFilter, filter);
  const { rows } = await sql<{ key: string; count: string }>`
    select ${sql.ref(GROUP_COLUMNS[field])} as key, count(*)::bigint as count
    from linkedin_messages m
    where m.team_id = ${teamId} ${where ? sql`and ${where}` : sql``}
    group by 1
  `.execute(db);
  return rows;
}

/** A failed message back to new (fail reason, attempts and taken_at cleared); undefined if not failed. */
export async function requeueFailedMessage(db: Executor, teamId: number, uuid: string, now: Date) {
  return (
    db
      .updateTable('linkedin_messages')
      .set({ status: 'new', fail_reason: null, taken_at: null, attempts: 0, updated_at: now })
      .where('team_id', '=', teamId)
      .where('uuid', '=', uuid)
      .where('status', '=', 'failed')
      // A message whose outcome is unknown may have gone out: never sent again by a retry.
      .where((eb) =>
        eb.or([eb('fail_reason', 'is', null), eb('fail_reason', 'not like', 'unknown_outcome%')]),
      )
      .returningAll()
      .executeTakeFirst()
  );
}
