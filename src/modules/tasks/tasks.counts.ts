// Group-counts of tasks: how many per status, type, flow, sender, way of creation, error code, or per
// day / week / month of execution. Counts by a column the count deltas keep come from the deltas
// whenever the filter allows it (one index range over a few thousand rows instead of millions of
// tasks); the rest are grouped on tasks through the filter's index.
import { sql } from 'kysely';
import { sumDeltas, taskCountDeltas } from '../../db/count-deltas.js';
import type { Executor } from '../../db/database.js';
import { and } from '../../lib/filter.js';
import { type GroupCounts, toGroupCounts as toCounts } from '../../lib/group-counts.js';
import { compileTaskFilter } from './tasks.filter.js';

export const DIMENSION_GROUP_FIELDS = [
  'status',
  'type',
  'flow_uuid',
  'sender_profile_uuid',
  'automation',
  'automation_error_code',
] as const;
export const TIME_GROUP_FIELDS = ['day', 'week', 'month'] as const;
export const GROUP_FIELDS = [...DIMENSION_GROUP_FIELDS, ...TIME_GROUP_FIELDS] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];

type DimensionField = (typeof DIMENSION_GROUP_FIELDS)[number];

export type { GroupCounts };

export async function groupTaskCounts(
  db: Executor,
  teamId: number,
  request: { group_field: GroupField; filter?: unknown; timezone?: string },
): Promise<GroupCounts> {
  const where = compileTaskFilter(request.filter);
  const field = request.group_field;
  if ((DIMENSION_GROUP_FIELDS as readonly string[]).includes(field)) {
    const dimension = field as DimensionField;
    if (where.deltas !== null) {
      const groups = await sumDeltas(db, taskCountDeltas, teamId, {
        groupBy: [dimension],
        ...(where.deltas ? { where: where.deltas } : {}),
      });
      return toCounts(groups.map((group) => ({ key: group[dimension], count: group.count })));
    }
    const { rows } = await sql<{ key: unknown; count: number }>`
      select ${sql.ref(`t.${dimension}`)} as key, count(*)::bigint as count
      from tasks t where t.team_id = ${teamId} ${where.tasks ? sql`and ${where.tasks}` : sql``}
      group by 1
    `.execute(db);
    return toCounts(rows);
  }
  // Per calendar day, week (starting Monday) or month of executed_at, in `timezone`; the key is the
  // first day of the period. Tasks not executed yet have no period and are not counted.
  const zone = request.timezone ?? 'UTC';
  const condition = and([sql`t.executed_at is not null`, ...(where.tasks ? [where.tasks] : [])])!;
  const { rows } = await sql<{ key: string; count: number }>`
    select to_char(date_trunc(${field}, t.executed_at at time zone ${zone}), 'YYYY-MM-DD') as key,
      count(*)::bigint as count
    from tasks t where t.team_id = ${teamId} and ${condition}
    group by 1
  `.execute(db);
  return toCounts(rows);
}
