// Fan-out: events recorded in one batch become deliveries, one per matching webhook, with the jobs of
// their first attempts (DELIVERY_BATCH deliveries per job) - in one transaction per chunk of events, so a crash repeats a chunk at worst
// (the unique key on webhook + event makes the repeat a no-op). Matching is set-based: webhooks
// without filters share one INSERT ... SELECT per chunk, and each filtered webhook runs its compiled
// contact filter as one more.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, enqueueJobs, handleJob } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import type { FilterSpec } from '../../lib/filter.js';
import { isEventName } from '../events/events.catalog.js';
import { fanOutEventsJob } from '../events/events.jobs.js';
import { loadLeadFilterSpec } from '../leads/leads.filter.js';
import { compileWebhookFilters, hasContactKeys } from './webhook-filters.js';
import { DELIVERY_BATCH, deliverWebhooksJob } from './webhook-jobs.js';

/** Events per fan-out transaction. */
export const FAN_OUT_CHUNK = 2000;
const MIN_UUID = '00000000-0000-0000-0000-000000000000';

type Chunk = { teamId: number; batch: string; after: string; last: string };

/**
 * Inserts deliveries for the chunk's events named `webhooks[i].event` for webhook `webhooks[i]` that
 * pass `where` (over `e`, and `l` when `joinContact`); returns the new deliveries' uuids.
 */
async function insertDeliveries(
  trx: Executor,
  chunk: Chunk,
  webhooks: { uuid: string; event: string }[],
  where: RawBuilder<SqlBool> | undefined,
  joinContact: boolean,
): Promise<string[]> {
  const contactJoin = joinContact
    ? sql`join leads l on l.team_id = e.team_id and l.uuid = e.lead_uuid`
    : sql``;
  const result = await sql<{ uuid: string }>`
    insert into webhook_deliveries (team_id, uuid, webhook_uuid, event_uuid)
    select e.team_id, leadflow_uuid_v7(), h.uuid, e.uuid
    from events e
    join unnest(${webhooks.map((w) => w.uuid)}::uuid[], ${webhooks.map((w) => w.event)}::text[]) as h(uuid, event)
      on h.event = e.name
    ${contactJoin}
    where e.team_id = ${chunk.teamId} and e.fanout_batch = ${chunk.batch}
      and e.uuid > ${chunk.after} and e.uuid <= ${chunk.last} ${where ? sql`and ${where}` : sql``}
    on conflict (team_id, webhook_uuid, event_uuid) do nothing
    returning uuid
  `.execute(trx);
  return result.rows.map((row) => row.uuid);
}

/** The first attempt of each new delivery, DELIVERY_BATCH deliveries per job. */
async function enqueueFirstAttempts(trx: Executor, teamId: number, uuids: string[]) {
  const payloads = [];
  for (let start = 0; start < uuids.length; start += DELIVERY_BATCH) {
    const deliveries = uuids.slice(start, start + DELIVERY_BATCH).map((uuid) => ({ uuid, attempt: 1 }));
    payloads.push({ teamId, deliveries });
  }
  await enqueueJobs(trx, deliverWebhooksJob, payloads);
}

/** Records on the webhook why its filters were skipped (a custom field it names was deleted...). */
async function reportBrokenFilters(trx: Executor, teamId: number, uuid: string, error: AppError) {
  await trx
    .updateTable('webhooks')
    .set({
      last_error: `filters no longer valid, nothing delivered: ${error.message}`,
      last_error_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .execute();
}

export function fanOutHandler(deps: { db: Database }) {
  return handleJob(fanOutEventsJob, async ({ teamId, batch, after = MIN_UUID }) => {
    await deps.db.transaction().execute(async (trx) => {
      const events = await trx
        .selectFrom('events')
        .select(['uuid', 'name'])
        .where('team_id', '=', teamId)
        .where('fanout_batch', '=', batch)
        .where('uuid', '>', after)
        .orderBy('uuid')
        .limit(FAN_OUT_CHUNK)
        .execute();
      const last = events.at(-1)?.uuid;
      if (!last) return;
      const chunk: Chunk = { teamId, batch, after, last };
      const names = [...new Set(events.map((event) => event.name))];
      const webhooks = await trx
        .selectFrom('webhooks')
        .select(['uuid', 'event', 'filters'])
        .where('team_id', '=', teamId)
        .where('status', '=', 'on')
        .where('event', 'in', names)
        .execute();

      const unfiltered: { uuid: string; event: string }[] = [];
      const created: string[] = [];
      let spec: FilterSpec | undefined;
      for (const webhook of webhooks) {
        if (!isEventName(webhook.event)) continue;
        let compiled: ReturnType<typeof compileWebhookFilters>;
        try {
          if (!spec && hasContactKeys(webhook.filters)) spec = await loadLeadFilterSpec(trx, teamId);
          compiled = compileWebhookFilters(webhook.event, webhook.filters, spec, teamId);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          await reportBrokenFilters(trx, teamId, webhook.uuid, error);
          continue;
        }
        if (!compiled.where) unfiltered.push(webhook);
        else
          created.push(
            ...(await insertDeliveries(trx, chunk, [webhook], compiled.where, compiled.needsContact)),
          );
      }
      if (unfiltered.length > 0)
        created.push(...(await insertDeliveries(trx, chunk, unfiltered, undefined, false)));
      await enqueueFirstAttempts(trx, teamId, created);
      if (events.length === FAN_OUT_CHUNK) {
        await enqueueJob(trx, fanOutEventsJob, { teamId, batch, after: last });
      }
    });
  });
}

/**
 * Delivers recorded events to one webhook, whatever event it subscribes to (a flow's
 * gs_trigger_custom_webhook node): one delivery per event and the jobs of their first attempts.
 */
export async function deliverEventsTo(
  trx: Executor,
  teamId: number,
  webhookUuid: string,
  eventUuids: string[],
) {
  if (eventUuids.length === 0) return;
  const result = await sql<{ uuid: string }>`
    insert into webhook_deliveries (team_id, uuid, webhook_uuid, event_uuid)
    select ${teamId}, leadflow_uuid_v7(), w.uuid, e.uuid
    from webhooks w
    join events e on e.team_id = w.team_id and e.uuid = any(${eventUuids}::uuid[])
    where w.team_id = ${teamId} and w.uuid = ${webhookUuid} and w.status = 'on'
    on conflict (team_id, webhook_uuid, event_uuid) do nothing
    returning uuid
  `.execute(trx);
  await enqueueFirstAttempts(
    trx,
    teamId,
    result.rows.map((row) => row.uuid),
  );
}
