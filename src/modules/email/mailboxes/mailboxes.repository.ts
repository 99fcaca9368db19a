import { type Selectable, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { compileFilter, type FilterSpec, filterError } from '../../../lib/filter.js';
import { newId } from '../../../lib/ids.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../../lib/pagination.js';
import type {
  ConnectionSettings,
  HealthStatus,
  MailboxErrorType,
  MailboxesTable,
  MailboxProvider,
  MailboxStatus,
} from '../email.tables.js';

export type MailboxRow = Selectable<MailboxesTable>;

function containsAny(columns: string[]) {
  return (value: unknown, { path }: { path: string }) => {
    if (typeof value !== 'string' && typeof value !== 'number')
      throw filterError(path, `${path} must be a string`);
    const pattern = `%${String(value)
      .trim()
      .replace(/[\\%_]/g, '\\$&')}%`;
    return sql<SqlBool>`(${sql.join(
      columns.map((c) => sql`${sql.ref(c)} ilike ${pattern}`),
      sql` or `,
    )})`;
  };
}

// A team has a handful to hundreds of mailboxes: filters scan the team's rows.
export const mailboxFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'E-mail address or sender name contains (case-insensitive)',
    compile: containsAny(['m.email', 'm.sender_name']),
  },
  uuid: { type: 'uuid', column: 'm.uuid' },
  sender_profile_uuid: { type: 'uuid', column: 'm.sender_profile_uuid' },
  status: { type: 'enum', values: ['active', 'inactive', 'error'], column: 'm.status' },
  provider: { type: 'enum', values: ['smtp', 'gmail', 'outlook'], column: 'm.provider' },
  email: { type: 'string', column: 'm.email' },
  created_at: { type: 'datetime', column: 'm.created_at' },
  updated_at: { type: 'datetime', column: 'm.updated_at' },
};
const mailboxFilter: FilterSpec = { name: 'mailbox filter', fields: mailboxFilterFields };

export const mailboxSort: SortSpec = {
  fields: { created_at: 'm.created_at', updated_at: 'm.updated_at', email: 'm.email', uuid: 'm.uuid' },
  tiebreaker: 'm.uuid',
};

export async function selectMailboxes(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(mailboxFilter, filter);
  let base = db.selectFrom('mailboxes as m').where('m.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('m')
      .orderBy(orderByClause(page, mailboxSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectMailbox(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('mailboxes')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function selectMailboxByEmail(db: Executor, teamId: number, email: string) {
  return db
    .selectFrom('mailboxes')
    .selectAll()
    .where('team_id', '=', teamId)
    .where(sql<SqlBool>`lower(email) = ${email.toLowerCase()}`)
    .executeTakeFirst();
}

export async function selectSenderMailboxes(db: Executor, teamId: number, senderUuid: string) {
  return db
    .selectFrom('mailboxes')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('sender_profile_uuid', '=', senderUuid)
    .orderBy('created_at')
    .execute();
}

export type NewMailbox = {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string;
  email: string;
  sender_name: string;
  provider: MailboxProvider;
  status: MailboxStatus;
  automation_daily_limit: number;
  automation_task_interval: number;
  custom_tracking_domain_uuid: string | null;
  connection_settings: ConnectionSettings;
  secrets: string | null;
  send_status: HealthStatus;
  sync_status: HealthStatus;
};

export async function insertMailbox(db: Executor, m: NewMailbox) {
  return db
    .insertInto('mailboxes')
    .values({
      team_id: m.team_id,
      uuid: m.uuid,
      user_id: m.user_id,
      sender_profile_uuid: m.sender_profile_uuid,
      email: m.email,
      sender_name: m.sender_name,
      provider: m.provider,
      status: m.status,
      automation_daily_limit: m.automation_daily_limit,
      automation_task_interval: m.automation_task_interval,
      custom_tracking_domain_uuid: m.custom_tracking_domain_uuid,
      connection_settings: JSON.stringify(m.connection_settings),
      secrets: m.secrets,
      send_status: m.send_status,
      sync_status: m.sync_status,
      next_sync_at: m.status === 'active' ? new Date() : null,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export type MailboxChanges = Partial<{
  sender_profile_uuid: string;
  sender_name: string;
  status: MailboxStatus;
  automation_daily_limit: number;
  automation_task_interval: number;
  custom_tracking_domain_uuid: string | null;
  connection_settings: ConnectionSettings;
  secrets: string | null;
  send_status: HealthStatus;
  sync_status: HealthStatus;
}>;

export async function updateMailbox(db: Executor, teamId: number, uuid: string, c: MailboxChanges) {
  return db
    .updateTable('mailboxes')
    .set({
      ...(c.sender_profile_uuid !== undefined ? { sender_profile_uuid: c.sender_profile_uuid } : {}),
      ...(c.sender_name !== undefined ? { sender_name: c.sender_name } : {}),
      ...(c.status !== undefined
        ? { status: c.status, next_sync_at: c.status === 'active' ? new Date() : null }
        : {}),
      ...(c.automation_daily_limit !== undefined ? { automation_daily_limit: c.automation_daily_limit } : {}),
      ...(c.automation_task_interval !== undefined
        ? { automation_task_interval: c.automation_task_interval }
        : {}),
      ...(c.custom_tracking_domain_uuid !== undefined
        ? { custom_tracking_domain_uuid: c.custom_tracking_domain_uuid }
        : {}),
      ...(c.connection_settings !== undefined
        ? { connection_settings: JSON.stringify(c.connection_settings) }
        : {}),
      ...(c.secrets !== undefined ? { secrets: c.secrets } : {}),
      ...(c.send_status !== undefined ? { send_status: c.send_status } : {}),
      ...(c.sync_status !== undefined ? { sync_status: c.sync_status } : {}),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteMailbox(db: Executor, teamId: number, uuid: string) {
  const row = await db
    .deleteFrom('mailboxes')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
  if (row) {
    await db
      .deleteFrom('mailbox_folders')
      .where('team_id', '=', teamId)
      .where('mailbox_uuid', '=', uuid)
      .execute();
  }
  return row;
}

/** Keeps the sender profile's `mailbox_uuid` on its oldest mailbox (null when it has none). */
export async function refreshSenderMailbox(db: Executor, teamId: number, senderUuid: string) {
  await sql`
    update sender_profiles s set mailbox_uuid = (
      select m.uuid from mailboxes m
      where m.team_id = ${teamId} and m.sender_profile_uuid = s.uuid order by m.created_at, m.uuid limit 1
    ), updated_at = now()
    where s.team_id = ${teamId} and s.uuid = ${senderUuid}
  `.execute(db);
}

export async function senderExists(db: Executor, teamId: number, senderUuid: string) {
  const row = await db
    .selectFrom('sender_profiles')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', senderUuid)
    .executeTakeFirst();
  return Boolean(row);
}

/** Records what went wrong and marks the side it happened on (an auth refusal also the mailbox). */
export async function recordMailboxError(
  db: Executor,
  mailbox: { team_id: number; uuid: string },
  type: MailboxErrorType,
  message: string,
  side: 'send' | 'sync' | 'both',
  /** Take the mailbox out of use (status error): a refused login, a refused server address. */
  disable = type === 'auth',
) {
  await db
    .insertInto('mailbox_errors')
    .values({
      team_id: mailbox.team_id,
      uuid: newId(),
      mailbox_uuid: mailbox.uuid,
      error_type: type,
      message,
    })
    .execute();
  await db
    .updateTable('mailboxes')
    .set({
      ...(side !== 'sync' ? { send_status: 'error' as const } : {}),
      ...(side !== 'send' ? { sync_status: 'error' as const } : {}),
      ...(disable ? { status: 'error' as const, next_sync_at: null } : {}),
      updated_at: new Date(),
    })
    .where('team_id', '=', mailbox.team_id)
    .where('uuid', '=', mailbox.uuid)
    .execute();
}

export const mailboxErrorFilterFields: FilterSpec['fields'] = {
  mailbox_uuid: { type: 'uuid', column: 'e.mailbox_uuid' },
  error_type: { type: 'enum', values: ['send', 'sync', 'auth'], column: 'e.error_type' },
  q: {
    type: 'string',
    description: 'Message contains (case-insensitive)',
    compile: containsAny(['e.message']),
  },
  created_at: { type: 'datetime', column: 'e.created_at' },
};
const mailboxErrorFilter: FilterSpec = { name: 'mailbox error filter', fields: mailboxErrorFilterFields };

export const mailboxErrorSort: SortSpec = {
  fields: { created_at: 'e.created_at', uuid: 'e.uuid' },
  tiebreaker: 'e.uuid',
};

export async function selectMailboxErrors(
  db: Executor,
  teamId: number,
  filter: unknown,
  search: string | undefined,
  page: PageRequest,
) {
  const where = compileFilter(mailboxErrorFilter, filter);
  let base = db.selectFrom('mailbox_errors as e').where('e.team_id', '=', teamId);
  if (where) base = base.where(where);
  if (search) base = base.where(containsAny(['e.message'])(search, { path: 'search' }));
  const [rows, count] = await Promise.all([
    base
      .select(['e.uuid', 'e.team_id', 'e.mailbox_uuid', 'e.error_type', 'e.message', 'e.created_at'])
      .orderBy(orderByClause(page, mailboxErrorSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
