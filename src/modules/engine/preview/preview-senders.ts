// The preview's dispatcher: run/dispatch.ts in memory. Per sender and channel one action at a time,
// at the sender's next human slot (the same seeded gap), inside the task's window (replanned when it
// closed), within the sender's limits (the engine's own limit function: targets, warm-up, rolling
// week), oldest ready task first; the action is answered by the sandbox network's own decision code
// with the preview's rates, and its outcome handled as run/outcomes.ts handles it. The sender and
// action-type guards are the dispatcher's own (run/dispatch-guards.ts).

import { uniform } from '../../../lib/rng.js';
import { isOpenAt, nextOpenInstant, type Schedule } from '../../../lib/schedule.js';
import {
  decideSandboxAction,
  type SandboxSenderState,
  type SandboxSettings,
} from '../../browsers/sandbox/sandbox-driver.js';
import { CHANNEL_SPECS } from '../../channels/channel-specs.js';
import type { ActionType, Channel } from '../../channels/driver.js';
import { senderActionLimits } from '../limits.js';
import { actionRoom, humanGapMs, senderHold } from '../run/dispatch-guards.js';
import { FAILURE_HANDLING } from '../run/outcomes.js';
import type { SenderRow } from '../run/work.js';
import { usageWindowOf } from './preview-time.js';

/** An action waiting for its sender (the task of an enrollment's current step). */
export type QueuedAction = {
  enrollment: number;
  type: ActionType;
  scheduleAt: Date;
  zone: string;
  /** When it first became ready (for "waiting on limits"). */
  readyAt: Date;
  doneAt?: Date;
  done: boolean;
};

export type ActionResult =
  | { kind: 'closed'; response: 'accept' | 'reply' | null; respondAt: Date | null }
  | { kind: 'skipped'; code: string; message: string }
  | { kind: 'failed'; code: string; message: string };

export type SenderLane = {
  sender: SenderRow;
  channel: Channel;
  /** Why this sender cannot act on the channel (no seat, no mailbox...), or undefined. */
  unavailable: string | undefined;
  queue: QueuedAction[];
  /** Every action planned for this lane (the report counts what waited). */
  history: QueuedAction[];
  nextDispatchAt: number;
  nextSlotAt: number;
  actionsDone: number;
  pausedUntil: Map<string, number>;
  /** Actions taken per `${localDate}|${type}` (what the engine's usage query counts). */
  used: Map<string, number>;
  network: SandboxSenderState;
  /** When the network took each invitation (its weekly limit counts the last 7 days). */
  invitesAt: number[];
  /** The limits by `${localDate}|${type}` (computed once a day). */
  limits: Map<string, { daily: number; weekly: number | null }>;
};

export type LaneDeps = {
  settings: SandboxSettings;
  actionIntervalSeconds: number;
  limitPauseMs: number;
  scheduleOf(action: QueuedAction): Schedule;
  /** The contact of an enrollment (for the network's decision). */
  leadOf(enrollment: number): string;
  /** Whether the enrollment still runs (a reply may have ended it since the task was planned). */
  running(enrollment: number): boolean;
  onResult(lane: SenderLane, action: QueuedAction, result: ActionResult, now: Date): void;
};

export function newLane(sender: SenderRow, channel: Channel, unavailable: string | undefined): SenderLane {
  return {
    sender,
    channel,
    unavailable,
    queue: [],
    history: [],
    nextDispatchAt: Number.POSITIVE_INFINITY,
    nextSlotAt: 0,
    actionsDone: 0,
    pausedUntil: new Map(),
    used: new Map(),
    network: { connected: new Set(), pending: new Set(), weekInvites: 0 },
    invitesAt: [],
    limits: new Map(),
  };
}

/** Adds a planned action; the sender looks at it when it is due. */
export function enqueue(lane: SenderLane, action: QueuedAction): void {
  // Kept in schedule order (binary insert): the oldest ready task is near the front.
  let lo = 0;
  let hi = lane.queue.length;
  const at = action.scheduleAt.getTime();
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((lane.queue[mid] as QueuedAction).scheduleAt.getTime() <= at) lo = mid + 1;
    else hi = mid;
  }
  lane.queue.splice(lo, 0, action);
  lane.nextDispatchAt = Math.min(lane.nextDispatchAt, at);
}

/** Taken actions of `type` on the local day `date` and over the 7 local days ending on it. */
function usedOf(lane: SenderLane, type: string, date: string, weekDates: string[]) {
  let week = 0;
  for (const day of weekDates) week += lane.used.get(`${day}|${type}`) ?? 0;
  return { today: lane.used.get(`${date}|${type}`) ?? 0, week };
}

function limitOf(lane: SenderLane, type: ActionType, date: string) {
  const key = `${date}|${type}`;
  let limit = lane.limits.get(key);
  if (!limit) {
    limit = senderActionLimits(lane.sender, type, date);
    lane.limits.set(key, limit);
  }
  return limit;
}

/** The sender's daily limit of `type` on a local date (the preview's report). */
export function dailyLimitOf(lane: SenderLane, type: ActionType, date: string): number {
  return limitOf(lane, type, date).daily;
}

function removeAt(lane: SenderLane, index: number): QueuedAction {
  return lane.queue.splice(index, 1)[0] as QueuedAction;
}

/** The network's answer, mapped as run/outcomes.ts maps a driver's. */
function perform(lane: SenderLane, action: QueuedAction, now: Date, deps: LaneDeps) {
  if (lane.channel === 'email') {
    // The sandbox is LinkedIn only: e-mail goes through the sender's mailbox; its reply comes at the
    // preview's reply rate, seeded per sender and contact like the network's.
    const lead = deps.leadOf(action.enrollment);
    const replies =
      uniform('email-reply', deps.settings.seed, lane.sender.uuid, lead) < deps.settings.replyRate;
    const span = Math.max(0, deps.settings.maxResponseSeconds - deps.settings.minResponseSeconds);
    const delay =
      (deps.settings.minResponseSeconds + uniform('delay', deps.settings.seed, 'email', lead) * span) * 1000;
    return {
      record: {
        response: replies ? ('reply' as const) : null,
        respondAt: replies ? new Date(now.getTime() + delay) : null,
      },
    };
  }
  const weekAgo = now.getTime() - 7 * 86_400_000;
  while (lane.invitesAt.length > 0 && (lane.invitesAt[0] as number) <= weekAgo) lane.invitesAt.shift();
  lane.network.weekInvites = lane.invitesAt.length;
  const before = lane.network.weekInvites;
  const decision = decideSandboxAction(
    deps.settings,
    {
      type: action.type,
      senderProfileUuid: lane.sender.uuid,
      leadUuid: deps.leadOf(action.enrollment),
      at: now,
    },
    lane.network,
  );
  if (lane.network.weekInvites > before) lane.invitesAt.push(now.getTime());
  return decision;
}

/** What the sender may still do now: the types at a limit or paused, and when the first reopens. */
function roomOf(lane: SenderLane, now: Date) {
  const window = usageWindowOf(lane.sender, now);
  const room = actionRoom(
    CHANNEL_SPECS[lane.channel].actions,
    (type) => ({
      pausedUntil: lane.pausedUntil.get(type) ?? lane.pausedUntil.get('*'),
      limit: limitOf(lane, type as ActionType, window.date),
      used: usedOf(lane, type, window.date, window.weekDates),
    }),
    now.getTime(),
    window.nextDay.getTime(),
  );
  return { blocked: new Set(room.blocked), reopenAt: room.reopenAt ?? Number.POSITIVE_INFINITY, window };
}

/** Moves `actions` (in the queue) to the next open instant of their windows, in one pass. */
function replan(lane: SenderLane, actions: QueuedAction[], now: Date, deps: LaneDeps) {
  const moved = new Set(actions);
  lane.queue = lane.queue.filter((a) => !moved.has(a));
  for (const action of actions) {
    const replanned = nextOpenInstant(deps.scheduleOf(action), now, action.zone);
    if (replanned) action.scheduleAt = replanned;
  }
  const kept = actions.filter((a) => a.scheduleAt.getTime() > now.getTime());
  // Both lists are in schedule order: merge them.
  kept.sort((a, b) => a.scheduleAt.getTime() - b.scheduleAt.getTime());
  const merged: QueuedAction[] = [];
  let i = 0;
  for (const action of lane.queue) {
    while (i < kept.length && (kept[i] as QueuedAction).scheduleAt.getTime() < action.scheduleAt.getTime())
      merged.push(kept[i++] as QueuedAction);
    merged.push(action);
  }
  while (i < kept.length) merged.push(kept[i++] as QueuedAction);
  lane.queue = merged;
}

/**
 * Runs the lane at `now` (it is due): at most one action with a human gap, then the lane's next
 * dispatch instant. Returns the number of actions taken.
 */
export function dispatchLane(lane: SenderLane, now: Date, deps: LaneDeps): number {
  const t = now.getTime();
  // A sender without a seat or mailbox waits for good (the engine parks its actions).
  const hold = lane.unavailable
    ? { until: null }
    : senderHold({ sender: lane.sender, nextSlotAt: lane.nextSlotAt }, t);
  if (hold) {
    lane.nextDispatchAt = hold.until ?? Number.POSITIVE_INFINITY;
    return 0;
  }
  let acted = 0;
  let limits: ReturnType<typeof roomOf> | undefined;
  for (let guard = 0; guard < 10_000; guard += 1) {
    // Limits change only when an action is taken: computed again after one.
    limits = limits ?? roomOf(lane, now);
    const { blocked, reopenAt, window } = limits;
    // The oldest ready task of a type with room. Tasks before it whose window closed since they were
    // planned are replanned on the way (the engine replans them one by one, then takes the next).
    let index = -1;
    let nextReady = Number.POSITIVE_INFINITY;
    const closed: QueuedAction[] = [];
    const open = new Map<Schedule, Map<string, boolean>>();
    for (let i = 0; i < lane.queue.length; i += 1) {
      const candidate = lane.queue[i] as QueuedAction;
      if (blocked.has(candidate.type)) continue;
      const at = candidate.scheduleAt.getTime();
      if (at > t) {
        nextReady = at;
        break;
      }
      if (!deps.running(candidate.enrollment)) {
        // Ended meanwhile (a reply): the task is parked, like takeIntents parks it.
        removeAt(lane, i);
        i -= 1;
        continue;
      }
      const schedule = deps.scheduleOf(candidate);
      const zones = open.get(schedule) ?? new Map<string, boolean>();
      open.set(schedule, zones);
      let isOpen = zones.get(candidate.zone);
      if (isOpen === undefined) {
        isOpen = isOpenAt(schedule, now, candidate.zone);
        zones.set(candidate.zone, isOpen);
      }
      if (!isOpen) {
        closed.push(candidate);
        continue;
      }
      index = i;
      break;
    }
    if (closed.length > 0) {
      replan(lane, closed, now, deps);
      continue;
    }
    if (index < 0) {
      lane.nextDispatchAt = Math.min(nextReady, reopenAt);
      return acted;
    }
    const action = lane.queue[index] as QueuedAction;
    const decision = perform(lane, action, now, deps);
    lane.actionsDone += 1;
    acted += 1;
    limits = undefined;
    if ('record' in decision) {
      removeAt(lane, index);
      const key = `${window.date}|${action.type}`;
      lane.used.set(key, (lane.used.get(key) ?? 0) + 1);
      action.done = true;
      action.doneAt = now;
      deps.onResult(lane, action, { kind: 'closed', ...decision.record }, now);
    } else {
      const outcome = decision.outcome;
      const reason = outcome.ok ? 'transient' : outcome.reason;
      const message = outcome.ok ? '' : `${outcome.reason}: ${outcome.message}`;
      const handling = FAILURE_HANDLING[reason as keyof typeof FAILURE_HANDLING] ?? 'fail';
      if (handling === 'skip' || handling === 'fail') {
        removeAt(lane, index);
        action.done = true;
        action.doneAt = now;
        deps.onResult(
          lane,
          action,
          { kind: handling === 'skip' ? 'skipped' : 'failed', code: reason, message },
          now,
        );
      } else if (handling === 'limit') {
        lane.pausedUntil.set(action.type, t + deps.limitPauseMs);
      } else {
        // The channel cannot act at all (the sandbox has no e-mail): its actions wait for good.
        lane.pausedUntil.set('*', Number.POSITIVE_INFINITY);
        lane.unavailable = reason;
      }
    }
    const wait = humanGapMs(lane.sender, lane.channel, lane.actionsDone, deps.actionIntervalSeconds);
    if (wait > 0 || lane.unavailable) {
      lane.nextSlotAt = t + wait;
      lane.nextDispatchAt = lane.unavailable ? Number.POSITIVE_INFINITY : lane.nextSlotAt;
      return acted;
    }
  }
  lane.nextDispatchAt = t;
  return acted;
}
