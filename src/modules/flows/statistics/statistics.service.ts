// Flow metrics and node / contact-source statistics. They read the count-delta tables the triggers of
// migration 0500 keep (src/db/count-deltas.ts), never counting tasks or enrollments, so they answer in
// the same time at ten million tasks as at ten. A node statistic limited to an execution-time range
// reads the node's tasks in that range on their (flow, node, executed_at) index instead.
import type { Database } from '../../../db/database.js';
import { notFound } from '../../../lib/errors.js';
import { selectFlow, selectFlowUuids } from '../flows.repository.js';
import { flowMetricCounts, nodeCounts, sourceCounts } from './statistics.sql.js';
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

export function createFlowStatisticsService(deps: { db: Database }) {
  const { db } = deps;

  async function requireFlow(teamId: number, flowUuid: string) {
    if (!(await selectFlow(db, teamId, flowUuid))) throw notFound('Flow');
  }

  return {
    team: (teamId: number, request: TeamStatisticsRequest) => teamStatistics(db, teamId, request),

    async metrics(teamId: number, uuids: string[]) {
      const wanted = uuids.map((uuid) => uuid.toLowerCase());
      const ids = await selectFlowUuids(db, teamId, wanted);
      if (ids.length === 0) return {};
      const [enrollments, tasks, conversions] = await flowMetricCounts(db, teamId, ids);
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
      const range = filter?.executed_at !== undefined ? filter : undefined;
      const [tasks, conversions] = await nodeCounts(db, teamId, flowUuid, nodeIds, range);
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
      const [enrollments, conversions] = await sourceCounts(db, teamId, flowUuid, sourceIds);
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
