import { type Selectable, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import {
  caseInsensitiveField,
  compileFilter,
  compileValue,
  type FilterField,
  type FilterSpec,
  filterError,
  textContains,
} from '../../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../../lib/pagination.js';
import type { EmailBodiesTable, EmailsTable } from '../email.tables.js';

export type EmailRow = Selectable<EmailsTable>;
export type EmailBodyRow = Selectable<EmailBodiesTable>;

const EMAIL_STATUSES = [
  'need_sync',
  'idle',
  'waiting',
  'sent',
  'sync',
  'cancelled',
  'missing_body',
  'error',
  'bounced',
] as const;

/**
 * sent_at also takes the n8n forms: "2026-03-15" (that day) and "2026-03-01,2026-03-31" (from, to),
 * besides operators and {from, to}.
 */
const sentAtField: FilterField = {
  type: 'datetime',
  description: 'Sent (or received) at: operators, {from, to}, a date, or "from,to"',
  compile: (value, { path }) => {
    const field: FilterField = { type: 'datetime' };
    if (typeof value === 'string' && value.includes(',')) {
      const [from, to, ...rest] = value.split(',').map((v) => v.trim());
      if (rest.length > 0) throw filterError(path, `${path} takes at most two dates: "from,to"`);
      const range: Record<string, string> = {};
      if (from) range.from = from;
      if (to) range.to = to;
      if (!from && !to) throw filterError(path, `${path} needs a date before or after the comma`);
      return compileValue(field, sql.ref('e.sent_at'), range, path);
    }
    return compileValue(field, sql.ref('e.sent_at'), value, path);
  },
};

// Every filter has an index of its own leading with team_id (migrations 0850 and 0860).
export const emailFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'e.uuid' },
  lead_uuid: { type: 'uuid', column: 'e.lead_uuid' },
  mailbox_uuid: { type: 'uuid', column: 'e.mailbox_uuid' },
  sender_profile_uuid: { type: 'uuid', column: 'e.sender_profile_uuid' },
  flow_uuid: { type: 'uuid', column: 'e.flow_uuid' },
  flow_node_id: { type: 'integer', column: 'e.flow_node_id' },
  thread_uuid: { type: 'uuid', column: 'e.thread_uuid' },
  email_body_uuid: { type: 'uuid', column: 'e.email_body_uuid' },
  type: { type: 'enum', values: ['inbox', 'outbox'], column: 'e.type', description: 'inbox | outbox' },
  status: { type: 'enum', values: EMAIL_STATUSES, column: 'e.status' },
  folder: { type: 'string', column: 'e.folder' },
  from_email: caseInsensitiveField('e.from_email', 'Sender address (case-insensitive)'),
  to_email: caseInsensitiveField('e.to_email', 'Recipient address (case-insensitive)'),
  sent_at: sentAtField,
  created_at: { type: 'datetime', column: 'e.created_at' },
  updated_at: { type: 'datetime', column: 'e.updated_at' },
};
const emailFilter: FilterSpec = { name: 'e-mail filter', fields: emailFilterFields };

export const emailSort: SortSpec = {
  fields: { sent_at: 'e.sent_at', created_at: 'e.created_at', updated_at: 'e.updated_at' },
  tiebreaker: 'e.uuid',
};

export async function selectEmails(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(emailFilter, filter);
  let base = db.selectFrom('emails as e').where('e.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('e')
      .orderBy(orderByClause(page, emailSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectEmail(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Deletes the e-mail, and its body when no other e-mail shares it. */
export async function deleteEmail(db: Executor, teamId: number, uuid: string) {
  const row = await db
    .deleteFrom('emails')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning(['uuid', 'email_body_uuid'])
    .executeTakeFirst();
  if (row?.email_body_uuid) {
    await sql`
      delete from email_bodies b where b.team_id = ${teamId} and b.uuid = ${row.email_body_uuid}
        and not exists (select 1 from emails e where e.team_id = b.team_id and e.email_body_uuid = b.uuid)
    `.execute(db);
  }
  return row;
}

/** Every e-mail of a thread, oldest first, with its body. */
export async function selectThread(db: Executor, teamId: number, threadUuid: string) {
  return db
    .selectFrom('emails as e')
    .leftJoin('email_bodies as b', (join) =>
      join.onRef('b.team_id', '=', 'e.team_id').onRef('b.uuid', '=', 'e.email_body_uuid'),
    )
    .selectAll('e')
    .select(['b.body as body', 'b.text_body as text_body'])
    .where('e.team_id', '=', teamId)
    .where('e.thread_uuid', '=', threadUuid)
    .orderBy(sql`coalesce(e.sent_at, e.created_at)`)
    .orderBy('e.uuid')
    .execute();
}

/** The latest e-mail of each contact (one index range per contact: team_id, lead_uuid, sent_at). */
export async function selectLatestByLeads(db: Executor, teamId: number, leadUuids: string[]) {
  if (leadUuids.length === 0) return [];
  const result = await sql<EmailRow>`
    select e.* from unnest(${leadUuids}::uuid[]) as l(uuid)
    cross join lateral (
      select * from emails e
      where e.team_id = ${teamId} and e.lead_uuid = l.uuid
      order by e.sent_at desc nulls last, e.created_at desc
      limit 1
    ) e
  `.execute(db);
  return result.rows;
}

export type ConversationRow = EmailRow & { body: string | null; text_body: string | null };

/**
 * The e-mails between a sender profile's mailboxes and a contact, newest `limit` of them (oldest
 * first), sent or received since `since`.
 */
export async function selectConversation(
  db: Executor,
  teamId: number,
  options: { senderProfileUuid: string; leadUuid: string; since: Date | null; limit: number },
) {
  const since = options.since
    ? sql<SqlBool>`and coalesce(e.sent_at, e.created_at) >= ${options.since}`
    : sql``;
  const result = await sql<ConversationRow>`
    select * from (
      select e.*, b.body, b.text_body from emails e
      left join email_bodies b on b.team_id = e.team_id and b.uuid = e.email_body_uuid
      where e.team_id = ${teamId} and e.lead_uuid = ${options.leadUuid}
        and e.sender_profile_uuid = ${options.senderProfileUuid}
        and e.status in ('sent', 'sync', 'bounced')
        and e.classification is distinct from 'bounce' ${since}
      order by coalesce(e.sent_at, e.created_at) desc, e.uuid desc
      limit ${options.limit}
    ) t order by coalesce(t.sent_at, t.created_at), t.uuid
  `.execute(db);
  return result.rows;
}

export const emailBodyFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Subject contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('b.subject'), value, path),
  },
  uuid: { type: 'uuid', column: 'b.uuid' },
  created_at: { type: 'datetime', column: 'b.created_at' },
  updated_at: { type: 'datetime', column: 'b.updated_at' },
};
const emailBodyFilter: FilterSpec = { name: 'e-mail body filter', fields: emailBodyFilterFields };

export const emailBodySort: SortSpec = {
  fields: { created_at: 'b.created_at', updated_at: 'b.updated_at' },
  tiebreaker: 'b.uuid',
};

export async function selectEmailBodies(
  db: Executor,
  teamId: number,
  filter: unknown,
  search: string | undefined,
  page: PageRequest,
) {
  const where = compileFilter(emailBodyFilter, filter);
  let base = db.selectFrom('email_bodies as b').where('b.team_id', '=', teamId);
  if (where) base = base.where(where);
  if (search?.trim()) base = base.where(textContains(sql.ref('b.subject'), search, 'search'));
  const [rows, count] = await Promise.all([
    base
      .selectAll('b')
      .orderBy(orderByClause(page, emailBodySort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectEmailBody(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('email_bodies')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** The names and addresses of a contact of the team (the recipient of a new e-mail). */
export async function selectLeadAddress(db: Executor, teamId: number, leadUuid: string) {
  return db
    .selectFrom('leads')
    .select(['uuid', 'name', 'first_name', 'last_name', 'work_email', 'personal_email'])
    .where('team_id', '=', teamId)
    .where('uuid', '=', leadUuid)
    .executeTakeFirst();
}

/** A contact of the team with this work or personal address (any case), or undefined. */
export async function selectLeadUuidByAddress(db: Executor, teamId: number, address: string) {
  const lower = address.toLowerCase();
  const row = await db
    .selectFrom('leads')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where(sql<boolean>`lower(work_email) = ${lower} or lower(personal_email) = ${lower}`)
    .executeTakeFirst();
  return row?.uuid;
}
