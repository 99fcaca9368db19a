// Sending a message queued with POST /flows/api/linkedin-messages through the sender's seat, like the
// engine's dispatcher sends a flow's: inside the sender's schedule, within its limits (the engine's
// `senderRoom`: the daily and weekly counts are shared with the flows' actions).
//
// Never twice, by the engine's one implementation (`sendOnce`, `askOutcome`): the message is marked
// in_progress (taken_at) in its own commit before the driver is called; the outcome is a second commit.
// A message found in_progress later (a crash in between) is only resolved by asking the channel
// (`checkOutcome`) once nobody can still be sending it: done ->
// recorded as sent, not done -> queued again, unknown -> failed with `unknown_outcome` - never resent
// on a guess. A send the channel answers `unconfirmed` (past the click on Send without a confirmation)
// is left in progress the same way.
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/database.js';
import { nextOpenInstant } from '../../lib/schedule.js';
import { CHANNEL_SPECS } from '../channels/channel-specs.js';
import type { ActionOutcome, ActionRequest, ActionType, DriverRegistry } from '../channels/driver.js';
import {
  actionLeads,
  askOutcome,
  FAILURE_HANDLING,
  type SenderLimits,
  senderRoom,
  sendOnce,
} from '../engine/index.js';
import { emitEvents } from '../events/emit.js';
import { senderObject } from '../events/event-objects.js';
import { upsertConversations } from './linkedin-ingest.js';
import type { LinkedInMessageRow } from './linkedin-messages.repository.js';

export type SendDeps = {
  db: Database;
  drivers: DriverRegistry;
  limits: SenderLimits;
  log: Logger;
  /** After this long in progress, a message's outcome is asked of the channel (the engine's reconcile delay). */
  reconcileAfterMs: number;
  maxAttempts: number;
  limitPauseMs: number;
};

/** When to look at the message again (nothing: it is settled). */
export type SendResult = { retryAt?: Date; outcome?: 'sent' | 'failed' | 'waiting' | 'reconciled' };

const WAIT_MS = 15 * 60_000;

export function actionTypeOf(linkedinType: string): ActionType {
  if (linkedinType === 'InMail') return 'linkedin_send_inmail';
  if (linkedinType === 'connection_note') return 'linkedin_send_connection_request';
  return 'linkedin_send_message';
}

async function requestFor(
  db: Executor,
  message: LinkedInMessageRow,
  now: Date,
): Promise<ActionRequest | null> {
  if (!message.lead_uuid) return null;
  const lead = (await actionLeads(db, message.team_id, [message.lead_uuid])).get(message.lead_uuid);
  if (!lead) return null;
  return {
    teamId: message.team_id,
    // The message is the idempotency key the channel may use (and checkOutcome looks for).
    taskUuid: message.uuid,
    type: actionTypeOf(message.linkedin_type),
    senderProfileUuid: message.sender_profile_uuid,
    lead,
    text: message.text,
    subject: message.subject,
    attachments: message.attachments ?? [],
    options: {},
    at: now,
  };
}

async function fail(
  db: Executor,
  message: LinkedInMessageRow,
  reason: string,
  now: Date,
): Promise<SendResult> {
  await db
    .updateTable('linkedin_messages')
    .set({ status: 'failed', fail_reason: reason, updated_at: now })
    .where('team_id', '=', message.team_id)
    .where('uuid', '=', message.uuid)
    .where('status', 'in', ['new', 'in_progress'])
    .execute();
  return { outcome: 'failed' };
}

/** Back in the queue (the send did not happen), due again at `at`. */
async function requeue(
  db: Executor,
  message: LinkedInMessageRow,
  at: Date,
  now: Date,
  countAttempt: boolean,
) {
  await db
    .updateTable('linkedin_messages')
    .set((eb) => ({
      status: 'new',
      taken_at: null,
      attempts: countAttempt ? eb('attempts', '+', 1) : eb.ref('attempts'),
      updated_at: now,
    }))
    .where('team_id', '=', message.team_id)
    .where('uuid', '=', message.uuid)
    .where('status', '=', 'in_progress')
    .execute();
  return { retryAt: at, outcome: 'waiting' as const };
}

/** Records a done send: status, the channel's reference, its conversation, the "sent" event. */
async function recordSent(
  db: Database,
  message: LinkedInMessageRow,
  remoteRef: string | null,
  sentAt: Date,
  now: Date,
) {
  await db.transaction().execute(async (trx) => {
    const conversations = message.lead_uuid
      ? await upsertConversations(
          trx,
          message.team_id,
          message.sender_profile_uuid,
          [
            {
              lead_uuid: message.lead_uuid,
              conversation_hash: null,
              last_activity_at: sentAt,
              synced: false,
            },
          ],
          now,
        )
      : new Map<string, string>();
    const updated = await trx
      .updateTable('linkedin_messages')
      .set({
        status: 'done',
        sent_at: sentAt,
        fail_reason: null,
        message_hash: remoteRef,
        linkedin_conversation_uuid: message.lead_uuid ? (conversations.get(message.lead_uuid) ?? null) : null,
        updated_at: now,
      })
      .where('team_id', '=', message.team_id)
      .where('uuid', '=', message.uuid)
      .where('status', '=', 'in_progress')
      .returningAll()
      .executeTakeFirst();
    if (!updated) return;
    const type = actionTypeOf(message.linkedin_type);
    await emitEvents(trx, message.team_id, [
      {
        name: CHANNEL_SPECS.linkedin.sent[type as keyof typeof CHANNEL_SPECS.linkedin.sent].event,
        leadUuid: message.lead_uuid,
        sender_profile: await senderObject(trx, message.team_id, message.sender_profile_uuid),
        automation: null,
        occurredAt: now,
        ...(type === 'linkedin_send_connection_request'
          ? { linkedin_connection_request: { ln_id: null, nickname: null, sent_at: sentAt.toISOString() } }
          : {
              linkedin_message: {
                uuid: message.uuid,
                subject: message.subject,
                text: message.text,
                type: 'outbox',
                status: 'done',
                linkedin_type: message.linkedin_type,
                sent_at: sentAt.toISOString(),
                read_at: null,
              },
            }),
      },
    ]);
  });
  return { outcome: 'sent' as const };
}

async function recordOutcome(
  deps: SendDeps,
  message: LinkedInMessageRow,
  outcome: ActionOutcome,
  now: Date,
): Promise<SendResult> {
  const { db } = deps;
  if (outcome.ok) {
    const ref = outcome.remoteRef && outcome.remoteRef !== 'reconciled' ? outcome.remoteRef : null;
    return recordSent(db, message, ref, now, now);
  }
  const reason = `${outcome.reason}: ${outcome.message}`;
  switch (FAILURE_HANDLING[outcome.reason]) {
    case 'retry':
      if (message.attempts + 1 >= deps.maxAttempts)
        return fail(db, message, `too_many_attempts: ${reason}`, now);
      return requeue(
        db,
        message,
        new Date(now.getTime() + (outcome.retryAfterMs ?? 60_000 * 4 ** message.attempts)),
        now,
        true,
      );
    case 'limit':
      return requeue(
        db,
        message,
        new Date(now.getTime() + (outcome.retryAfterMs ?? deps.limitPauseMs)),
        now,
        false,
      );
    case 'session':
      return requeue(db, message, new Date(now.getTime() + WAIT_MS), now, false);
    case 'check':
      // Past the irreversible step without a confirmation: left in progress for the outcome check.
      await db
        .updateTable('linkedin_messages')
        .set({ fail_reason: reason, updated_at: now })
        .where('team_id', '=', message.team_id)
        .where('uuid', '=', message.uuid)
        .where('status', '=', 'in_progress')
        .execute();
      return {
        retryAt: new Date((message.taken_at ?? now).getTime() + deps.reconcileAfterMs + 1000),
        outcome: 'waiting',
      };
    default:
      // skip and fail alike: the message did not go out and will not.
      return fail(db, message, reason, now);
  }
}

/** A message in progress whose outcome was never recorded: ask the channel, never resend on a guess. */
export async function reconcileMessage(
  deps: SendDeps,
  message: LinkedInMessageRow,
  now: Date,
): Promise<SendResult> {
  const { db } = deps;
  const check = await askOutcome(
    deps,
    { teamId: message.team_id, senderProfileUuid: message.sender_profile_uuid, channel: 'linkedin' },
    () => requestFor(db, message, now),
  );
  // Someone is logging in through the seat's live view: ask once they are done.
  if (typeof check !== 'string') return { retryAt: check.busyUntil, outcome: 'waiting' };
  if (check === 'done') {
    await recordSent(db, message, null, message.taken_at ?? now, now);
    return { outcome: 'reconciled' };
  }
  if (check === 'not_done') {
    if (message.attempts + 1 >= deps.maxAttempts) {
      return fail(
        db,
        message,
        `too_many_attempts: ${message.fail_reason ?? 'LinkedIn shows it was not sent'}`,
        now,
      );
    }
    return requeue(db, message, now, now, true);
  }
  const cause = message.fail_reason?.startsWith('unconfirmed:')
    ? message.fail_reason.replace(/^unconfirmed: /, '').replace(/\.$/, '')
    : 'the worker stopped while this message was being sent';
  return fail(
    db,
    message,
    `unknown_outcome: ${cause}, and LinkedIn cannot tell whether it went out; it is not sent again.`,
    now,
  );
}

/** Finds stale in-progress messages of a sender (a crash mid-send) and resolves them. */
export async function reconcileStaleMessages(deps: SendDeps, teamId: number, senderUuid: string, now: Date) {
  const stale = await deps.db
    .selectFrom('linkedin_messages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('sender_profile_uuid', '=', senderUuid)
    .where('status', '=', 'in_progress')
    .where('taken_at', '<', new Date(now.getTime() - deps.reconcileAfterMs))
    .limit(100)
    .execute();
  for (const message of stale) await reconcileMessage(deps, message, now);
  return stale.length;
}

/** One look at a queued message: send it if its sender may act now, else say when to look again. */
export async function processQueuedMessage(
  deps: SendDeps,
  teamId: number,
  uuid: string,
  now: Date,
): Promise<SendResult> {
  const { db } = deps;
  const message = await db
    .selectFrom('linkedin_messages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  if (!message) return {};
  if (message.status === 'in_progress') {
    const settledAt = new Date((message.taken_at ?? now).getTime() + deps.reconcileAfterMs);
    if (settledAt > now) return { retryAt: settledAt, outcome: 'waiting' };
    return reconcileMessage(deps, message, now);
  }
  if (message.status !== 'new') return {};

  const sender = await db
    .selectFrom('sender_profiles')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', message.sender_profile_uuid)
    .executeTakeFirst();
  if (!sender) return fail(db, message, 'sender_deleted: the sender profile no longer exists', now);
  if (sender.status !== 'enabled') return { retryAt: new Date(now.getTime() + WAIT_MS), outcome: 'waiting' };
  const request = await requestFor(db, message, now);
  if (!request) return fail(db, message, 'contact_deleted: the contact no longer exists', now);

  // The sender's schedule.
  const open = nextOpenInstant(sender.schedule, now);
  if (!open) return fail(db, message, 'no_schedule: the sender profile has no open hours', now);
  if (open > now) return { retryAt: open, outcome: 'waiting' };

  // The sender's limits, shared with its flows (no pauses: those are the flows' dispatcher's).
  const room = await senderRoom(db, deps.limits, sender, [request.type], {}, now);
  if (room.reopenAt !== null) return { retryAt: new Date(room.reopenAt), outcome: 'waiting' };

  const driver = await deps.drivers.resolve(teamId, sender.uuid, 'linkedin');
  if ('busyUntil' in driver) return { retryAt: driver.busyUntil, outcome: 'waiting' };
  if ('unavailable' in driver) return { retryAt: new Date(now.getTime() + WAIT_MS), outcome: 'waiting' };

  let taken: LinkedInMessageRow | undefined;
  const sent = await sendOnce(
    driver,
    [{ id: uuid, item: message, request }],
    {
      // Intent: committed before the channel is called.
      async take() {
        taken = await db
          .updateTable('linkedin_messages')
          .set({ status: 'in_progress', taken_at: now, updated_at: now })
          .where('team_id', '=', teamId)
          .where('uuid', '=', uuid)
          .where('status', '=', 'new')
          .returningAll()
          .executeTakeFirst();
        return new Set(taken ? [uuid] : []);
      },
      record: async ([result]) =>
        result && taken ? recordOutcome(deps, taken, result.outcome, now) : undefined,
    },
    deps.log,
  );
  if (!sent) return {};
  // Without an outcome (the driver threw), whether it went out is unknown: left in progress for the check.
  return (
    sent.recorded ?? { retryAt: new Date(now.getTime() + deps.reconcileAfterMs + 1000), outcome: 'waiting' }
  );
}
