// Flow metrics and node / contact-source statistics. They read the count-delta tables the triggers of
// migration 0500 keep (src/db/count-deltas.ts), never counting tasks or enrollments, so they answer in
// the same time at ten million tasks as at ten. A node statistic limited to an execution-time range
// reads the node's tasks in that range on their (flow, node, executed_at) index instead.
import { type SqlBool, sql } from 'kysely';
import {
  flowConversionDeltas,
  flowLeadCountDeltas,
  sumDeltas,
  taskCountDeltas,
} from '../../../db/count-deltas.js';
import type { Database } from '../../../db/database.js';
import { notFound } from '../../../lib/errors.js';
import { compileFilter, type FilterSpec } from '../../../lib/filter.js';
import { selectFlow } from '../flows.repository.js';
import { type TeamStatisticsRequest, teamStatistics } from './team-statistics.js';

type Counts = Record<string, number>;

const TASK_STATUSES = ['in_progress', 'closed', 'canceled', 'failed', 'skipped'];
const ENROLLMENT_STATUSES = ['in_progress', 'paused', 'finished', 'canceled', 'failed'];
/** The kinds each channel reports, present with 0 so clients can compute rates without guards. */
const CHANNEL_KINDS: Record<string, string[]> = {
  linkedin_connection_request: ['sent', 'accepted'],
  linkedin_message: ['sent', 'opened', 'replied', 'blocked'],
  linkedin_inmail: ['sent', 'opened', 'replied'],
  email: ['sent', 'opened', 'clicked', 'replied', 'bounced'],
};

const zeros = (keys: string[]): Counts => Object.fromEntries(keys.map((key) => [key, 0]));
const channelZeros = (): Record<string, Counts> =>
  Object.fromEntries(Object.entries(CHANNEL_KINDS).map(([channel, kinds]) => [channel, zeros(kinds)]));

function add(counts: Counts, key: unknown, value: number) {
  const name = String(key);
  counts[name] = (counts[name] ?? 0) + value;
}

const rangeSpec = (column: string): FilterSpec => ({
  name: 'statistics filter',
  fields: { executed_at: { type: 'datetime', column } },
});

export function createFlowStatisticsService(deps: { db: Database }) {
  const { db } = deps;

  async function requireFlow(teamId: number, flowUuid: string) {
    if (!(await selectFlow(db, teamId, flowUuid))) throw notFound('Flow');
  }

  return {
    team: (teamId: number, request: TeamStatisticsRequest) => teamStatistics(db, teamId, request),

    async metrics(teamId: number, uuids: string[]) {
      const wanted = uuids.map((uuid) => uuid.toLowerCase());
      const { rows: flows } = await sql<{ uuid: string }>`
        select uuid from flows where team_id = ${teamId} and uuid = any(${wanted}::uuid[])
      `.execute(db);
      if (flows.length === 0) return {};
      const ids = flows.map((flow) => flow.uuid);
      const [enrollments, tasks, conversions] = await Promise.all([
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
      type FlowCounts = {
        leads_count: number;
        in_progress_leads_count: number;
        paused_leads_count: number;
        finished_leads_count: number;
        canceled_leads_count: number;
        failed_leads_count: number;
        task_counts: Counts;
        conversions: Record<string, Counts>;
      };
      const result: Record<string, FlowCounts> = {};
      for (const uuid of ids) {
        result[uuid] = {
          leads_count: 0,
          in_progress_leads_count: 0,
          paused_leads_count: 0,
          finished_leads_count: 0,
          canceled_leads_count: 0,
          failed_leads_count: 0,
          task_counts: {},
          conversions: channelZeros(),
        };
      }
      for (const group of enrollments) {
        const entry = result[String(group.flow_uuid)]!;
        entry.leads_count += group.count;
        const key = `${group.status}_leads_count` as keyof FlowCounts;
        if (key in entry && key !== 'task_counts') (entry[key] as number) += group.count;
      }
      for (const group of tasks) add(result[String(group.flow_uuid)]!.task_counts, group.type, group.count);
      for (const group of conversions) {
        const byChannel = result[String(group.flow_uuid)]!.conversions;
        byChannel[String(group.channel)] ??= {};
        add(byChannel[String(group.channel)]!, group.kind, group.count);
      }
      return result;
    },

    async nodeStatistics(
      teamId: number,
      flowUuid: string,
      nodeIds: number[],
      filter?: { executed_at?: unknown } | null,
    ) {
      await requireFlow(teamId, flowUuid);
      const result: Record<
        string,
        { node_statuses: Counts; node_conversions: Counts; node_branches: Counts }
      > = {};
      for (const id of nodeIds) {
        result[id] = { node_statuses: zeros(TASK_STATUSES), node_conversions: {}, node_branches: {} };
      }
      const nodes = sql<SqlBool>`d.flow_uuid = ${flowUuid} and d.flow_node_id = any(${nodeIds}::int[])`;
      const range = filter?.executed_at !== undefined ? filter : undefined;
      const taskRange = range ? compileFilter(rangeSpec('t.executed_at'), range, 'filter') : undefined;
      const conversionRange = range ? compileFilter(rangeSpec('d.occurred_at'), range, 'filter') : undefined;

      const [tasks, conversions] = await Promise.all([
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
      for (const group of tasks) {
        const entry = result[String(group.flow_node_id)];
        if (!entry) continue;
        add(entry.node_statuses, group.status, group.count);
        if (group.fork_result !== null) add(entry.node_branches, group.fork_result, group.count);
      }
      for (const group of conversions) {
        const entry = result[String(group.flow_node_id)];
        if (entry) add(entry.node_conversions, group.kind, group.count);
      }
      return result;
    },

    async contactSourceStatistics(teamId: number, flowUuid: string, sourceIds: number[]) {
      await requireFlow(teamId, flowUuid);
      const sources = sql<SqlBool>`d.flow_uuid = ${flowUuid} and d.contact_source_id = any(${sourceIds}::int[])`;
      const [enrollments, conversions] = await Promise.all([
        sumDeltas(db, flowLeadCountDeltas, teamId, {
          groupBy: ['contact_source_id', 'status', 'added_by'],
          where: sources,
        }),
        sumDeltas(db, flowConversionDeltas, teamId, {
          groupBy: ['contact_source_id', 'channel', 'kind'],
          where: sources,
        }),
      ]);
      type SourceStatistics = {
        contact_source_statuses: Counts;
        contact_source_added_by: { user: number; filter: number; flow: number };
        contact_source_conversions: Record<string, Counts>;
      };
      const result: Record<string, SourceStatistics> = {};
      for (const id of sourceIds) {
        result[id] = {
          contact_source_statuses: zeros(ENROLLMENT_STATUSES),
          contact_source_added_by: { user: 0, filter: 0, flow: 0 },
          contact_source_conversions: channelZeros(),
        };
      }
      for (const group of enrollments) {
        const entry = result[String(group.contact_source_id)];
        if (!entry) continue;
        add(entry.contact_source_statuses, group.status, group.count);
        add(entry.contact_source_added_by, group.added_by, group.count);
      }
      for (const group of conversions) {
        const entry = result[String(group.contact_source_id)];
        if (!entry) continue;
        const channel = String(group.channel);
        entry.contact_source_conversions[channel] ??= {};
        add(entry.contact_source_conversions[channel]!, group.kind, group.count);
      }
      return result;
    },
  };
}

export type FlowStatisticsService = ReturnType<typeof createFlowStatisticsService>;
