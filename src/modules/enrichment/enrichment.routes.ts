import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type PathAlias, withAliases } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import {
  EnrichCompaniesBody,
  EnrichLeadsBody,
  EnrichmentQueued,
  QUEUE_FILTER_KEYS,
  QueueMetrics,
  QueuePage,
  QueueQuery,
} from './enrichment.schemas.js';
import type { EnrichmentService } from './enrichment.service.js';

const tags = ['Enrichment'];
const creditsNote =
  'Each queued record takes one credit of the team (credits.advanced_enrichment) at once; a record whose ' +
  'read fails gets its credit back. When the team has fewer credits than records to queue, nothing is ' +
  'queued and the answer is 402 payment_required with error.data {needed, available}. Blacklisted ' +
  'records, records already waiting in the queue and contacts without a LinkedIn reference are skipped.';

/** The hosted MCP server enriches companies with POST /leads/api/companies/enrich. */
const ALIASES: PathAlias[] = [
  {
    path: '/leads/api/companies/advanced-enrichment',
    alias: '/leads/api/companies/enrich',
    method: 'PUT',
    aliasMethod: 'POST',
    operationSuffix: 'ByPost',
  },
];

export const enrichmentRoutes: FastifyPluginAsyncTypebox<{ enrichment: EnrichmentService }> = async (
  instance,
  { enrichment },
) => {
  const app = withAliases(instance, ALIASES);
  app.put(
    '/leads/api/leads/advanced-enrichment',
    {
      schema: {
        tags,
        operationId: 'enrichLeads',
        summary: 'Queue contacts for LinkedIn enrichment',
        description:
          `Contacts by uuids or by the contact selection in filter. ${creditsNote} A worker reads each ` +
          "profile through one of the team's senders that can read LinkedIn and fills the contact's empty " +
          'fields (all fields it shows with refresh: true), then records contact_enriched.',
        body: EnrichLeadsBody,
        response: {
          200: EnrichmentQueued,
          402: errorResponse(
            402,
            'the team has fewer credits than records to queue (error.data: needed, available)',
          ),
        },
      },
    },
    async (request) => enrichment.enrichLeads(authOf(request).teamId, request.body),
  );

  app.put(
    '/leads/api/companies/advanced-enrichment',
    {
      schema: {
        tags,
        operationId: 'enrichCompanies',
        summary: 'Queue companies for LinkedIn enrichment',
        description: `Companies by uuids or by a company filter. ${creditsNote} A worker reads each company page and fills the company's empty fields.`,
        body: EnrichCompaniesBody,
        response: {
          200: EnrichmentQueued,
          402: errorResponse(
            402,
            'the team has fewer credits than records to queue (error.data: needed, available)',
          ),
        },
      },
    },
    async (request) => enrichment.enrichCompanies(authOf(request).teamId, request.body),
  );

  app.get(
    '/leads/api/enrichment-queue',
    {
      config: { filterFields: QUEUE_FILTER_KEYS },
      schema: {
        tags,
        operationId: 'listEnrichmentQueue',
        summary: 'List enrichment queue entries',
        description: 'Newest first by default; filter by status, object (lead, company) or object_uuid.',
        querystring: QueueQuery,
        response: { 200: QueuePage },
      },
    },
    async (request) => enrichment.listQueue(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/enrichment-queue/metrics',
    {
      schema: {
        tags,
        operationId: 'enrichmentQueueMetrics',
        summary: 'Enrichment entries queued this month',
        description: 'Takes no body (an empty one or {} is accepted).',
        response: { 200: QueueMetrics },
      },
    },
    async (request) => enrichment.metrics(authOf(request).teamId),
  );

  // Some clients (the hosted service's MCP server) read the metrics with GET.
  app.get(
    '/leads/api/enrichment-queue/metrics',
    {
      schema: {
        tags,
        operationId: 'getEnrichmentQueueMetrics',
        summary: 'Enrichment entries queued this month (GET form)',
        response: { 200: QueueMetrics },
      },
    },
    async (request) => enrichment.metrics(authOf(request).teamId),
  );
};
