// The dispatcher: per sender and channel, one action at a time, when the sender's next human slot has
// come, inside the task's schedule window and within the sender's limits; higher flow priority first,
// then the flow this sender served longest ago (so one flow's backlog never starves another's).
//
// Never twice: the intent (taken_to_execute_at) commits before the channel is called, the outcome
// commits after. A crash in between leaves a taken task without outcome, which only the reconciler
// touches, and it asks the channel what happened instead of acting again.
import { type SqlBool, sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../../db/database.js';
import { claimAcrossTeams } from '../../../db/team-claims.js';
import { uniform } from '../../../lib/rng.js';
import { isOpenAt, nextOpenInstant, type Schedule } from '../../../lib/schedule.js';
import { ACTION_TASK_TYPES, CHANNEL_SPECS } from '../../channels/channel-specs.js';
import {
  type ActionLead,
  type ActionOutcome,
  type ActionRequest,
  type ActionType,
  type Channel,
  type ChannelDriver,
  type DriverRegistry,
  type SentActionsHook,
  TEXT_ACTIONS,
} from '../../channels/driver.js';
import { parkSenderActions } from '../../enrollments/sender-pauses.js';
import { failUnsendable, recordOutcomes, wakeEnrollment } from './outcomes.js';
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

/** Actions one claim may take back to back when the sender's gap is zero (benchmarks, tests). */
const BURST = 200;

export async function claimSenders(
  db: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<StateRow[]> {
  const due = (alias: 't' | 'd') => {
    const c = (column: string) => sql.ref(`${alias}.${column}`);
    return sql<SqlBool>`${c('next_dispatch_at')} is not null and ${c('next_dispatch_at')} <= ${now}
      and (${c('leased_until')} is null or ${c('leased_until')} <= ${now})`;
  };
  return claimAcrossTeams({
    db,
    mark: 'engine-dispatch-claim',
    table: 'sender_channel_state',
    due: due('t'),
    order: sql`t.next_dispatch_at`,
    limit,
    async claim(teamId, teamLimit) {
      const result = await sql<StateRow>`
        with due as (
          select d.team_id, d.sender_profile_uuid, d.channel from sender_channel_state d
          where d.team_id = ${teamId} and ${due('d')}
          order by d.next_dispatch_at
          limit ${teamLimit}
          for update skip locked
        )
        update sender_channel_state s set leased_until = ${new Date(now.getTime() + leaseMs)},
          claim_token = s.claim_token + 1, pending_dispatch_at = null
        from due
        where s.team_id = ${teamId} and s.sender_profile_uuid = due.sender_profile_uuid and s.channel = due.channel
        returning s.team_id, s.sender_profile_uuid, s.channel, s.next_slot_at, s.paused_until, s.flow_turns,
          s.actions_done, s.claim_token
      `.execute(db);
      return result.rows;
    },
  });
}

/**
 * Writes the sender's state back (as the dispatcher changed it in memory) and lets other dispatchers
 * have it from `nextDispatchAt` on. Nothing is written when another dispatcher owns it by now.
 */
async function release(
  db: Executor,
  state: StateRow,
  set: { nextDispatchAt: Date | null; nextSlotAt?: Date; pausedUntil?: Record<string, string> },
): Promise<boolean> {
  if (set.nextSlotAt) state.next_slot_at = set.nextSlotAt;
  if (set.pausedUntil) state.paused_until = set.pausedUntil;
  const next = set.nextDispatchAt ?? 'infinity';
  const result = await sql`
    update sender_channel_state set
      -- Actions made ready while we held the sender are not lost.
      next_dispatch_at = nullif(least(${next}::timestamptz, coalesce(pending_dispatch_at, 'infinity')), 'infinity'),
      pending_dispatch_at = null, leased_until = null, next_slot_at = ${state.next_slot_at},
      flow_turns = ${JSON.stringify(state.flow_turns)}::jsonb, paused_until = ${JSON.stringify(state.paused_until)}::jsonb,
      actions_done = ${state.actions_done}, updated_at = now()
    where team_id = ${state.team_id} and sender_profile_uuid = ${state.sender_profile_uuid}
      and channel = ${state.channel} and claim_token = ${state.claim_token}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/** Start of the sender's local day and of the rolling week, and the local date. */
export function usageWindow(sender: Pick<SenderRow, 'schedule'>, now: Date) {
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

/**
 * The actions of `senders` handed to their channel in [from, to): the flows' tasks and the LinkedIn
 * messages queued by hand (POST /flows/api/linkedin-messages), which share the limits. Rows of
 * (sender_profile_uuid, type, at), read on the (team, sender, taken) indexes; team analytics count the same.
 */
export function senderActions(teamId: number, senders: string[], from: Date, to?: Date) {
  const before = (column: string) => (to ? sql`and ${sql.ref(column)} < ${to}` : sql``);
  return sql<{ sender_profile_uuid: string; type: string; at: Date; flow_uuid: string | null }>`(
    select sender_profile_uuid, type, taken_to_execute_at as at, flow_uuid from tasks
    where team_id = ${teamId} and sender_profile_uuid = any(${senders}::uuid[])
      and taken_to_execute_at is not null and taken_to_execute_at >= ${from} ${before('taken_to_execute_at')}
      and status in ('in_progress', 'closed')
    union all
    select sender_profile_uuid, case linkedin_type when 'InMail' then 'linkedin_send_inmail'
        when 'connection_note' then 'linkedin_send_connection_request' else 'linkedin_send_message' end,
      taken_at, null::uuid from linkedin_messages
    where team_id = ${teamId} and sender_profile_uuid = any(${senders}::uuid[]) and automation = 'manual'
      and taken_at is not null and taken_at >= ${from} ${before('taken_at')} and status in ('in_progress', 'done')
  )`;
}

/** Actions of a sender taken since `from` (today: since `dayStart`), by action type (see senderActions). */
export async function senderUsage(
  db: Executor,
  teamId: number,
  senderUuid: string,
  from: Date,
  dayStart: Date,
) {
  const rows = await sql<{ type: string; today: number; week: number }>`
    select type, count(*) filter (where at >= ${dayStart})::int as today, count(*)::int as week
    from ${senderActions(teamId, [senderUuid], from)} u
    group by type
  `.execute(db);
  return new Map(rows.rows.map((r) => [r.type, r]));
}

async function usage(db: Executor, state: StateRow, from: Date, dayStart: Date) {
  return senderUsage(db, state.team_id, state.sender_profile_uuid, from, dayStart);
}

type Candidate = TaskRow & { flow_priority: number; flow_schedule: Schedule; use_sender_schedule: boolean };

/** Up to `perFlow` ready actions of each running flow of this sender (not of `blocked` types), oldest first. */
async function candidates(
  db: Executor,
  state: StateRow,
  now: Date,
  blocked: string[],
  perFlow: number,
): Promise<Candidate[]> {
  const channelFilter = CHANNEL_SPECS[state.channel].taskTypes;
  const result = await sql<Candidate>`
    select t.*, f.priority as flow_priority, f.schedule as flow_schedule, f.use_sender_schedule
    from flows f
    cross join lateral (
      select * from tasks t
      where t.team_id = ${state.team_id} and t.sender_profile_uuid = ${state.sender_profile_uuid}
        and t.flow_uuid = f.uuid and t.status = 'in_progress' and t.automation = 'auto'
        and t.taken_to_execute_at is null and ${ACTION_TASK_TYPES}
        and ${channelFilter} and t.type <> all(${blocked}::text[]) and t.schedule_at <= ${now}
      order by t.schedule_at
      limit ${perFlow}
    ) t
    where f.team_id = ${state.team_id} and f.status = 'on'
  `.execute(db);
  return result.rows;
}

/** The earliest future instant a ready (not blocked) action of this sender becomes due. */
async function nextReadyAt(db: Executor, state: StateRow, blocked: string[]): Promise<Date | null> {
  const channelFilter = CHANNEL_SPECS[state.channel].taskTypes;
  const result = await sql<{ at: Date | null }>`
    select min(t.schedule_at) as at from tasks t
    where t.team_id = ${state.team_id} and t.sender_profile_uuid = ${state.sender_profile_uuid}
      and t.status = 'in_progress' and t.automation = 'auto' and t.taken_to_execute_at is null
      and ${ACTION_TASK_TYPES} and ${channelFilter}
      and t.type <> all(${blocked}::text[]) and t.schedule_at is not null
  `.execute(db);
  return result.rows[0]?.at ?? null;
}

/**
 * The order actions go out in: higher flow priority first; within one priority the flows take turns,
 * starting with the one this sender served longest ago; within a flow, oldest first. At most `limit`,
 * and no more of a type than `room` leaves.
 */
export function order(
  list: Candidate[],
  turns: Record<string, string>,
  limit: number,
  room: Map<string, number>,
): Candidate[] {
  const byFlow = new Map<string, Candidate[]>();
  const priorityOf = new Map<string, number>();
  for (const task of [...list].sort(
    (a, b) => (a.schedule_at?.getTime() ?? 0) - (b.schedule_at?.getTime() ?? 0),
  )) {
    const key = task.flow_uuid ?? '';
    byFlow.set(key, [...(byFlow.get(key) ?? []), task]);
    priorityOf.set(key, task.flow_priority);
  }
  const flows = [...byFlow.keys()].sort((a, b) => {
    const pa = priorityOf.get(a) ?? 0;
    const pb = priorityOf.get(b) ?? 0;
    if (pa !== pb) return pb - pa;
    const ta = turns[a] ?? '';
    const tb = turns[b] ?? '';
    return ta === tb ? a.localeCompare(b) : ta < tb ? -1 : 1;
  });
  const left = new Map(room);
  const picked: Candidate[] = [];
  // Highest priority group first; inside it, one task per flow per round.
  const priorities = [...new Set(flows.map((f) => priorityOf.get(f)))];
  for (const priority of priorities) {
    const group = flows.filter((f) => priorityOf.get(f) === priority);
    let progress = true;
    while (progress && picked.length < limit) {
      progress = false;
      for (const flow of group) {
        if (picked.length >= limit) break;
        const queue = byFlow.get(flow)!;
        const index = queue.findIndex((t) => (left.get(t.type) ?? 0) > 0);
        if (index < 0) continue;
        const [task] = queue.splice(index, 1);
        left.set(task!.type, (left.get(task!.type) ?? 0) - 1);
        picked.push(task!);
        progress = true;
      }
    }
  }
  return picked;
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
 * Takes the intents of `tasks` in one commit and returns the uuids taken. A task whose enrollment is no
 * longer running is parked (and the enrollment woken, so the engine ends or resumes it for good); a
 * task that moved meanwhile is left alone. Nothing is taken when another dispatcher owns the sender now.
 */
async function takeIntents(
  db: Database,
  state: StateRow,
  tasks: Candidate[],
  now: Date,
): Promise<Set<string>> {
  return db.transaction().execute(async (trx) => {
    const owned = await trx
      .updateTable('sender_channel_state')
      .set({ updated_at: now })
      .where('team_id', '=', state.team_id)
      .where('sender_profile_uuid', '=', state.sender_profile_uuid)
      .where('channel', '=', state.channel)
      .where('claim_token', '=', state.claim_token)
      .executeTakeFirst();
    if (Number(owned.numUpdatedRows) !== 1) return new Set<string>();
    const enrollments = tasks.map((t) => t.flow_lead_uuid as string);
    // Locks the enrollments: a reply or a cancel either commits before this (and we skip) or after.
    const live = await trx
      .selectFrom('flow_leads')
      .select(['uuid', 'status', 'flow_active'])
      .where('team_id', '=', state.team_id)
      .where('uuid', 'in', enrollments)
      .forUpdate()
      .execute();
    const running = new Set(
      live.filter((l) => l.status === 'in_progress' && l.flow_active).map((l) => l.uuid),
    );
    const gone = tasks.filter((t) => !running.has(t.flow_lead_uuid as string));
    if (gone.length > 0) {
      await trx
        .updateTable('tasks')
        .set({ schedule_at: null, updated_at: now })
        .where('team_id', '=', state.team_id)
        .where(
          'uuid',
          'in',
          gone.map((t) => t.uuid),
        )
        .where('taken_to_execute_at', 'is', null)
        .execute();
      await trx
        .updateTable('flow_leads')
        .set((eb) => ({ next_run_at: now, claim_token: eb('claim_token', '+', 1), lease_until: null }))
        .where('team_id', '=', state.team_id)
        .where(
          'uuid',
          'in',
          gone.map((t) => t.flow_lead_uuid as string),
        )
        .where('status', '=', 'in_progress')
        .execute();
    }
    const ready = tasks.filter((t) => running.has(t.flow_lead_uuid as string)).map((t) => t.uuid);
    if (ready.length === 0) return new Set<string>();
    const taken = await trx
      .updateTable('tasks')
      .set((eb) => ({ taken_to_execute_at: now, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('team_id', '=', state.team_id)
      .where('uuid', 'in', ready)
      .where('status', '=', 'in_progress')
      .where('taken_to_execute_at', 'is', null)
      .returning('uuid')
      .execute();
    return new Set(taken.map((t) => t.uuid));
  });
}

export const LEAD_FIELDS = [
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
] as const;

function requestOf(task: TaskRow, lead: ActionLead, now: Date): ActionRequest {
  const payload = (task.payload ?? {}) as Record<string, unknown>;
  return {
    teamId: task.team_id,
    taskUuid: task.uuid,
    type: task.type as ActionType,
    senderProfileUuid: task.sender_profile_uuid as string,
    lead,
    text: typeof payload.rendered_text === 'string' ? payload.rendered_text : null,
    subject: typeof payload.rendered_subject === 'string' ? payload.rendered_subject : null,
    attachments: Array.isArray(payload.attachments) ? (payload.attachments as Array<{ uuid: string }>) : [],
    options: payload,
    at: now,
  };
}

/** The channel requests of `tasks` (one query for their contacts); a task whose contact is gone has none. */
export async function buildRequests(
  db: Executor,
  tasks: TaskRow[],
  now: Date,
): Promise<Map<string, ActionRequest>> {
  const requests = new Map<string, ActionRequest>();
  if (tasks.length === 0) return requests;
  const leads = await db
    .selectFrom('leads')
    .select(LEAD_FIELDS)
    .where('team_id', '=', tasks[0]!.team_id)
    .where('uuid', 'in', [...new Set(tasks.map((t) => t.lead_uuid))])
    .execute();
  const leadOf = new Map(leads.map((l) => [l.uuid, l]));
  for (const task of tasks) {
    const lead = leadOf.get(task.lead_uuid);
    if (lead && task.sender_profile_uuid) requests.set(task.uuid, requestOf(task, lead, now));
  }
  return requests;
}

export async function buildRequest(
  db: Executor,
  task: TaskRow,
  now: Date,
): Promise<ActionRequest | undefined> {
  return (await buildRequests(db, [task], now)).get(task.uuid);
}

/** The driver's outcomes, in order; `unknown` where it does not know whether it acted. */
async function performAll(
  driver: ChannelDriver,
  requests: ActionRequest[],
  log: Logger,
): Promise<Array<ActionOutcome | 'unknown'>> {
  if (driver.performMany && requests.length > 1) {
    try {
      return await driver.performMany(requests);
    } catch (error) {
      log.error({ err: error, tasks: requests.map((r) => r.taskUuid) }, 'channel driver failed mid-batch');
      return requests.map(() => 'unknown');
    }
  }
  const outcomes: Array<ActionOutcome | 'unknown'> = [];
  for (const request of requests) {
    try {
      outcomes.push(await driver.perform(request));
    } catch (error) {
      // The driver does not know whether it acted: leave the intent for the reconciler, stop the burst.
      log.error({ err: error, task: request.taskUuid }, 'channel driver failed mid-action');
      outcomes.push('unknown');
      break;
    }
  }
  return outcomes;
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
  if ('busyUntil' in driver) {
    await release(db, state, { nextDispatchAt: driver.busyUntil });
    return 0;
  }
  if ('unavailable' in driver) {
    await parkSenderActions(db, state.team_id, sender.uuid, state.channel, driver.unavailable as never);
    await release(db, state, { nextDispatchAt: null });
    return 0;
  }

  const gap = () => gapMs(sender, state, deps);
  let acted = 0;
  while (acted < BURST) {
    const window = usageWindow(sender, now);
    const used = await usage(db, state, window.weekStart, window.dayStart);
    const blocked: string[] = [];
    const room = new Map<string, number>();
    let reopenAt: Date | null = null;
    const sooner = (at: Date) => {
      if (!reopenAt || at < reopenAt) reopenAt = at;
    };
    for (const type of CHANNEL_SPECS[state.channel].actions) {
      const limit = deps.limits(sender, type, window.date);
      const count = used.get(type);
      const paused = state.paused_until[type] ?? state.paused_until['*'];
      const left = Math.min(
        limit.daily - (count?.today ?? 0),
        limit.weekly === null ? Number.POSITIVE_INFINITY : limit.weekly - (count?.week ?? 0),
      );
      if (paused && new Date(paused) > now) {
        blocked.push(type);
        sooner(new Date(paused));
      } else if (left <= 0) {
        blocked.push(type);
        sooner(window.nextDay);
      } else {
        room.set(type, left);
      }
    }
    // With a human gap one action per turn; without one (benchmarks, tests) a burst.
    const want = gap() > 0 ? 1 : BURST - acted;
    const list = await candidates(db, state, now, blocked, want);
    const picked = order(list, state.flow_turns, want, room);
    if (picked.length === 0) {
      const ready = await nextReadyAt(db, state, blocked);
      const next = [ready, reopenAt]
        .filter((d): d is Date => d !== null)
        .sort((a, b) => a.getTime() - b.getTime())[0];
      await release(db, state, { nextDispatchAt: next ?? null });
      return acted;
    }
    // A window may have closed since a task was planned (a backlog running late): replan those.
    const open: Candidate[] = [];
    for (const task of picked) {
      const { schedule, zone } = taskSchedule(task, sender);
      if (isOpenAt(schedule, now, zone)) {
        open.push(task);
        continue;
      }
      await db
        .updateTable('tasks')
        .set({ schedule_at: nextOpenInstant(schedule, now, zone), updated_at: now })
        .where('team_id', '=', task.team_id)
        .where('uuid', '=', task.uuid)
        .where('taken_to_execute_at', 'is', null)
        .execute();
    }
    if (open.length === 0) continue;
    const requests = await buildRequests(db, open, now);
    const orphans = open.filter((t) => !requests.has(t.uuid));
    for (const task of orphans) {
      // The contact is gone: the engine ends the enrollment when it looks at it.
      await wakeEnrollment(db, task, now);
      await db
        .updateTable('tasks')
        .set({ schedule_at: null })
        .where('team_id', '=', task.team_id)
        .where('uuid', '=', task.uuid)
        .execute();
    }
    const unsendable = open.filter((t) => {
      const request = requests.get(t.uuid);
      return request !== undefined && TEXT_ACTIONS.has(request.type) && !request.text?.trim();
    });
    if (unsendable.length > 0) {
      // Checked again at the channel's door: a driver never gets an empty text to send.
      await failUnsendable(
        db,
        state.team_id,
        unsendable.map((t) => ({ uuid: t.uuid, reason: 'The task has no text to send; nothing was sent.' })),
        now,
      );
      for (const task of unsendable) requests.delete(task.uuid);
    }
    const sendable = open.filter((t) => requests.has(t.uuid));
    if (sendable.length === 0) continue;
    const taken = await takeIntents(db, state, sendable, now);
    if (taken.size === 0) {
      // Either we lost the sender to another dispatcher, or every task moved: look again (bounded).
      acted += 1;
      continue;
    }
    deps.crashPoint?.('after_intent');
    const batch = open.filter((t) => taken.has(t.uuid));
    const outcomes = await performAll(
      driver,
      batch.map((t) => requests.get(t.uuid) as ActionRequest),
      deps.log,
    );
    deps.crashPoint?.('after_perform');
    const known = outcomes.flatMap((outcome, i) =>
      outcome === 'unknown' ? [] : [{ task: batch[i]!, request: requests.get(batch[i]!.uuid)!, outcome }],
    );
    const effect = await recordOutcomes(db, known, now, deps.config.maxAttempts, deps.onSent);
    deps.crashPoint?.('after_record');
    acted += batch.length;
    for (const task of batch)
      state.flow_turns = { ...state.flow_turns, [task.flow_uuid ?? '']: now.toISOString() };
    state.actions_done += batch.length;
    const paused = { ...state.paused_until };
    for (const [type, ms] of effect.pauseActions) {
      paused[type] = new Date(now.getTime() + (ms ?? deps.config.limitPauseMs)).toISOString();
    }
    if (effect.pauseChannel) {
      paused['*'] = new Date(now.getTime() + 365 * 86_400_000).toISOString();
      await parkSenderActions(db, state.team_id, sender.uuid, state.channel, 'seat_login_issue');
    }
    state.paused_until = paused;
    if (outcomes.length < batch.length || outcomes.includes('unknown') || effect.awaitingCheck) {
      // Some intent has no outcome: the reconciler takes it once nobody can still be acting on it.
      await release(db, state, {
        nextDispatchAt: new Date(now.getTime() + deps.config.reconcileAfterMs),
        pausedUntil: paused,
      });
      return acted;
    }
    const wait = gap();
    if (wait > 0 || effect.pauseChannel) {
      const nextSlot = new Date(now.getTime() + wait);
      await release(db, state, {
        nextDispatchAt: effect.pauseChannel ? null : nextSlot,
        nextSlotAt: nextSlot,
        pausedUntil: paused,
      });
      return acted;
    }
  }
  await release(db, state, { nextDispatchAt: now, pausedUntil: state.paused_until });
  return acted;
}
