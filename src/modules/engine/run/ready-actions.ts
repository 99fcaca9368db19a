// The actions a claimed sender may take next: its flows' ready tasks on the channel (not of blocked
// types), and the order they go out in.
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { Schedule } from '../../../lib/schedule.js';
import { ACTION_TASK_TYPES, CHANNEL_SPECS } from '../../channels/channel-specs.js';
import type { StateRow } from './sender-state.js';
import type { TaskRow } from './work.js';

export type Candidate = TaskRow & {
  flow_priority: number;
  flow_schedule: Schedule;
  use_sender_schedule: boolean;
};

/** Up to `perFlow` ready actions of each running flow of this sender (not of `blocked` types), oldest first. */
export async function candidates(
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
export async function nextReadyAt(db: Executor, state: StateRow, blocked: string[]): Promise<Date | null> {
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
