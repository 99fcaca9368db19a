import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { FlowParams } from '../flows.schemas.js';
import {
  ContactSourceStatistics,
  ContactSourceStatisticsBody,
  FlowMetrics,
  FlowMetricsBody,
  NodeStatistics,
  NodeStatisticsBody,
} from './statistics.schemas.js';
import type { FlowStatisticsService } from './statistics.service.js';
import { TEAM_STATISTICS_MAX_DAYS, TeamStatistics, TeamStatisticsBody } from './team-statistics.schemas.js';

export const flowStatisticsRoutes: FastifyPluginAsyncTypebox<{ statistics: FlowStatisticsService }> = async (
  app,
  { statistics },
) => {
  const tags = ['Flow statistics'];

  app.post(
    '/flows/api/flows/metrics',
    {
      schema: {
        tags,
        operationId: 'flowMetrics',
        summary: 'Enrollment counts and pending tasks per flow',
        description: 'Exact counts kept as rows change (no scan of enrollments or tasks).',
        body: FlowMetricsBody,
        response: { 200: FlowMetrics },
      },
    },
    async (request) => statistics.metrics(authOf(request).teamId, request.body.uuids),
  );

  app.post(
    '/flows/api/flows/:flowUuid/statistics/nodes',
    {
      schema: {
        tags,
        operationId: 'flowNodeStatistics',
        summary: 'Per-node funnel: task statuses, conversions and branches',
        description:
          'Acceptance rate of a connection-request node = node_conversions.accepted / node_statuses.closed. ' +
          'Without filter the counts are kept as rows change; with filter.executed_at they count the tasks ' +
          'executed in that range (conversions in that range, to the hour).',
        params: FlowParams,
        body: NodeStatisticsBody,
        response: { 200: NodeStatistics },
      },
    },
    async (request) =>
      statistics.nodeStatistics(
        authOf(request).teamId,
        request.params.flowUuid,
        request.body.node_ids,
        request.body.filter,
      ),
  );

  app.post(
    '/flows/api/flows/:flowUuid/statistics/contact-sources',
    {
      schema: {
        tags,
        operationId: 'flowContactSourceStatistics',
        summary: 'Per-contact-source funnel: enrollment statuses, how they entered, conversions per channel',
        params: FlowParams,
        body: ContactSourceStatisticsBody,
        response: { 200: ContactSourceStatistics },
      },
    },
    async (request) =>
      statistics.contactSourceStatistics(
        authOf(request).teamId,
        request.params.flowUuid,
        request.body.contact_source_ids,
      ),
  );

  app.post(
    '/flows/api/statistics/team',
    {
      schema: {
        tags,
        operationId: 'teamStatistics',
        summary:
          'Team analytics per day: actions against limits per sender, conversions per sender, flow or source',
        description:
          `A period of at most ${TEAM_STATISTICS_MAX_DAYS} local days. Actions are what each sender handed to its ` +
          "channel (flows' tasks and LinkedIn messages queued by hand, as the limits count them) beside its daily " +
          'limit on that day; conversions come from the counters the engine keeps as they happen, to the hour.',
        body: TeamStatisticsBody,
        response: { 200: TeamStatistics },
      },
    },
    async (request) => statistics.team(authOf(request).teamId, request.body),
  );
};
