import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import { EVENT_NAMES } from '../events/events.catalog.js';
import type { RequestMethod, WebhookStatus } from './webhooks.tables.js';

/** Columns a client sees; the secret never leaves this module except once, on create. */
export const WEBHOOK_COLUMNS = [
  'uuid',
  'team_id',
  'user_id',
  'name',
  'event',
  'request_method',
  'target_url',
  'filters',
  'status',
  'disabled_reason',
  'last_error',
  'last_error_at',
  'last_success_at',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
] as const;

export const webhookFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name or target URL contains (case-insensitive)',
    compile: (value, { path }) =>
      textContains(sql`(webhooks.name || ' ' || webhooks.target_url)`, value, path),
  },
  uuid: { type: 'uuid', column: 'webhooks.uuid' },
  name: { type: 'string', column: 'webhooks.name' },
  event: { type: 'enum', values: EVENT_NAMES, column: 'webhooks.event' },
  status: { type: 'enum', values: ['on', 'off'], column: 'webhooks.status' },
  request_method: {
    type: 'enum',
    values: ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'],
    column: 'webhooks.request_method',
  },
  created_at: { type: 'datetime', column: 'webhooks.created_at' },
  updated_at: { type: 'datetime', column: 'webhooks.updated_at' },
};
const webhookFilter: FilterSpec = { name: 'webhook filter', fields: webhookFilterFields };

export const webhookSort: SortSpec = {
  fields: {
    created_at: 'webhooks.created_at',
    updated_at: 'webhooks.updated_at',
    name: 'webhooks.name',
    uuid: 'webhooks.uuid',
  },
  tiebreaker: 'webhooks.uuid',
};

export async function selectWebhooks(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(webhookFilter, filter);
  let base = db.selectFrom('webhooks').where('webhooks.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .select(WEBHOOK_COLUMNS)
      .orderBy(orderByClause(page, webhookSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectWebhook(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** The previous secret of webhooks `alias` while it still signs (during a rotation), else null. */
export function activePreviousSecret(alias: string) {
  const w = sql.raw(alias);
  return sql<string | null>`case when ${w}.previous_secret_expires_at > now() then ${w}.previous_secret end`;
}

export async function selectWebhookSecrets(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('webhooks')
    .select(['secret', activePreviousSecret('webhooks').as('previous_secret')])
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/**
 * Replaces the secret. The old one keeps signing for `previousTtlSeconds` more (0: it stops at once),
 * timed by the database clock that `activePreviousSecret` compares with. Rotating again during a
 * rotation drops the oldest secret.
 */
export async function rotateWebhookSecret(
  db: Executor,
  teamId: number,
  uuid: string,
  secret: string,
  previousTtlSeconds: number,
) {
  const keep = previousTtlSeconds > 0;
  return db
    .updateTable('webhooks')
    .set({
      previous_secret: keep ? sql<string>`webhooks.secret` : null,
      previous_secret_expires_at: keep
        ? sql<Date>`now() + make_interval(secs => ${previousTtlSeconds})`
        : null,
      secret,
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

export type NewWebhook = {
  team_id: number;
  uuid: string;
  user_id: number;
  name: string;
  event: string;
  request_method: RequestMethod;
  target_url: string;
  filters: string | null;
  status: WebhookStatus;
  secret: string;
};

export async function insertWebhook(db: Executor, webhook: NewWebhook) {
  return db
    .insertInto('webhooks')
    .values({
      team_id: webhook.team_id,
      uuid: webhook.uuid,
      user_id: webhook.user_id,
      name: webhook.name,
      event: webhook.event,
      request_method: webhook.request_method,
      target_url: webhook.target_url,
      filters: webhook.filters,
      status: webhook.status,
      secret: webhook.secret,
    })
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirstOrThrow();
}

export type WebhookChanges = Partial<{
  name: string;
  event: string;
  request_method: RequestMethod;
  target_url: string;
  filters: string | null;
  status: WebhookStatus;
}>;

export async function updateWebhook(db: Executor, teamId: number, uuid: string, changes: WebhookChanges) {
  // Switching an off webhook back on starts a fresh failure window and clears why it was switched off
  // (sending status "on" to a webhook that is on changes nothing).
  const reenable =
    changes.status === 'on'
      ? {
          disabled_reason: sql<
            string | null
          >`case when webhooks.status = 'off' then null else webhooks.disabled_reason end`,
          failing_since: sql<Date | null>`case when webhooks.status = 'off' then null else webhooks.failing_since end`,
        }
      : {};
  return db
    .updateTable('webhooks')
    .set({
      name: changes.name,
      event: changes.event,
      request_method: changes.request_method,
      target_url: changes.target_url,
      filters: changes.filters,
      status: changes.status,
      ...reenable,
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirst();
}

export async function deleteWebhook(db: Executor, teamId: number, uuid: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Which of `uuids` are webhooks of the team. */
export async function selectWebhookUuids(db: Executor, teamId: number, uuids: string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  const rows = await db
    .selectFrom('webhooks')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
  return rows.map((row) => row.uuid);
}
