// A sender's day (GET /flows/api/tasks/schedule): what it did and what is planned, each at its time in
// the sender's zone, the day's open windows, and per action type the day's limit, what was used and
// what is left. The numbers come from the same pure functions the engine plans with (schedule windows,
// sender limits); usage counts actions handed to their channel (taken_to_execute_at), as the engine's.
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Executor } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { addDays, localDayRange, windowsOn } from '../../lib/schedule.js';
import {
  effectiveDailyLimits,
  remainingCapacity,
  SENDER_ACTION_TYPES,
  warmUpDay,
  warmUpShare,
  weeklyLimit,
} from '../senders/sender-limits.js';
import { selectSenderProfile } from '../senders/senders.repository.js';

/** More tasks than this in one sender's day are cut off (`tasks_truncated`). */
export const TIMELINE_MAX_TASKS = 2000;

type TimelineRow = {
  uuid: string;
  type: string;
  status: string;
  automation: string;
  lead_uuid: string;
  flow_uuid: string | null;
  flow_node_id: number | null;
  at: Date;
  state: 'done' | 'executing' | 'planned';
};

const localTime = (at: Date, zone: string) =>
  DateTime.fromJSDate(at, { zone }).toISO({ suppressMilliseconds: true, includeOffset: true })!;

/** Senders a team-wide schedule shows at most (the rest: `truncated`). */
export const TEAM_TIMELINE_MAX_SENDERS = 100;

/**
 * A sender's day: `isoDate` in its zone, or (left out) the day it is now there. `now` only picks that
 * day.
 */
export async function senderTimeline(
  db: Executor,
  teamId: number,
  senderUuid: string,
  date: string | undefined,
  now: Date,
) {
  const sender = await selectSenderProfile(db, teamId, senderUuid);
  if (!sender) throw notFound('Sender profile');
  const zone = sender.schedule.timezone;
  const isoDate = date ?? DateTime.fromJSDate(now, { zone }).toISODate()!;
  const day = localDayRange(isoDate, zone);
  const weekStart = localDayRange(addDays(isoDate, -6), zone).start;

  const [tasks, usage, planned] = await Promise.all([
    sql<TimelineRow>`
      select * from (
        select t.uuid, t.type, t.status, t.automation, t.lead_uuid, t.flow_uuid, t.flow_node_id,
          t.executed_at as at, 'done' as state
        from tasks t
        where t.team_id = ${teamId} and t.sender_profile_uuid = ${senderUuid}
          and t.executed_at >= ${day.start} and t.executed_at < ${day.end}
        union all
        select t.uuid, t.type, t.status, t.automation, t.lead_uuid, t.flow_uuid, t.flow_node_id,
          t.schedule_at as at,
          case when t.taken_to_execute_at is null then 'planned' else 'executing' end as state
        from tasks t
        where t.team_id = ${teamId} and t.sender_profile_uuid = ${senderUuid} and t.status = 'in_progress'
          and t.executed_at is null and t.schedule_at >= ${day.start} and t.schedule_at < ${day.end}
      ) day_tasks
      order by at, uuid
      limit ${TIMELINE_MAX_TASKS + 1}
    `.execute(db),
    sql<{ type: string; today: number; week: number }>`
      select t.type, count(*) filter (where t.taken_to_execute_at >= ${day.start})::int as today,
        count(*)::int as week
      from tasks t
      where t.team_id = ${teamId} and t.sender_profile_uuid = ${senderUuid}
        and t.type = any(${[...SENDER_ACTION_TYPES]}::text[])
        and t.taken_to_execute_at >= ${weekStart} and t.taken_to_execute_at < ${day.end}
      group by t.type
    `.execute(db),
    sql<{ type: string; n: number }>`
      select t.type, count(*)::int as n
      from tasks t
      where t.team_id = ${teamId} and t.sender_profile_uuid = ${senderUuid} and t.status = 'in_progress'
        and t.taken_to_execute_at is null and t.schedule_at >= ${day.start} and t.schedule_at < ${day.end}
      group by t.type
    `.execute(db),
  ]);

  const used = new Map(usage.rows.map((row) => [row.type, row]));
  const plannedByType = new Map(planned.rows.map((row) => [row.type, row.n]));
  const limits = effectiveDailyLimits(sender, isoDate);
  const capacity = Object.fromEntries(
    SENDER_ACTION_TYPES.map((type) => {
      const weekly = weeklyLimit(sender, type);
      const usedToday = used.get(type)?.today ?? 0;
      const usedThisWeek = used.get(type)?.week ?? 0;
      return [
        type,
        {
          daily_limit: limits[type],
          weekly_limit: weekly,
          used: usedToday,
          used_this_week: weekly === null ? null : usedThisWeek,
          planned: plannedByType.get(type) ?? 0,
          remaining: remainingCapacity({ daily: limits[type], usedToday, weekly, usedThisWeek }),
        },
      ];
    }),
  );

  const rows = tasks.rows.slice(0, TIMELINE_MAX_TASKS);
  return {
    sender_profile_uuid: sender.uuid,
    date: isoDate,
    timezone: zone,
    status: sender.status,
    hold_tasks_till: sender.hold_tasks_till,
    day: { start: day.start, end: day.end },
    windows: windowsOn(sender.schedule, isoDate).map((window) => ({
      start: window.start,
      end: window.end,
      local_start: localTime(window.start, zone),
      local_end: localTime(window.end, zone),
    })),
    warm_up: {
      smart_limits_enabled: sender.smart_limits_enabled,
      day: warmUpDay(sender, isoDate),
      share: warmUpShare(sender, isoDate),
    },
    capacity,
    tasks: rows.map((row) => ({ ...row, local_time: localTime(new Date(row.at), zone) })),
    tasks_truncated: tasks.rows.length > TIMELINE_MAX_TASKS,
  };
}

/** Every sender profile's day (the schedule asked without a sender), oldest profile first. */
export async function teamTimeline(db: Executor, teamId: number, date: string | undefined, now: Date) {
  const senders = await db
    .selectFrom('sender_profiles')
    .select('uuid')
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('uuid')
    .limit(TEAM_TIMELINE_MAX_SENDERS + 1)
    .execute();
  const data = [];
  for (const sender of senders.slice(0, TEAM_TIMELINE_MAX_SENDERS)) {
    data.push(await senderTimeline(db, teamId, sender.uuid, date, now));
  }
  return { data, truncated: senders.length > TEAM_TIMELINE_MAX_SENDERS };
}
