// The dispatcher: per sender and channel, one action at a time, when the sender's next human slot has
// come, inside the task's schedule window and within the sender's limits; higher flow priority first,
// then the flow this sender served longest ago (so one flow's backlog never starves another's).
//
// Never twice: the intent (taken_to_execute_at) commits before the channel is called, the outcome
// commits after. A crash in between leaves a taken task without outcome, which only the reconciler
// touches, and it asks the channel what happened instead of acting again.
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../../db/database.js';
import { isOpenAt, nextOpenInstant, type Schedule } from '../../../lib/schedule.js';
import {
  type ActionOutcome,
  type ActionRequest,
  type ActionType,
  type Channel,
  type ChannelDriver,
  type DriverRegistry,
  LINKEDIN_ACTIONS,
} from '../drivers/driver.js';
import type { SenderChannelStateTable } from '../engine.tables.js';
import { uniform } from '../rng.js';
import { parkSenderActions } from '../sender-pauses.js';
import { recordOutcome, wakeEnrollment } from './outcomes.js';
import type { SenderRow, TaskRow } from './work.js';

export type SenderLimits = (
  sender: SenderRow,
  action: ActionType,
  localDate: string,
) => { daily: number; weekly: number | null };

export type CrashPoint = 'after_claim' | 'after_intent' | 'after_perform' | 'after_record';

export type DispatchDeps = {
  db: Database;
  log: Logger;
  drivers: DriverRegistry;
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

type StateRow = {
  team_id: number;
  sender_profile_uuid: string;
  channel: Channel;
  next_slot_at: Date | null;
  paused_until: Record<string, string>;
  flow_turns: Record<string, string>;
  actions_done: number;
  claim_token: number;
};

const CHANNEL_ACTIONS: Record<Channel, readonly ActionType[]> = {
  linkedin: LINKEDIN_ACTIONS,
  email: ['email_send_message'],
};

/** Actions one claim may take back to back when the sender's gap is zero (benchmarks, tests). */
const BURST = 50;

export async function claimSenders(
  db: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<StateRow[]> {
  const result = await sql<StateRow>`
    with due as (
      select team_id, sender_profile_uuid, channel from sender_channel_state
      where next_dispatch_at is not null and next_dispatch_at <= ${now}
        and (leased_until is null or leased_until <= ${now})
      order by next_dispatch_at
      limit ${limit}
      for update skip locked
    )
    update sender_channel_state s set leased_until = ${new Date(now.getTime() + leaseMs)},
      claim_token = s.claim_token + 1
    from due
    where s.team_id = due.team_id and s.sender_profile_uuid = due.sender_profile_uuid and s.channel = due.channel
    returning s.team_id, s.sender_profile_uuid, s.channel, s.next_slot_at, s.paused_until, s.flow_turns,
      s.actions_done, s.claim_token
  `.execute(db);
  return result.rows;
}

async function release(
  db: Executor,
  state: StateRow,
  set: {
    nextDispatchAt: Date | null;
    nextSlotAt?: Date;
    flowTurn?: string;
    now?: Date;
    pausedUntil?: Record<string, string>;
    acted?: boolean;
  },
): Promise<boolean> {
  const turns =
    set.flowTurn && set.now
      ? { ...state.flow_turns, [set.flowTurn]: set.now.toISOString() }
      : state.flow_turns;
  const result = await db
    .updateTable('sender_channel_state')
    .set({
      next_dispatch_at: set.nextDispatchAt,
      leased_until: null,
      next_slot_at: set.nextSlotAt ?? state.next_slot_at,
      flow_turns: JSON.stringify(turns),
      paused_until: JSON.stringify(set.pausedUntil ?? state.paused_until),
      actions_done: state.actions_done + (set.acted ? 1 : 0),
    } satisfies Partial<Record<keyof SenderChannelStateTable, unknown>> as never)
    .where('team_id', '=', state.team_id)
    .where('sender_profile_uuid', '=', state.sender_profile_uuid)
    .where('channel', '=', state.channel)
    .where('claim_token', '=', state.claim_token)
    .executeTakeFirst();
  if (set.nextSlotAt) state.next_slot_at = set.nextSlotAt;
  if (set.acted) state.actions_done += 1;
  state.flow_turns = turns;
  return Number(result.numUpdatedRows) === 1;
}

/** Start of the sender's local day and of the rolling week, and the local date. */
function usageWindow(sender: SenderRow, now: Date) {
  const zone = sender.schedule.timezone;
  const day = DateTime.fromJSDate(now, { zone }).startOf('day');
  return {
    date: day.toISODate() as string,
    dayStart: day.toJSDate(),
    nextDay: day.plus({ days: 1 }).toJSDate(),
    // The week is the last 7 local days, today included (as the senders' timeline counts it).
    weekStart: day.minus({ days: 6 }).toJSDate(),
  };
}

async function usage(db: Executor, state: StateRow, from: Date, dayStart: Date) {
  const rows = await sql<{ type: string; today: number; week: number }>`
    select type,
      count(*) filter (where taken_to_execute_at >= ${dayStart})::int as today,
      count(*)::int as week
    from tasks
    where team_id = ${state.team_id} and sender_profile_uuid = ${state.sender_profile_uuid}
      and taken_to_execute_at is not null and taken_to_execute_at >= ${from}
      and status in ('in_progress', 'closed')
    group by type
  `.execute(db);
  return new Map(rows.rows.map((r) => [r.type, r]));
}

type Candidate = TaskRow & { flow_priority: number; flow_schedule: Schedule; use_sender_schedule: boolean };

async function candidates(db: Executor, state: StateRow, now: Date, blocked: string[]): Promise<Candidate[]> {
  const channelFilter =
    state.channel === 'email' ? sql`t.type = 'email_send_message'` : sql`t.type like 'linkedin_%'`;
  const result = await sql<Candidate>`
    select t.*, f.priority as flow_priority, f.schedule as flow_schedule, f.use_sender_schedule
    from flows f
    cross join lateral (
      select * from tasks t
      where t.team_id = f.team_id and t.sender_profile_uuid = ${state.sender_profile_uuid}
        and t.flow_uuid = f.uuid and t.status = 'in_progress' and t.automation = 'auto'
        and t.taken_to_execute_at is null and (t.type like 'linkedin_%' or t.type = 'email_send_message')
        and ${channelFilter} and t.type <> all(${blocked}::text[]) and t.schedule_at <= ${now}
      order by t.schedule_at
      limit 1
    ) t
    where f.team_id = ${state.team_id} and f.status = 'on'
  `.execute(db);
  return result.rows;
}

/** The earliest future instant a ready (not blocked) action of this sender becomes due. */
async function nextReadyAt(db: Executor, state: StateRow, blocked: string[]): Promise<Date | null> {
  const channelFilter =
    state.channel === 'email' ? sql`t.type = 'email_send_message'` : sql`t.type like 'linkedin_%'`;
  const result = await sql<{ at: Date | null }>`
    select min(t.schedule_at) as at from tasks t
    where t.team_id = ${state.team_id} and t.sender_profile_uuid = ${state.sender_profile_uuid}
      and t.status = 'in_progress' and t.automation = 'auto' and t.taken_to_execute_at is null
      and (t.type like 'linkedin_%' or t.type = 'email_send_message') and ${channelFilter}
      and t.type <> all(${blocked}::text[]) and t.schedule_at is not null
  `.execute(db);
  return result.rows[0]?.at ?? null;
}

function pick(list: Candidate[], turns: Record<string, string>): Candidate | undefined {
  return [...list].sort((a, b) => {
    if (a.flow_priority !== b.flow_priority) return b.flow_priority - a.flow_priority;
    const ta = turns[a.flow_uuid ?? ''] ?? '';
    const tb = turns[b.flow_uuid ?? ''] ?? '';
    if (ta !== tb) return ta < tb ? -1 : 1;
    return (a.schedule_at?.getTime() ?? 0) - (b.schedule_at?.getTime() ?? 0);
  })[0];
}

function gapMs(sender: SenderRow, state: StateRow, deps: DispatchDeps): number {
  const base = sender.action_interval_seconds ?? deps.config.actionIntervalSeconds;
  if (base <= 0) return 0;
  // Half to one and a half times the interval, from a hash: reproducible, never a fixed beat.
  const factor = 0.5 + uniform('gap', state.sender_profile_uuid, state.channel, state.actions_done);
  return Math.round(base * 1000 * factor);
}

/** Schedule and zone the task was planned in (re-checked at execution). */
function taskSchedule(task: Candidate, sender: SenderRow): { schedule: Schedule; zone: string } {
  const schedule = task.use_sender_schedule ? sender.schedule : task.flow_schedule;
  return { schedule, zone: task.timezone ?? schedule.timezone };
}

/**
 * Takes the intent in one commit: `ok`; `gone` when the enrollment is no longer running (the task is
 * parked); `lost` when another dispatcher owns the sender now; `changed` when the task moved meanwhile.
 */
async function takeIntent(
  db: Database,
  state: StateRow,
  task: Candidate,
  now: Date,
): Promise<'ok' | 'gone' | 'lost' | 'changed'> {
  return db.transaction().execute(async (trx) => {
    const live = await trx
      .selectFrom('flow_leads')
      .select(['status', 'flow_active'])
      .where('team_id', '=', state.team_id)
      .where('uuid', '=', task.flow_lead_uuid as string)
      .forUpdate()
      .executeTakeFirst();
    if (live?.status !== 'in_progress' || !live.flow_active) {
      await trx
        .updateTable('tasks')
        .set({ schedule_at: null, updated_at: now })
        .where('team_id', '=', state.team_id)
        .where('uuid', '=', task.uuid)
        .where('taken_to_execute_at', 'is', null)
        .execute();
      // Let the engine look at the enrollment: it ends or resumes it for good.
      await trx
        .updateTable('flow_leads')
        .set({ next_run_at: now })
        .where('team_id', '=', state.team_id)
        .where('uuid', '=', task.flow_lead_uuid as string)
        .where('status', '=', 'in_progress')
        .execute();
      return 'gone';
    }
    const owned = await trx
      .updateTable('sender_channel_state')
      .set({ updated_at: now })
      .where('team_id', '=', state.team_id)
      .where('sender_profile_uuid', '=', state.sender_profile_uuid)
      .where('channel', '=', state.channel)
      .where('claim_token', '=', state.claim_token)
      .executeTakeFirst();
    if (Number(owned.numUpdatedRows) !== 1) return 'lost';
    const taken = await trx
      .updateTable('tasks')
      .set((eb) => ({ taken_to_execute_at: now, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('team_id', '=', state.team_id)
      .where('uuid', '=', task.uuid)
      .where('status', '=', 'in_progress')
      .where('taken_to_execute_at', 'is', null)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? 'ok' : 'changed';
  });
}

export async function buildRequest(
  db: Executor,
  task: TaskRow,
  now: Date,
): Promise<ActionRequest | undefined> {
  const lead = await db
    .selectFrom('leads')
    .select([
      'uuid',
      'first_name',
      'last_name',
      'name',
      'ln_member_id',
      'ln_id',
      'sn_id',
      'linkedin',
      'work_email',
      'personal_email',
    ])
    .where('team_id', '=', task.team_id)
    .where('uuid', '=', task.lead_uuid)
    .executeTakeFirst();
  if (!lead || !task.sender_profile_uuid) return undefined;
  const payload = (task.payload ?? {}) as Record<string, unknown>;
  return {
    teamId: task.team_id,
    taskUuid: task.uuid,
    type: task.type as ActionType,
    senderProfileUuid: task.sender_profile_uuid,
    lead,
    text: typeof payload.rendered_text === 'string' ? payload.rendered_text : null,
    subject: typeof payload.rendered_subject === 'string' ? payload.rendered_subject : null,
    attachments: Array.isArray(payload.attachments) ? (payload.attachments as Array<{ uuid: string }>) : [],
    options: payload,
    at: now,
  };
}

async function perform(
  driver: ChannelDriver,
  request: ActionRequest,
  log: Logger,
): Promise<ActionOutcome | 'unknown'> {
  try {
    return await driver.perform(request);
  } catch (error) {
    // The driver does not know whether it acted: leave the intent for the reconciler.
    log.error({ err: error, task: request.taskUuid }, 'channel driver failed mid-action');
    return 'unknown';
  }
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
  if (!sender) {
    await release(db, state, { nextDispatchAt: null });
    return 0;
  }
  if (sender.status !== 'enabled') {
    await parkSenderActions(db, state.team_id, sender.uuid, state.channel, 'sender_disabled');
    await release(db, state, { nextDispatchAt: null });
    return 0;
  }
  if (sender.hold_tasks_till && sender.hold_tasks_till > now) {
    await release(db, state, { nextDispatchAt: sender.hold_tasks_till });
    return 0;
  }
  if (state.next_slot_at && state.next_slot_at > now) {
    await release(db, state, { nextDispatchAt: state.next_slot_at });
    return 0;
  }
  const driver = await deps.drivers.resolve(state.team_id, sender.uuid, state.channel);
  if ('unavailable' in driver) {
    await parkSenderActions(db, state.team_id, sender.uuid, state.channel, driver.unavailable as never);
    await release(db, state, { nextDispatchAt: null });
    return 0;
  }

  let acted = 0;
  for (let burst = 0; burst < BURST; burst += 1) {
    const window = usageWindow(sender, now);
    const used = await usage(db, state, window.weekStart, window.dayStart);
    const blocked: string[] = [];
    let reopenAt: Date | null = null;
    const sooner = (at: Date) => {
      if (!reopenAt || at < reopenAt) reopenAt = at;
    };
    for (const type of CHANNEL_ACTIONS[state.channel]) {
      const limit = deps.limits(sender, type, window.date);
      const count = used.get(type);
      const paused = state.paused_until[type] ?? state.paused_until['*'];
      if (paused && new Date(paused) > now) {
        blocked.push(type);
        sooner(new Date(paused));
      } else if ((count?.today ?? 0) >= limit.daily) {
        blocked.push(type);
        sooner(window.nextDay);
      } else if (limit.weekly !== null && (count?.week ?? 0) >= limit.weekly) {
        blocked.push(type);
        sooner(window.nextDay);
      }
    }
    const list = await candidates(db, state, now, blocked);
    const task = pick(list, state.flow_turns);
    if (!task) {
      const ready = await nextReadyAt(db, state, blocked);
      const next = [ready, reopenAt]
        .filter((d): d is Date => d !== null)
        .sort((a, b) => a.getTime() - b.getTime())[0];
      await release(db, state, { nextDispatchAt: next ?? (blocked.length > 0 ? reopenAt : null) });
      return acted;
    }
    // The schedule may have closed since the task was planned (a backlog running late): replan it.
    const { schedule, zone } = taskSchedule(task, sender);
    if (!isOpenAt(schedule, now, zone)) {
      const next = nextOpenInstant(schedule, now, zone);
      await db
        .updateTable('tasks')
        .set({ schedule_at: next, updated_at: now })
        .where('team_id', '=', task.team_id)
        .where('uuid', '=', task.uuid)
        .where('taken_to_execute_at', 'is', null)
        .execute();
      continue;
    }
    const request = await buildRequest(db, task, now);
    if (!request) {
      // The contact is gone: the engine ends the enrollment when it looks at it.
      await wakeEnrollment(db, task, now);
      await db
        .updateTable('tasks')
        .set({ schedule_at: null })
        .where('team_id', '=', task.team_id)
        .where('uuid', '=', task.uuid)
        .execute();
      continue;
    }
    const intent = await takeIntent(db, state, task, now);
    if (intent === 'lost') return acted;
    if (intent !== 'ok') continue;
    deps.crashPoint?.('after_intent');
    const outcome = await perform(driver, request, deps.log);
    deps.crashPoint?.('after_perform');
    if (outcome === 'unknown') {
      await release(db, state, { nextDispatchAt: new Date(now.getTime() + deps.config.reconcileAfterMs) });
      return acted;
    }
    const effect = await recordOutcome(db, {
      task,
      request,
      outcome,
      now,
      driver: driver.name,
      maxAttempts: deps.config.maxAttempts,
    });
    deps.crashPoint?.('after_record');
    acted += 1;
    const paused = { ...state.paused_until };
    if (effect.pauseAction)
      paused[effect.pauseAction] = new Date(
        now.getTime() + (effect.pauseMs ?? deps.config.limitPauseMs),
      ).toISOString();
    if (effect.pauseChannel) {
      paused['*'] = new Date(now.getTime() + 365 * 86_400_000).toISOString();
      await parkSenderActions(db, state.team_id, sender.uuid, state.channel, 'seat_login_issue');
    }
    state.paused_until = paused;
    const gap = gapMs(sender, state, deps);
    const nextSlot = new Date(now.getTime() + gap);
    if (gap > 0 || effect.pauseChannel) {
      await release(db, state, {
        nextDispatchAt: effect.pauseChannel ? null : nextSlot,
        nextSlotAt: nextSlot,
        flowTurn: task.flow_uuid ?? undefined,
        now,
        pausedUntil: paused,
        acted: true,
      });
      return acted;
    }
    state.flow_turns = { ...state.flow_turns, [task.flow_uuid ?? '']: now.toISOString() };
    state.actions_done += 1;
  }
  await release(db, state, { nextDispatchAt: now, flowTurn: undefined, pausedUntil: state.paused_until });
  return acted;
}
