// What a sender has done against its limits: the actions handed to a channel (flows' tasks and LinkedIn
// messages queued by hand share the limits), counted over the sender's local day and rolling week.
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Executor } from '../../../db/database.js';
import type { ActionType } from '../../channels/driver.js';
import { actionRoom, type Room, type SenderLimits } from './dispatch-guards.js';
import type { SenderRow } from './work.js';

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

/**
 * The action guards (pauses, limits) over the sender's usage at `now`, for `types`: the flows' dispatcher
 * asks it for its channel's types, a hand-queued LinkedIn message for its own.
 */
export async function senderRoom(
  db: Executor,
  limits: SenderLimits,
  sender: SenderRow,
  types: readonly string[],
  pausedUntil: Record<string, string>,
  now: Date,
): Promise<Room> {
  const window = usageWindow(sender, now);
  const used = await senderUsage(db, sender.team_id, sender.uuid, window.weekStart, window.dayStart);
  return actionRoom(
    types,
    (type) => {
      const paused = pausedUntil[type] ?? pausedUntil['*'];
      return {
        pausedUntil: paused ? new Date(paused).getTime() : undefined,
        limit: limits(sender, type as ActionType, window.date),
        used: { today: used.get(type)?.today ?? 0, week: used.get(type)?.week ?? 0 },
      };
    },
    now.getTime(),
    window.nextDay.getTime(),
  );
}
