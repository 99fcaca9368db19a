// Triggers: wait for something the contact does, up to a timeout - branch 1 if it happens, branch 2 if
// not. The timeout is the util_timer subtask's wait_time (or the node's own wait_time), else the
// engine's default (LEADFLOW_ENGINE_TRIGGER_DEFAULT_WAIT_SECONDS).
import { type Static, type TSchema, Type } from 'typebox';
import { addDelay } from '../../../lib/schedule.js';
import type { SignalKind } from '../engine.tables.js';
import type { BatchContext, Work, WorkStep } from '../run/work.js';
import { defineNode, type NodeOf } from './define.js';
import { closed, opt, seconds, text, waitOf } from './payload.js';

const timerSubtask = closed(
  {
    id: opt(Type.Integer({ description: 'Node id of the timer (informational)' })),
    type: Type.Literal('util_timer'),
    payload: closed({ wait_time: seconds('How long the trigger waits before taking branch 2') }),
    before: opt(Type.Array(Type.Unknown(), { maxItems: 0 })),
    after: opt(Type.Array(Type.Unknown(), { maxItems: 0 })),
    automation: opt(Type.Literal('auto')),
    delay_in_seconds: opt(Type.Integer({ minimum: 0 })),
    created_at: opt(Type.String()),
    updated_at: opt(Type.String()),
  },
  'The util_timer node that bounds the wait: after wait_time seconds the trigger takes branch 2',
);
const subtasks = Type.Array(timerSubtask, {
  maxItems: 1,
  description: 'At most one util_timer node: the timeout of the wait (none: wait without a timeout)',
});

const BRANCHES = { kind: 'fixed', ids: [1, 2] } as const;

type TriggerPayload = { subtasks?: Static<typeof subtasks>; wait_time?: number };
/** The signals that fire a trigger, and from when they count. */
type SignalRule = { kinds: readonly SignalKind[]; since: 'ever' | 'enrolled' };

function waitSeconds(payload: TriggerPayload, ctx: BatchContext): number {
  const timer = payload.subtasks?.[0];
  if (timer) return timer.payload.wait_time;
  return payload.wait_time ?? ctx.defaults.triggerWaitSeconds;
}

function happened(work: Work, rule: SignalRule, ctx: BatchContext): boolean {
  if (rule.kinds.length === 0) return false;
  const since = rule.since === 'ever' ? 0 : (work.fl.started_at ?? work.fl.created_at).getTime();
  const sender = work.fl.sender_profile_uuid;
  return (ctx.signals.get(work.fl.lead_uuid) ?? []).some(
    (signal) =>
      rule.kinds.includes(signal.kind) &&
      signal.occurred_at.getTime() >= since &&
      (!sender || !signal.sender_profile_uuid || signal.sender_profile_uuid === sender),
  );
}

/** Each trigger type's signal rule (what wakes an enrollment waiting at it). */
const RULES = new Map<string, SignalRule>();

const runTrigger =
  (rule: SignalRule) =>
  (work: Work, node: NodeOf<TriggerPayload>, ctx: BatchContext): WorkStep => {
    const task = work.task;
    const fired = { status: 'closed', fork_result: 1 } as const;
    const timedOut = { status: 'closed', fork_result: 2 } as const;
    if (!task) {
      if (happened(work, rule, ctx)) return { type: 'advance', branch: 1, outcome: fired };
      const deadline = addDelay(ctx.now, waitSeconds(node.payload, ctx), ctx.scheduleOf(work).zone);
      if (deadline <= ctx.now) return { type: 'advance', branch: 2, outcome: timedOut };
      return {
        type: 'wait',
        nextRunAt: deadline,
        wait: { kind: 'trigger', deadline: deadline.toISOString() },
        task: { schedule_at: deadline },
      };
    }
    if (task.status !== 'in_progress') return { type: 'advance', branch: task.fork_result ?? 1 };
    const wait = waitOf(work.fl.wait);
    if (wait.happened === true || happened(work, rule, ctx)) {
      return { type: 'advance', branch: 1, outcome: fired };
    }
    const deadline = new Date(String(wait.deadline ?? task.schedule_at ?? ctx.now.toISOString()));
    if (ctx.now >= deadline) return { type: 'advance', branch: 2, outcome: timedOut };
    return { type: 'wait', nextRunAt: deadline, wait };
  };

function trigger<P extends TSchema>(
  type: string,
  description: string,
  payload: P,
  rule: SignalRule,
  needsSender = true,
) {
  RULES.set(type, rule);
  return defineNode({
    types: { [type]: description },
    category: 'trigger',
    branches: BRANCHES,
    ...(needsSender ? { needs: ['sender'] as const } : {}),
    payload,
    run: runTrigger(rule),
  });
}

export const TRIGGER_NODES = [
  trigger(
    'trigger_message_replied',
    'Waits for a reply (branch 1) or the timeout (branch 2)',
    closed({
      subtasks: opt(subtasks),
      check_period_type: opt(
        Type.String({ maxLength: 64, description: 'Which replies count; observed: last_response' }),
      ),
    }),
    { kinds: ['linkedin_replied', 'linkedin_inmail_replied', 'email_replied'], since: 'enrolled' },
  ),
  trigger(
    'trigger_linkedin_connection_request_accepted',
    'Waits for the connection request to be accepted (branch 1) or the timeout (branch 2)',
    closed({ subtasks: opt(subtasks) }),
    { kinds: ['connection_accepted'], since: 'ever' },
  ),
  trigger(
    'trigger_email_opened',
    'Waits for the last e-mail to be opened (branch 1) or the timeout (branch 2)',
    closed({ subtasks: opt(subtasks) }),
    { kinds: ['email_opened'], since: 'enrolled' },
  ),
  trigger(
    'trigger_link_clicked',
    'Waits for a link of the last e-mail to be clicked (branch 1) or the timeout (branch 2)',
    closed({ subtasks: opt(subtasks) }),
    { kinds: ['link_clicked'], since: 'enrolled' },
  ),
  // No website tracking here: it waits its time and takes branch 2.
  trigger(
    'trigger_website_page_visited',
    'Waits for a visit of a matching page (branch 1) or wait_time (branch 2)',
    closed({
      wait_time: opt(seconds('How long to wait for the visit')),
      wildcard: opt(text(2048, 'URL pattern, * matches anything, e.g. https://site.com/pricing*')),
    }),
    { kinds: [], since: 'enrolled' },
    false,
  ),
];

/** The trigger types a signal of `kind` fires (signals.ts wakes the enrollments waiting at them). */
export function triggersFiredBy(kind: SignalKind): string[] {
  return [...RULES].filter(([, rule]) => rule.kinds.includes(kind)).map(([type]) => type);
}
