// The dispatcher's guards, in the order it asks them: may the sender act now (exists, enabled, hold,
// slot), and which action types have room (pauses, limits). Pure functions of what the dispatcher
// knows, so the flow preview's in-memory dispatcher (preview/preview-senders.ts) asks the same ones;
// the guards that read the database (the channel's seat, the tasks' windows, contacts, texts and
// enrollments) are the dispatcher's own (dispatch.ts).
import { uniform } from '../../../lib/rng.js';
import type { ActionType, Channel } from '../../channels/driver.js';
import type { SenderRow } from './work.js';

/** The sender's limits of an action type on its local date (the senders module's: engine/limits.ts). */
export type SenderLimits = (
  sender: SenderRow,
  action: ActionType,
  localDate: string,
) => { daily: number; weekly: number | null };

/** The sender may not act now: look again at `until` (ms; null: when something new is ready). */
export type SenderHold = { guard: string; until: number | null; park?: 'sender_disabled' };

export type SenderView = {
  sender: Pick<SenderRow, 'status' | 'hold_tasks_till'> | undefined;
  /** The sender's next human slot on this channel (ms). */
  nextSlotAt: number | null;
};

type SenderGuard = {
  name: string;
  check(view: SenderView, now: number): Omit<SenderHold, 'guard'> | undefined;
};

export const SENDER_GUARDS: readonly SenderGuard[] = [
  { name: 'exists', check: ({ sender }) => (sender ? undefined : { until: null }) },
  {
    name: 'enabled',
    check: ({ sender }) =>
      sender?.status === 'enabled' ? undefined : { until: null, park: 'sender_disabled' },
  },
  {
    // Tasks held by the sender's owner (hold_tasks_till).
    name: 'hold',
    check: ({ sender }, now) => {
      const till = sender?.hold_tasks_till?.getTime();
      return till !== undefined && till > now ? { until: till } : undefined;
    },
  },
  {
    // One action per human slot.
    name: 'slot',
    check: ({ nextSlotAt }, now) =>
      nextSlotAt !== null && nextSlotAt > now ? { until: nextSlotAt } : undefined,
  },
];

/** The first sender guard that stops the sender now, or undefined. */
export function senderHold(view: SenderView, now: number): SenderHold | undefined {
  for (const guard of SENDER_GUARDS) {
    const hold = guard.check(view, now);
    if (hold) return { guard: guard.name, ...hold };
  }
  return undefined;
}

/** What the action guards know of one action type of the sender. */
export type TypeView = {
  /** Paused until (ms): the type's own pause, else the channel's (`*`). */
  pausedUntil: number | undefined;
  /** The sender's limits of the type on its local date (targets, warm-up ramp, weekly cap: SenderLimits). */
  limit: { daily: number; weekly: number | null };
  /** Taken today and over the rolling week. */
  used: { today: number; week: number };
};

/** Actions of the type still allowed today (negative or zero: none). */
export function leftOf(view: TypeView): number {
  return Math.min(
    view.limit.daily - view.used.today,
    view.limit.weekly === null ? Number.POSITIVE_INFINITY : view.limit.weekly - view.used.week,
  );
}

type ActionGuard = {
  name: string;
  /** When the type reopens (ms) if this guard blocks it, else undefined. */
  check(view: TypeView, now: number, nextDay: number): number | undefined;
};

export const ACTION_GUARDS: readonly ActionGuard[] = [
  {
    name: 'pauses',
    check: ({ pausedUntil }, now) =>
      pausedUntil !== undefined && pausedUntil > now ? pausedUntil : undefined,
  },
  { name: 'limits', check: (view, _now, nextDay) => (leftOf(view) <= 0 ? nextDay : undefined) },
];

export type Room = {
  /** Types no action of which may go now. */
  blocked: string[];
  /** How many of each other type may still go today. */
  room: Map<string, number>;
  /** When the first blocked type reopens (ms), or null. */
  reopenAt: number | null;
};

/** Asks the action guards about every type of the channel. */
export function actionRoom(
  types: readonly string[],
  viewOf: (type: string) => TypeView,
  now: number,
  nextDay: number,
): Room {
  const result: Room = { blocked: [], room: new Map(), reopenAt: null };
  for (const type of types) {
    const view = viewOf(type);
    let reopen: number | undefined;
    for (const guard of ACTION_GUARDS) {
      reopen = guard.check(view, now, nextDay);
      if (reopen !== undefined) break;
    }
    if (reopen === undefined) {
      result.room.set(type, leftOf(view));
      continue;
    }
    result.blocked.push(type);
    if (result.reopenAt === null || reopen < result.reopenAt) result.reopenAt = reopen;
  }
  return result;
}

/**
 * The human gap before the sender's next action on the channel: half to one and a half times its
 * interval, from a hash - reproducible, never a fixed beat. 0 without an interval (a burst).
 */
export function humanGapMs(
  sender: Pick<SenderRow, 'uuid' | 'action_interval_seconds'>,
  channel: Channel,
  actionsDone: number,
  defaultIntervalSeconds: number,
): number {
  const base = sender.action_interval_seconds ?? defaultIntervalSeconds;
  if (base <= 0) return 0;
  const factor = 0.5 + uniform('gap', sender.uuid, channel, actionsDone);
  return Math.round(base * 1000 * factor);
}
