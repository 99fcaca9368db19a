// The reads behind flow statistics (statistics.service.ts): sums of the count-delta tables the triggers of
// migration 0500 keep (src/db/count-deltas.ts), and - for a node statistic limited to an execution-time
// range - the node's tasks in that range on their (flow, node, executed_at) index.
import { type SqlBool, sql } from 'kysely';
import {
  flowConversionDeltas,
  flowLeadCountDeltas,
  sumDeltas,
  taskCountDeltas,
} from '../../../db/count-deltas.js';
import type { Executor } from '../../../db/database.js';
import { compileFilter, type FilterSpec } from '../../../lib/filter.js';

const rangeSpec = (column: string): FilterSpec => ({
  name: 'statistics filter',
  fields: { executed_at: { type: 'datetime', column } },
});

/** Per flow: enrollments by status, live tasks by type, conversions by channel and kind. */
export function flowMetricCounts(db: Executor, teamId: number, ids: string[]) {
  return Promise.all([
    sumDeltas(db, flowLeadCountDeltas, teamId, {
      groupBy: ['flow_uuid', 'status'],
      where: sql<SqlBool>`d.flow_uuid = any(${ids}::uuid[])`,
    }),
    sumDeltas(db, taskCountDeltas, teamId, {
      groupBy: ['flow_uuid', 'type'],
      where: sql<SqlBool>`d.flow_uuid = any(${ids}::uuid[]) and d.status = 'in_progress'`,
    }),
    sumDeltas(db, flowConversionDeltas, teamId, {
      groupBy: ['flow_uuid', 'channel', 'kind'],
      where: sql<SqlBool>`d.flow_uuid = any(${ids}::uuid[])`,
    }),
  ]);
}

/** Per node of a flow: tasks by status and branch, conversions by kind; `range` limits by execution time. */
export function nodeCounts(
  db: Executor,
  teamId: number,
  flowUuid: string,
  nodeIds: number[],
  range: { executed_at?: unknown } | undefined,
) {
  const nodes = sql<SqlBool>`d.flow_uuid = ${flowUuid} and d.flow_node_id = any(${nodeIds}::int[])`;
  const taskRange = range ? compileFilter(rangeSpec('t.executed_at'), range, 'filter') : undefined;
  const conversionRange = range ? compileFilter(rangeSpec('d.occurred_at'), range, 'filter') : undefined;
  return Promise.all([
    taskRange
      ? sql<{ flow_node_id: number; status: string; fork_result: number | null; count: number }>`
          select t.flow_node_id, t.status, t.fork_result, count(*)::int as count from tasks t
          where t.team_id = ${teamId} and t.flow_uuid = ${flowUuid}
            and t.flow_node_id = any(${nodeIds}::int[]) and ${taskRange}
          group by 1, 2, 3
        `
          .execute(db)
          .then((res) => res.rows)
      : sumDeltas(db, taskCountDeltas, teamId, {
          groupBy: ['flow_node_id', 'status', 'fork_result'],
          where: nodes,
        }),
    sumDeltas(db, flowConversionDeltas, teamId, {
      groupBy: ['flow_node_id', 'kind'],
      where: conversionRange ? sql<SqlBool>`${nodes} and ${conversionRange}` : nodes,
    }),
  ]);
}

/** Per contact source of a flow: enrollments by status and by who added them, conversions. */
export function sourceCounts(db: Executor, teamId: number, flowUuid: string, sourceIds: number[]) {
  const sources = sql<SqlBool>`d.flow_uuid = ${flowUuid} and d.contact_source_id = any(${sourceIds}::int[])`;
  return Promise.all([
    sumDeltas(db, flowLeadCountDeltas, teamId, {
      groupBy: ['contact_source_id', 'status', 'added_by'],
      where: sources,
    }),
    sumDeltas(db, flowConversionDeltas, teamId, {
      groupBy: ['contact_source_id', 'channel', 'kind'],
      where: sources,
    }),
  ]);
}
