// The dispatcher: per sender and channel, one action at a time, when the sender's next human slot has
// come, inside the task's schedule window and within the sender's limits; higher flow priority first,
// then the flow this sender served longest ago (so one flow's backlog never starves another's).
//
// It asks its guards in order: the sender's (dispatch-guards.ts: exists, enabled, hold, slot), the
// channel's (a seat or mailbox to act through), the action types' (pauses, limits), then the tasks'
// (schedule window, contact, text; the enrollment still running is checked as the intent commits).
//
// Never twice (send-once.ts): the intent (taken_to_execute_at, intents.ts) commits before the channel is
// called, the outcome (outcomes.ts) commits after. A crash in between leaves a taken task without outcome, which
// only the reconciler touches, and it asks the channel what happened instead of acting again.
import type { Logger } from 'pino';
import type { Database } from '../../../db/database.js';
import { isOpenAt, nextOpenInstant } from '../../../lib/schedule.js';
import { CHANNEL_SPECS } from '../../channels/channel-specs.js';
import {
  type ActionRequest,
  type ChannelDriver,
  type DriverRegistry,
  type SentActionsHook,
  TEXT_ACTIONS,
} from '../../channels/driver.js';
import { parkSenderActions } from '../../enrollments/sender-pauses.js';
import { buildRequests } from './action-requests.js';
import { humanGapMs, type SenderLimits, senderHold } from './dispatch-guards.js';
import { takeIntents } from './intents.js';
import { failUnsendable, type OutcomeEffect, recordOutcomes, wakeEnrollment } from './outcomes.js';
import { type Candidate, candidates, nextReadyAt, order } from './ready-actions.js';
import { type CrashPoint, type Sent, sendOnce } from './send-once.js';
import { release, type StateRow } from './sender-state.js';
import { senderRoom } from './sender-usage.js';
import type { SenderRow } from './work.js';

export type DispatchDeps = {
  db: Database;
  log: Logger;
  drivers: DriverRegistry;
  /** What the channels record of done actions, in the outcomes' transaction. */
  onSent: SentActionsHook[];
  limits: SenderLimits;
  config: {
    actionIntervalSeconds: number;
    limitPauseMs: number;
    maxAttempts: number;
    reconcileAfterMs: number;
  };
  /** Simulation only: throws at the named point to emulate a process killed there. */
  crashPoint?: (point: CrashPoint) => void;
};

/** Actions one claim may take back to back when the sender's gap is zero (benchmarks, tests). */
const BURST = 200;

/** One claimed sender being dispatched. */
type Turn = {
  deps: DispatchDeps;
  state: StateRow;
  sender: SenderRow;
  now: Date;
  /** The channel requests of the tasks still going (built by the contact guard). */
  requests: Map<string, ActionRequest>;
};

/** A task guard: keeps the tasks that may go now and settles the others (replanned, parked, failed). */
type TaskGuard = { name: string; keep(turn: Turn, tasks: Candidate[]): Promise<Candidate[]> };

const TASK_GUARDS: readonly TaskGuard[] = [
  {
    // A window may have closed since a task was planned (a backlog running late): replan those in the
    // schedule and zone they were planned in.
    name: 'schedule',
    async keep({ deps, sender, now }, tasks) {
      const open: Candidate[] = [];
      for (const task of tasks) {
        const schedule = task.use_sender_schedule ? sender.schedule : task.flow_schedule;
        const zone = task.timezone ?? schedule.timezone;
        if (isOpenAt(schedule, now, zone)) {
          open.push(task);
          continue;
        }
        await deps.db
          .updateTable('tasks')
          .set({ schedule_at: nextOpenInstant(schedule, now, zone), updated_at: now })
          .where('team_id', '=', task.team_id)
          .where('uuid', '=', task.uuid)
          .where('taken_to_execute_at', 'is', null)
          .execute();
      }
      return open;
    },
  },
  {
    // The contact is gone: the engine ends the enrollment when it looks at it.
    name: 'contact',
    async keep(turn, tasks) {
      const { db } = turn.deps;
      turn.requests = await buildRequests(db, tasks, turn.now);
      for (const task of tasks.filter((t) => !turn.requests.has(t.uuid))) {
        await wakeEnrollment(db, task, turn.now);
        await db
          .updateTable('tasks')
          .set({ schedule_at: null })
          .where('team_id', '=', task.team_id)
          .where('uuid', '=', task.uuid)
          .execute();
      }
      return tasks.filter((t) => turn.requests.has(t.uuid));
    },
  },
  {
    // Checked again at the channel's door: a driver never gets an empty text to send.
    name: 'text',
    async keep(turn, tasks) {
      const unsendable = tasks.filter((t) => {
        const request = turn.requests.get(t.uuid);
        return request !== undefined && TEXT_ACTIONS.has(request.type) && !request.text?.trim();
      });
      if (unsendable.length === 0) return tasks;
      await failUnsendable(
        turn.deps.db,
        turn.state.team_id,
        unsendable.map((t) => ({ uuid: t.uuid, reason: 'The task has no text to send; nothing was sent.' })),
        turn.now,
      );
      for (const task of unsendable) turn.requests.delete(task.uuid);
      return tasks.filter((t) => turn.requests.has(t.uuid));
    },
  },
];

/** The channel's guard: the sender's seat (or mailbox) to act through, or when to look again. */
async function channelDriver(
  deps: DispatchDeps,
  state: StateRow,
): Promise<ChannelDriver | { until: Date | null }> {
  const driver = await deps.drivers.resolve(state.team_id, state.sender_profile_uuid, state.channel);
  if ('busyUntil' in driver) return { until: driver.busyUntil };
  if ('unavailable' in driver) {
    await parkSenderActions(
      deps.db,
      state.team_id,
      state.sender_profile_uuid,
      state.channel,
      driver.unavailable as never,
    );
    return { until: null };
  }
  return driver;
}

/** Runs the claimed sender: at most one action (or a burst when its gap is zero), then releases it. */
export async function dispatchSender(deps: DispatchDeps, state: StateRow, now: Date): Promise<number> {
  const { db } = deps;
  const sender = await db
    .selectFrom('sender_profiles')
    .selectAll()
    .where('team_id', '=', state.team_id)
    .where('uuid', '=', state.sender_profile_uuid)
    .executeTakeFirst();
  const hold = senderHold({ sender, nextSlotAt: state.next_slot_at?.getTime() ?? null }, now.getTime());
  if (hold || !sender) {
    if (hold?.park)
      await parkSenderActions(db, state.team_id, state.sender_profile_uuid, state.channel, hold.park);
    const until = hold?.until ?? null;
    await release(db, state, { nextDispatchAt: until === null ? null : new Date(until) });
    return 0;
  }
  const driver = await channelDriver(deps, state);
  if (!('perform' in driver)) {
    await release(db, state, { nextDispatchAt: driver.until });
    return 0;
  }

  const turn: Turn = { deps, state, sender, now, requests: new Map() };
  const gap = () => humanGapMs(sender, state.channel, state.actions_done, deps.config.actionIntervalSeconds);
  let acted = 0;
  while (acted < BURST) {
    const { blocked, room, reopenAt } = await senderRoom(
      db,
      deps.limits,
      sender,
      CHANNEL_SPECS[state.channel].actions,
      state.paused_until,
      now,
    );
    // With a human gap one action per turn; without one (benchmarks, tests) a burst.
    const want = gap() > 0 ? 1 : BURST - acted;
    const list = await candidates(db, state, now, blocked, want);
    let tasks = order(list, state.flow_turns, want, room);
    if (tasks.length === 0) {
      const ready = await nextReadyAt(db, state, blocked);
      const next = [ready, reopenAt === null ? null : new Date(reopenAt)]
        .filter((d): d is Date => d !== null)
        .sort((a, b) => a.getTime() - b.getTime())[0];
      await release(db, state, { nextDispatchAt: next ?? null });
      return acted;
    }
    for (const guard of TASK_GUARDS) {
      tasks = await guard.keep(turn, tasks);
      if (tasks.length === 0) break;
    }
    if (tasks.length === 0) continue;
    const sent = await sendOnce(
      driver,
      tasks.map((task) => ({ id: task.uuid, item: task, request: turn.requests.get(task.uuid)! })),
      {
        take: (taken) => takeIntents(db, state, taken, now),
        record: (results) =>
          recordOutcomes(
            db,
            results.map(({ item, request, outcome }) => ({ task: item, request, outcome })),
            now,
            deps.config.maxAttempts,
            deps.onSent,
          ),
        crashPoint: deps.crashPoint,
      },
      deps.log,
    );
    if (!sent) {
      // Either we lost the sender to another dispatcher, or every task moved: look again (bounded).
      acted += 1;
      continue;
    }
    acted += sent.taken.length;
    if (await afterSent(turn, sent, gap)) return acted;
  }
  await release(db, state, { nextDispatchAt: now, pausedUntil: state.paused_until });
  return acted;
}

/**
 * The sender after a burst: its flows' turns, the pauses the outcomes asked for, its next slot. Returns
 * whether the sender was released (no more actions this turn).
 */
async function afterSent(
  turn: Turn,
  sent: Sent<Candidate, OutcomeEffect>,
  gap: () => number,
): Promise<boolean> {
  const { deps, state, now } = turn;
  const { db } = deps;
  const effect = sent.recorded;
  for (const task of sent.taken)
    state.flow_turns = { ...state.flow_turns, [task.flow_uuid ?? '']: now.toISOString() };
  state.actions_done += sent.taken.length;
  const paused = { ...state.paused_until };
  for (const [type, ms] of effect.pauseActions) {
    paused[type] = new Date(now.getTime() + (ms ?? deps.config.limitPauseMs)).toISOString();
  }
  if (effect.pauseChannel) {
    paused['*'] = new Date(now.getTime() + 365 * 86_400_000).toISOString();
    await parkSenderActions(db, state.team_id, state.sender_profile_uuid, state.channel, 'seat_login_issue');
  }
  state.paused_until = paused;
  if (sent.unsettled || effect.awaitingCheck) {
    // Some intent has no outcome: the reconciler takes it once nobody can still be acting on it.
    await release(db, state, {
      nextDispatchAt: new Date(now.getTime() + deps.config.reconcileAfterMs),
      pausedUntil: paused,
    });
    return true;
  }
  const wait = gap();
  if (wait > 0 || effect.pauseChannel) {
    const nextSlot = new Date(now.getTime() + wait);
    await release(db, state, {
      nextDispatchAt: effect.pauseChannel ? null : nextSlot,
      nextSlotAt: nextSlot,
      pausedUntil: paused,
    });
    return true;
  }
  return false;
}
