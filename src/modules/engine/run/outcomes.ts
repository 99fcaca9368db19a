// Recording what a channel did with an action (the second commit of the never-twice rule): the task's
// final state, the enrollment woken to move on, the "sent" event and conversion - or, when the action
// did not happen for a passing reason, the task handed back to the dispatcher.
import { sql } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import { emitEvents } from '../../events/emit.js';
import type { EventName } from '../../events/events.catalog.js';
import type { ActionOutcome, ActionRequest, ActionType, FailureReason } from '../drivers/driver.js';
import { flowObject, senderObject } from '../event-objects.js';
import { ingestSignalsIn } from '../signals.js';
import type { TaskRow } from './work.js';

/** What the dispatcher must change on the sender after an outcome. */
export type OutcomeEffect = { pauseAction?: ActionType; pauseMs?: number; pauseChannel?: boolean };

type Handling = 'skip' | 'fail' | 'retry' | 'limit' | 'session';

/** What each failure reason does (CONTEXT.md, "Action outcomes"). */
export const FAILURE_HANDLING: Record<FailureReason, Handling> = {
  already_connected: 'skip',
  pending: 'skip',
  nothing_to_do: 'skip',
  not_connected: 'fail',
  not_connectable: 'fail',
  not_found: 'fail',
  inmail_unavailable: 'fail',
  note_quota: 'fail',
  cant_resend_yet: 'fail',
  invalid_recipient: 'fail',
  restricted: 'fail',
  transient: 'retry',
  rate_limited: 'retry',
  weekly_limit: 'limit',
  logged_out: 'session',
  checkpoint: 'session',
  no_channel: 'session',
};

const SENT_EVENTS: Partial<Record<ActionType, { event: EventName; channel: string }>> = {
  linkedin_send_connection_request: {
    event: 'sender_profile_sent_linkedin_connection_request',
    channel: 'linkedin_connection_request',
  },
  linkedin_send_message: { event: 'sender_profile_sent_linkedin_message', channel: 'linkedin_message' },
  linkedin_send_inmail: { event: 'sender_profile_sent_linkedin_inmail', channel: 'linkedin_inmail' },
  email_send_message: { event: 'sender_profile_sent_email', channel: 'email' },
};

export async function wakeEnrollment(db: Executor, task: TaskRow, now: Date) {
  if (!task.flow_lead_uuid) return;
  await db
    .updateTable('flow_leads')
    .set({ next_run_at: now, updated_at: now })
    .where('team_id', '=', task.team_id)
    .where('uuid', '=', task.flow_lead_uuid)
    .where('status', '=', 'in_progress')
    .execute();
}

async function closeTask(
  trx: Executor,
  task: TaskRow,
  now: Date,
  set: {
    status: 'closed' | 'skipped' | 'failed';
    remote_ref?: string | null;
    error_msg?: string | null;
    code?: string | null;
  },
) {
  const result = await trx
    .updateTable('tasks')
    .set({
      status: set.status,
      executed_at: now,
      remote_ref: set.remote_ref ?? null,
      error_msg: set.error_msg ?? null,
      automation_error_code: set.code ?? null,
      updated_at: now,
    })
    .where('team_id', '=', task.team_id)
    .where('uuid', '=', task.uuid)
    .where('status', '=', 'in_progress')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) await wakeEnrollment(trx, task, now);
  return Number(result.numUpdatedRows) === 1;
}

async function contactSourceOf(trx: Executor, task: TaskRow): Promise<number> {
  if (!task.flow_lead_uuid) return 1;
  const row = await trx
    .selectFrom('flow_leads')
    .select('contact_source_id')
    .where('team_id', '=', task.team_id)
    .where('uuid', '=', task.flow_lead_uuid)
    .executeTakeFirst();
  return row?.contact_source_id ?? 1;
}

/** The "sent" event and conversion of a done action. */
async function recordSent(trx: Executor, task: TaskRow, request: ActionRequest, now: Date) {
  const sent = SENT_EVENTS[request.type];
  if (!sent) return;
  const [sender, automation, source] = await Promise.all([
    senderObject(trx, task.team_id, task.sender_profile_uuid),
    flowObject(trx, task.team_id, task.flow_uuid),
    contactSourceOf(trx, task),
  ]);
  const sentAt = now.toISOString();
  const objects =
    request.type === 'linkedin_send_connection_request'
      ? {
          linkedin_connection_request: {
            ln_id: request.lead.ln_id,
            nickname: request.lead.linkedin,
            sent_at: sentAt,
          },
        }
      : request.type === 'email_send_message'
        ? {}
        : {
            linkedin_message: {
              uuid: task.uuid,
              subject: request.subject,
              text: request.text,
              type: 'outbox',
              status: 'done',
              linkedin_type: request.type === 'linkedin_send_inmail' ? 'InMail' : 'message',
              sent_at: sentAt,
              read_at: null,
            },
          };
  await emitEvents(trx, task.team_id, [
    {
      name: sent.event,
      leadUuid: task.lead_uuid,
      sender_profile: sender,
      automation,
      occurredAt: now,
      ...objects,
    },
  ]);
  if (task.flow_uuid && task.flow_node_id !== null) {
    await trx
      .insertInto('flow_conversion_deltas')
      .values({
        team_id: task.team_id,
        flow_uuid: task.flow_uuid,
        flow_node_id: task.flow_node_id,
        contact_source_id: source,
        channel: sent.channel,
        kind: 'sent',
        delta: 1,
        occurred_at: now,
      })
      .execute();
  }
}

/** Hands the task back to the dispatcher (the action did not happen), due at `at`. */
async function handBack(
  trx: Executor,
  task: TaskRow,
  at: Date,
  now: Date,
  countAttempt: boolean,
  note: string,
) {
  await trx
    .updateTable('tasks')
    .set((eb) => ({
      taken_to_execute_at: null,
      schedule_at: at,
      error_msg: note,
      attempts: countAttempt ? eb.ref('attempts') : eb('attempts', '-', 1),
      updated_at: now,
    }))
    .where('team_id', '=', task.team_id)
    .where('uuid', '=', task.uuid)
    .where('status', '=', 'in_progress')
    .execute();
}

export async function recordOutcome(
  db: Database,
  input: {
    task: TaskRow;
    request: ActionRequest;
    outcome: ActionOutcome;
    now: Date;
    driver: string;
    maxAttempts: number;
  },
): Promise<OutcomeEffect> {
  const { task, request, outcome, now } = input;
  return db.transaction().execute(async (trx) => {
    if (outcome.ok) {
      if (await closeTask(trx, task, now, { status: 'closed', remote_ref: outcome.remoteRef ?? null })) {
        await recordSent(trx, task, request, now);
      }
      return {};
    }
    const message = `${outcome.reason}: ${outcome.message}`;
    switch (FAILURE_HANDLING[outcome.reason]) {
      case 'skip':
        await closeTask(trx, task, now, { status: 'skipped', error_msg: message, code: outcome.reason });
        if (outcome.reason === 'already_connected' && task.sender_profile_uuid) {
          // The trigger that waits for an acceptance must see it.
          await ingestSignalsIn(trx, task.team_id, now, [
            {
              kind: 'connection_accepted',
              leadUuid: task.lead_uuid,
              senderProfileUuid: task.sender_profile_uuid,
              occurredAt: now,
              externalKey: `already_connected:${task.sender_profile_uuid}:${task.lead_uuid}`,
            },
          ]);
        }
        return {};
      case 'fail':
        await closeTask(trx, task, now, { status: 'failed', error_msg: message, code: outcome.reason });
        return {};
      case 'retry': {
        const attempts = task.attempts + 1;
        if (attempts >= input.maxAttempts) {
          await closeTask(trx, task, now, {
            status: 'failed',
            error_msg: message,
            code: 'too_many_attempts',
          });
          return {};
        }
        const backoff = outcome.retryAfterMs ?? 60_000 * 4 ** (attempts - 1);
        await handBack(trx, task, new Date(now.getTime() + backoff), now, true, message);
        return {};
      }
      case 'limit':
        await handBack(trx, task, task.schedule_at ?? now, now, false, message);
        return {
          pauseAction: request.type,
          ...(outcome.retryAfterMs ? { pauseMs: outcome.retryAfterMs } : {}),
        };
      default: {
        await handBack(trx, task, task.schedule_at ?? now, now, false, message);
        await sql`
          update linkedin_browsers set status = 'login_issue', error_reason = ${message}, updated_at = ${now}
          where team_id = ${task.team_id} and sender_profile_uuid = ${task.sender_profile_uuid}
        `.execute(trx);
        await emitEvents(trx, task.team_id, [
          {
            name: 'sender_profile_issue',
            sender_profile: await senderObject(trx, task.team_id, task.sender_profile_uuid),
            issue: { type: outcome.reason === 'no_channel' ? 'no_channel' : 'login_issue', message },
            occurredAt: now,
          },
        ]);
        return { pauseChannel: true };
      }
    }
  });
}
