import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import { EVENT_NAMES } from '../events/events.catalog.js';
import { activePreviousSecret } from './webhooks.repository.js';
import type { DeliveryStatus, RequestMethod, WebhookStatus } from './webhooks.tables.js';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed', 'canceled'] as const;

export const deliveryFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'd.uuid' },
  status: { type: 'enum', values: DELIVERY_STATUSES, column: 'd.status' },
  event_uuid: { type: 'uuid', column: 'd.event_uuid' },
  event_name: { type: 'enum', values: EVENT_NAMES, column: 'e.name' },
  attempt: { type: 'integer', column: 'd.attempt' },
  status_code: { type: 'integer', column: 'd.status_code' },
  created_at: { type: 'datetime', column: 'd.created_at' },
  last_attempt_at: { type: 'datetime', column: 'd.last_attempt_at' },
};
const deliveryFilter: FilterSpec = { name: 'delivery filter', fields: deliveryFilterFields };

export const deliverySort: SortSpec = {
  fields: { created_at: 'd.created_at', uuid: 'd.uuid' },
  tiebreaker: 'd.uuid',
};

function deliveries(db: Executor, teamId: number, webhookUuid: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', (join) =>
      join.onRef('e.team_id', '=', 'd.team_id').onRef('e.uuid', '=', 'd.event_uuid'),
    )
    .where('d.team_id', '=', teamId)
    .where('d.webhook_uuid', '=', webhookUuid);
}

const DELIVERY_COLUMNS = [
  'd.uuid',
  'd.webhook_uuid',
  'd.event_uuid',
  'e.name as event_name',
  'd.status',
  'd.attempt',
  'd.status_code',
  'd.duration_ms',
  'd.error',
  'd.created_at',
  'd.last_attempt_at',
  'd.next_retry_at',
] as const;

export async function selectDeliveries(
  db: Executor,
  teamId: number,
  webhookUuid: string,
  filter: unknown,
  page: PageRequest,
) {
  const where = compileFilter(deliveryFilter, filter);
  let base = deliveries(db, teamId, webhookUuid);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .select(DELIVERY_COLUMNS)
      .orderBy(orderByClause(page, deliverySort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectDelivery(db: Executor, teamId: number, webhookUuid: string, uuid: string) {
  return deliveries(db, teamId, webhookUuid)
    .select(DELIVERY_COLUMNS)
    .where('d.uuid', '=', uuid)
    .executeTakeFirst();
}

export type DeliveryContext = {
  uuid: string;
  attempt: number;
  status: DeliveryStatus;
  webhook_uuid: string;
  webhook_status: WebhookStatus;
  target_url: string;
  request_method: RequestMethod;
  secret: string;
  previous_secret: string | null;
  event_uuid: string;
  event_name: string;
  occurred_at: Date;
  team_id: number;
  /** The stored payload as JSON text (spliced into the body without a parse). */
  payload: string;
};

/** Everything the attempts need: each delivery's state, its webhook (target, secret) and its event. */
export async function selectDeliveryContexts(db: Executor, teamId: number, uuids: string[]) {
  const result = await sql<DeliveryContext>`
    select d.uuid, d.attempt, d.status, w.uuid as webhook_uuid, w.status as webhook_status, w.target_url,
      w.request_method, w.secret, ${activePreviousSecret('w')} as previous_secret, e.uuid as event_uuid, e.name as event_name, e.occurred_at, e.team_id,
      e.payload::text as payload
    from webhook_deliveries d
    join webhooks w on w.team_id = d.team_id and w.uuid = d.webhook_uuid
    join events e on e.team_id = d.team_id and e.uuid = d.event_uuid
    where d.team_id = ${teamId} and d.uuid = any(${uuids}::uuid[])
  `.execute(db);
  return result.rows;
}

export type AttemptOutcome = {
  uuid: string;
  attempt: number;
  status: DeliveryStatus;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_retry_at: string | null;
};

export type WebhookHealth = { disableAfterMs: number; disabledReason: string };

/**
 * Records attempt outcomes in one statement. An outcome whose attempt another run already recorded is
 * skipped (not returned), so the caller schedules nothing for it. The same statement keeps each
 * webhook's health: a success in the batch clears its failure window; failures open one or, once it
 * has lasted `disableAfterMs`, switch the webhook off. A webhook row is only written when something
 * changes (at most every few seconds while failing), so a busy webhook's row is not a hot spot.
 * Returns the recorded deliveries with their webhook's status when this statement changed it.
 */
export async function recordAttempts(
  db: Executor,
  teamId: number,
  outcomes: AttemptOutcome[],
  at: Date,
  health: WebhookHealth,
) {
  const now = sql`${at.toISOString()}::timestamptz`;
  // The cutoff as a value, not `now - interval` (a stable function): Citus refuses non-immutable
  // functions inside the CASE of an UPDATE.
  const expired = sql`w.failing_since <= ${new Date(at.getTime() - health.disableAfterMs).toISOString()}::timestamptz`;
  const result = await sql<{ uuid: string; webhook_status: WebhookStatus | null }>`
    with o as (
      select * from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as o(
        uuid uuid, attempt int, status text, status_code int, duration_ms int, error text,
        next_retry_at timestamptz)
    ), d as (
      update webhook_deliveries d set attempt = o.attempt, status = o.status, status_code = o.status_code,
        duration_ms = o.duration_ms, error = o.error, last_attempt_at = ${now},
        next_retry_at = o.next_retry_at, updated_at = ${now}
      from o where d.team_id = ${teamId} and d.uuid = o.uuid and d.attempt = o.attempt - 1
      returning d.uuid, d.webhook_uuid, d.status, d.error
    ), per_webhook as (
      select webhook_uuid, bool_or(status = 'succeeded') as any_success,
        (array_agg(error) filter (where status <> 'succeeded'))[1] as last_error
      from d group by webhook_uuid
    ), healthy as (
      update webhooks w set last_success_at = ${now}, failing_since = null
      from per_webhook p
      where p.any_success and w.team_id = ${teamId} and w.uuid = p.webhook_uuid
        and (w.failing_since is not null or w.last_success_at is null
          or w.last_success_at < ${now} - interval '60 seconds')
      returning w.uuid, w.status
    ), failing as (
      update webhooks w set
        failing_since = coalesce(w.failing_since, ${now}),
        last_error = p.last_error, last_error_at = ${now},
        status = case when ${expired} then 'off' else w.status end,
        disabled_reason = case when ${expired} then ${health.disabledReason} else w.disabled_reason end
      from per_webhook p
      where not p.any_success and w.team_id = ${teamId} and w.uuid = p.webhook_uuid and w.status = 'on'
        and (w.failing_since is null or w.last_error_at is null
          or w.last_error_at < ${now} - interval '5 seconds' or ${expired})
      returning w.uuid, w.status
    )
    select d.uuid, coalesce(f.status, h.status) as webhook_status
    from d left join failing f on f.uuid = d.webhook_uuid left join healthy h on h.uuid = d.webhook_uuid
  `.execute(db);
  return result.rows;
}

/** Marks queued deliveries canceled (their webhook is off) without counting an attempt. */
export async function cancelDeliveries(
  db: Executor,
  teamId: number,
  deliveries: { uuid: string; attempt: number }[],
  reason: string,
) {
  if (deliveries.length === 0) return;
  await sql`
    update webhook_deliveries d set status = 'canceled', error = ${reason}, next_retry_at = null, updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) as c(uuid uuid, attempt int)
    where d.team_id = ${teamId} and d.uuid = c.uuid and d.attempt = c.attempt
      and d.status in ('pending', 'retrying')
  `.execute(db);
}

/** Deliveries of the team's `webhookUuids` created within the period, counted per webhook and status. */
export async function countDeliveriesByStatus(
  db: Executor,
  teamId: number,
  webhookUuids: string[],
  period: { from: string; to: string },
) {
  const { rows } = await sql<{ webhook_uuid: string; status: DeliveryStatus; count: number }>`
    select d.webhook_uuid, d.status, count(*)::int as count
    from webhook_deliveries d
    where d.team_id = ${teamId} and d.webhook_uuid = any(${webhookUuids}::uuid[])
      and d.created_at >= ${period.from}::timestamptz and d.created_at <= ${period.to}::timestamptz
    group by d.webhook_uuid, d.status
  `.execute(db);
  return rows;
}
