// Recording what a channel did with actions (the second commit of the never-twice rule): each task's
// final state, its enrollment woken to move on, the "sent" events and conversions - or, when an action
// did not happen for a passing reason, the task handed back to the dispatcher. One transaction for a
// whole burst of a sender's actions; done actions are written set-based.
import { sql } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import { sentOf } from '../../channels/channel-specs.js';
import type {
  ActionOutcome,
  ActionRequest,
  ActionType,
  FailureReason,
  SentActionsHook,
} from '../../channels/driver.js';
import { type EventInput, emitEvents } from '../../events/emit.js';
import { flowObject, senderObject } from '../../events/event-objects.js';
import { ingestSignalsIn } from '../signals.js';
import type { TaskRow } from './work.js';

/** What the dispatcher must change on the sender after the outcomes. */
export type OutcomeEffect = {
  pauseActions: Map<ActionType, number | undefined>;
  pauseChannel: boolean;
  /** Some action is `unconfirmed`: its intent stays for the reconciler's outcome check. */
  awaitingCheck: boolean;
};

/**
 * skip / fail close the task; retry and limit hand it back (the action did not happen); session parks the
 * sender; check leaves the intent in place for the outcome check (the action may have happened).
 */
export type Handling = 'skip' | 'fail' | 'retry' | 'limit' | 'session' | 'check';

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
  unconfirmed: 'check',
  weekly_limit: 'limit',
  selector_health: 'limit',
  logged_out: 'session',
  checkpoint: 'session',
  no_channel: 'session',
  mailbox_limit: 'limit',
  no_email_address: 'skip',
  email_suppressed: 'skip',
};

export type ActionResult = { task: TaskRow; request: ActionRequest; outcome: ActionOutcome };

export async function wakeEnrollment(db: Executor, task: TaskRow, now: Date) {
  if (!task.flow_lead_uuid) return;
  await db
    .updateTable('flow_leads')
    .set((eb) => ({
      next_run_at: now,
      updated_at: now,
      claim_token: eb('claim_token', '+', 1),
      lease_until: null,
    }))
    .where('team_id', '=', task.team_id)
    .where('uuid', '=', task.flow_lead_uuid)
    .where('status', '=', 'in_progress')
    .execute();
}

type Closing = {
  uuid: string;
  status: 'closed' | 'skipped' | 'failed';
  remote_ref: string | null;
  error_msg: string | null;
  code: string | null;
};

/** Closes tasks still in progress and wakes their enrollments; returns the uuids closed. */
async function closeTasks(
  trx: Executor,
  teamId: number,
  closings: Closing[],
  now: Date,
): Promise<Set<string>> {
  if (closings.length === 0) return new Set();
  const result = await sql<{ uuid: string }>`
    with closed as (
      update tasks t set status = v.status, executed_at = ${now}, remote_ref = v.remote_ref,
        error_msg = v.error_msg, automation_error_code = v.code, updated_at = ${now}
      from jsonb_to_recordset(${JSON.stringify(closings)}::jsonb)
        as v(uuid uuid, status text, remote_ref text, error_msg text, code text)
      where t.team_id = ${teamId} and t.uuid = v.uuid and t.status = 'in_progress'
      returning t.uuid, t.flow_lead_uuid
    ),
    woken as (
      update flow_leads fl set next_run_at = ${now}, updated_at = ${now},
        claim_token = fl.claim_token + 1, lease_until = null
      from closed where fl.team_id = ${teamId} and fl.uuid = closed.flow_lead_uuid and fl.status = 'in_progress'
      returning 1
    )
    select uuid from closed
  `.execute(trx);
  return new Set(result.rows.map((r) => r.uuid));
}

/**
 * Fails tasks that must never reach a channel (an action without the text it is: a task planned before
 * texts were checked), with the reason; their enrollments wake and end failed.
 */
export async function failUnsendable(
  db: Executor,
  teamId: number,
  tasks: Array<{ uuid: string; reason: string }>,
  now: Date,
): Promise<void> {
  await closeTasks(
    db,
    teamId,
    tasks.map(({ uuid, reason }) => ({
      uuid,
      status: 'failed',
      remote_ref: null,
      error_msg: reason,
      code: 'template_error',
    })),
    now,
  );
}

function sentObjects(
  task: TaskRow,
  request: ActionRequest,
  sentAt: string,
  outcome?: ActionOutcome,
): Partial<EventInput> {
  if (request.type === 'linkedin_send_connection_request') {
    return {
      linkedin_connection_request: {
        ln_id: request.lead.ln_id,
        nickname: request.lead.linkedin,
        sent_at: sentAt,
      },
    };
  }
  if (request.type === 'email_send_message') {
    // The e-mail channel describes what it sent (the stored e-mail).
    const email = outcome?.ok ? (outcome.detail?.email as EventInput['email'] | undefined) : undefined;
    return email ? { email } : {};
  }
  return {
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
}

/** The "sent" events and conversions of done actions, one statement each. */
async function recordSent(
  trx: Executor,
  teamId: number,
  done: ActionResult[],
  now: Date,
  onSent: SentActionsHook[],
) {
  const sends = done.filter((d) => sentOf(d.request.type));
  if (sends.length === 0) return;
  // The channels' own records of what the flows sent (the LinkedIn messages list: automation "auto").
  const sent = sends.map(({ task, request, outcome }) => ({
    taskUuid: task.uuid,
    flowUuid: task.flow_uuid,
    senderProfileUuid: task.sender_profile_uuid,
    leadUuid: task.lead_uuid,
    request,
    outcome,
  }));
  for (const hook of onSent) await hook(trx, teamId, sent, now);
  const senderUuids = [...new Set(sends.map((d) => d.task.sender_profile_uuid))];
  const flowUuids = [...new Set(sends.map((d) => d.task.flow_uuid))];
  const [senders, flows] = await Promise.all([
    Promise.all(senderUuids.map((uuid) => senderObject(trx, teamId, uuid))),
    Promise.all(flowUuids.map((uuid) => flowObject(trx, teamId, uuid))),
  ]);
  const senderOf = new Map(senderUuids.map((uuid, i) => [uuid, senders[i] ?? null]));
  const flowOf = new Map(flowUuids.map((uuid, i) => [uuid, flows[i] ?? null]));
  const sentAt = now.toISOString();
  await emitEvents(
    trx,
    teamId,
    sends.map(({ task, request, outcome }) => ({
      name: sentOf(request.type)!.event,
      leadUuid: task.lead_uuid,
      sender_profile: senderOf.get(task.sender_profile_uuid) ?? null,
      automation: flowOf.get(task.flow_uuid) ?? null,
      occurredAt: now,
      ...sentObjects(task, request, sentAt, outcome),
    })),
  );
  const conversions = sends
    .filter((d) => d.task.flow_uuid && d.task.flow_node_id !== null && d.task.flow_lead_uuid)
    .map((d) => ({
      flow_lead_uuid: d.task.flow_lead_uuid,
      flow_node_id: d.task.flow_node_id,
      channel: sentOf(d.request.type)!.channel,
    }));
  if (conversions.length > 0) {
    await sql`
      insert into flow_conversion_deltas (team_id, flow_uuid, flow_node_id, contact_source_id, sender_profile_uuid,
        channel, kind, delta, occurred_at)
      select ${teamId}, fl.flow_uuid, v.flow_node_id, fl.contact_source_id, fl.sender_profile_uuid, v.channel, 'sent', 1,
        ${now}
      from jsonb_to_recordset(${JSON.stringify(conversions)}::jsonb) as v(flow_lead_uuid uuid, flow_node_id int, channel text)
      join flow_leads fl on fl.team_id = ${teamId} and fl.uuid = v.flow_lead_uuid
    `.execute(trx);
  }
}

/** Hands a task back to the dispatcher (the action did not happen), due at `at`. */
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

async function seatLoggedOut(trx: Executor, result: ActionResult, message: string, now: Date) {
  const { task } = result;
  await sql`
    update linkedin_browsers set status = 'login_issue', error_reason = ${message}, updated_at = ${now}
    where team_id = ${task.team_id} and sender_profile_uuid = ${task.sender_profile_uuid}
  `.execute(trx);
  await emitEvents(trx, task.team_id, [
    {
      name: 'sender_profile_issue',
      sender_profile: await senderObject(trx, task.team_id, task.sender_profile_uuid),
      issue: {
        type: result.outcome.ok || result.outcome.reason !== 'no_channel' ? 'login_issue' : 'no_channel',
        message,
      },
      occurredAt: now,
    },
  ]);
}

/** Records the outcomes of one sender's actions (all of one team) in one transaction. */
export async function recordOutcomes(
  db: Database,
  results: ActionResult[],
  now: Date,
  maxAttempts: number,
  onSent: SentActionsHook[],
): Promise<OutcomeEffect> {
  const effect: OutcomeEffect = { pauseActions: new Map(), pauseChannel: false, awaitingCheck: false };
  const teamId = results[0]?.task.team_id;
  if (teamId === undefined) return effect;
  await db.transaction().execute(async (trx) => {
    const closings: Closing[] = [];
    const done: ActionResult[] = [];
    for (const result of results) {
      const { task, request, outcome } = result;
      if (outcome.ok) {
        closings.push({
          uuid: task.uuid,
          status: 'closed',
          remote_ref: outcome.remoteRef ?? null,
          error_msg: null,
          code: null,
        });
        done.push(result);
        continue;
      }
      const message = `${outcome.reason}: ${outcome.message}`;
      switch (FAILURE_HANDLING[outcome.reason]) {
        case 'skip':
          closings.push({
            uuid: task.uuid,
            status: 'skipped',
            remote_ref: null,
            error_msg: message,
            code: outcome.reason,
          });
          if (outcome.reason === 'already_connected' && task.sender_profile_uuid) {
            // The trigger that waits for an acceptance must see it.
            await ingestSignalsIn(trx, teamId, now, [
              {
                kind: 'connection_accepted',
                leadUuid: task.lead_uuid,
                senderProfileUuid: task.sender_profile_uuid,
                occurredAt: now,
                externalKey: `already_connected:${task.sender_profile_uuid}:${task.lead_uuid}`,
              },
            ]);
          }
          break;
        case 'fail':
          closings.push({
            uuid: task.uuid,
            status: 'failed',
            remote_ref: null,
            error_msg: message,
            code: outcome.reason,
          });
          break;
        case 'retry': {
          const attempts = task.attempts + 1;
          if (attempts >= maxAttempts) {
            closings.push({
              uuid: task.uuid,
              status: 'failed',
              remote_ref: null,
              error_msg: message,
              code: 'too_many_attempts',
            });
          } else {
            const backoff = outcome.retryAfterMs ?? 60_000 * 4 ** (attempts - 1);
            await handBack(trx, task, new Date(now.getTime() + backoff), now, true, message);
          }
          break;
        }
        case 'check':
          // Never retried on a guess: the task stays taken, and the reconciler asks the channel.
          await trx
            .updateTable('tasks')
            .set({ error_msg: message, updated_at: now })
            .where('team_id', '=', task.team_id)
            .where('uuid', '=', task.uuid)
            .where('status', '=', 'in_progress')
            .execute();
          effect.awaitingCheck = true;
          break;
        case 'limit':
          await handBack(trx, task, task.schedule_at ?? now, now, false, message);
          effect.pauseActions.set(request.type, outcome.retryAfterMs);
          break;
        default:
          await handBack(trx, task, task.schedule_at ?? now, now, false, message);
          if (!effect.pauseChannel) await seatLoggedOut(trx, result, message, now);
          effect.pauseChannel = true;
      }
    }
    const closed = await closeTasks(trx, teamId, closings, now);
    await recordSent(
      trx,
      teamId,
      done.filter((d) => closed.has(d.task.uuid)),
      now,
      onSent,
    );
  });
  return effect;
}
