// Delivery: attempts of deliveries, a batch per job, and what follows from their outcomes. A batch is
// loaded in one query, sent concurrently over the pooled agent and recorded in one statement, so the
// queue and the database do a few round trips per batch rather than per delivery. Retry timing is
// ours, not the queue's: failed attempts are recorded and the next attempt is enqueued (same
// transaction) for now + the schedule's delay + jitter, so the schedule survives restarts.
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { enqueueJob, handleJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import * as repo from './deliveries.repository.js';
import type { WebhookClient } from './webhook-client.js';
import { deliverWebhooksJob } from './webhook-jobs.js';

/** Kept from a failing response, enough to say what the receiver complained about. */
const RESPONSE_EXCERPT_BYTES = 1024;

export type DeliveryDeps = { db: Database; config: Config; clock: Clock; client: WebhookClient };

export type AttemptRequest = { uuid: string; attempt: number };

/**
 * The JSON body of an event: our envelope fields first, then the stored objects. The stored payload
 * is a JSON object's text; it is spliced in rather than parsed and serialized again.
 */
export function eventBody(
  event: Pick<repo.DeliveryContext, 'event_name' | 'event_uuid' | 'occurred_at' | 'team_id' | 'payload'>,
): string {
  const envelope = JSON.stringify({
    event_name: event.event_name,
    event_uuid: event.event_uuid,
    occurred_at: new Date(event.occurred_at).toISOString(),
    team_id: event.team_id,
  });
  const objects = event.payload.trim();
  return objects === '{}' ? envelope : `${envelope.slice(0, -1)},${objects.slice(1)}`;
}

/** Delay before the attempt after failed attempt `attempt` (1-based), or undefined when none is left. */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  random = Math.random,
): number | undefined {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return undefined;
  // Up to +20% jitter spreads the retries of deliveries that failed together (a receiver outage).
  return Math.round(seconds * 1000 * (1 + 0.2 * random()));
}

function humanDuration(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours >= 48) return `${Math.round(hours / 24)} days`;
  if (hours >= 1) return `${Math.round(hours)} hours`;
  return `${Math.round(ms / 1000)} seconds`;
}

/** The next attempts grouped by due time: one job per group (a batch's failures share one). */
function groupByRunAt(retries: { uuid: string; attempt: number; runAt: string }[]) {
  const groups = new Map<string, AttemptRequest[]>();
  for (const retry of retries) {
    const group = groups.get(retry.runAt) ?? [];
    group.push({ uuid: retry.uuid, attempt: retry.attempt });
    groups.set(retry.runAt, group);
  }
  return groups;
}

export function createDelivery(deps: DeliveryDeps) {
  const { db, config, clock, client } = deps;
  const { retryScheduleSeconds, disableAfterFailingMs } = config.webhooks;
  const health = {
    disableAfterMs: disableAfterFailingMs,
    disabledReason:
      `Switched off: no successful delivery for ${humanDuration(disableAfterFailingMs)}. ` +
      'last_error says why; fix the receiver, then set status to "on".',
  };

  /**
   * Makes the requested attempts. A queued attempt (manual = false) runs only while its delivery waits
   * for exactly that attempt; a manual redelivery runs whatever the delivery's state. Stale requests
   * (already recorded, webhook deleted) are dropped. Returns how many attempts were recorded.
   */
  async function attemptDeliveries(teamId: number, requests: AttemptRequest[], manual: boolean) {
    const wanted = new Map(requests.map((request) => [request.uuid, request.attempt]));
    const contexts = (await repo.selectDeliveryContexts(db, teamId, [...wanted.keys()])).filter(
      (context) =>
        context.attempt === wanted.get(context.uuid)! - 1 &&
        (manual || context.status === 'pending' || context.status === 'retrying'),
    );
    const [off, due] = [
      contexts.filter((context) => context.webhook_status === 'off' && !manual),
      contexts.filter((context) => context.webhook_status === 'on' || manual),
    ];
    await repo.cancelDeliveries(
      db,
      teamId,
      off.map((context) => ({ uuid: context.uuid, attempt: context.attempt })),
      'Not sent: the webhook was switched off.',
    );
    if (due.length === 0) return 0;

    const responses = await Promise.all(
      due.map((context) =>
        client.send({
          url: context.target_url,
          method: context.request_method,
          messageId: context.event_uuid,
          secret: context.secret,
          previousSecret: context.previous_secret,
          body: eventBody(context),
          maxBodyBytes: RESPONSE_EXCERPT_BYTES,
        }),
      ),
    );
    const at = clock.now();
    // One jittered delay per attempt number, so the batch's failures retry together as one job.
    const delays = new Map<number, number | undefined>();
    const outcomes: repo.AttemptOutcome[] = due.map((context, index) => {
      const response = responses[index]!;
      const attempt = context.attempt + 1;
      if (!delays.has(attempt)) delays.set(attempt, retryDelayMs(retryScheduleSeconds, attempt));
      const delay = response.error === null ? undefined : delays.get(attempt);
      return {
        uuid: context.uuid,
        attempt,
        status: response.error === null ? 'succeeded' : delay !== undefined ? 'retrying' : 'failed',
        status_code: response.statusCode,
        duration_ms: response.durationMs,
        error: response.error,
        next_retry_at: delay === undefined ? null : new Date(at.getTime() + delay).toISOString(),
      };
    });

    return db.transaction().execute(async (trx) => {
      const recorded = await repo.recordAttempts(trx, teamId, outcomes, at, health);
      const switchedOff = new Set(
        recorded.filter((row) => row.webhook_status === 'off').map((row) => row.uuid),
      );
      const recordedUuids = new Set(recorded.map((row) => row.uuid));
      const retrying = outcomes.filter((o) => o.status === 'retrying' && recordedUuids.has(o.uuid));
      await repo.cancelDeliveries(
        trx,
        teamId,
        retrying.filter((o) => switchedOff.has(o.uuid)).map((o) => ({ uuid: o.uuid, attempt: o.attempt })),
        'Not retried: the webhook was switched off.',
      );
      const groups = groupByRunAt(
        retrying
          .filter((o) => !switchedOff.has(o.uuid))
          .map((o) => ({ uuid: o.uuid, attempt: o.attempt + 1, runAt: o.next_retry_at! })),
      );
      for (const [runAt, deliveries] of groups) {
        await enqueueJob(trx, deliverWebhooksJob, { teamId, deliveries }, { runAt: new Date(runAt) });
      }
      return recorded.length;
    });
  }

  const deliverHandler = handleJob(deliverWebhooksJob, async ({ teamId, deliveries }) => {
    await attemptDeliveries(teamId, deliveries, false);
  });

  return { attemptDeliveries, deliverHandler };
}

export type Delivery = ReturnType<typeof createDelivery>;
