import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { LeadPage, SearchLeadsBody } from './leads.schemas.js';
import type { LeadsService } from './leads.service.js';
import {
  type ContactExportAction,
  CountLeadsBody,
  LeadCount,
  LeadMetrics,
  LeadMetricsBody,
  massActionSchemas,
} from './leads-bulk.schemas.js';

const tags = ['Contacts'];

/** `contactExport`: the export mass action, given by the files module (src/app.ts). */
export const leadsBulkRoutes: FastifyPluginAsyncTypebox<{
  leads: LeadsService;
  contactExport: ContactExportAction;
}> = async (app, { leads, contactExport }) => {
  const massAction = massActionSchemas(contactExport);
  app.post(
    '/leads/api/leads/search',
    {
      schema: {
        tags,
        operationId: 'searchLeads',
        summary: 'Search contacts',
        description:
          'Contact filter keys: every stored field (scalar = equals, array = any of, {op: value}, ' +
          '{from, to}, "is_null", "is_not_null"), plus q (free text over name, e-mails, position, headline ' +
          'and company name), tags (has any of the tag UUIDs; "is_null": no tags), tags_all (has all), ' +
          'email (work or personal), work_email_domain and custom_fields ({name: filter value}). order_field: ' +
          'created_at (default), updated_at, uuid, name, company_name (names case-insensitively); each is ' +
          'served by an index. On records, tags are tag UUIDs and custom_fields is keyed by field name.',
        body: SearchLeadsBody,
        response: { 200: LeadPage },
      },
    },
    async (request) => leads.searchLeads(authOf(request).teamId, request.body),
  );

  app.post(
    '/leads/api/leads/count',
    {
      schema: {
        tags,
        operationId: 'countLeads',
        summary: 'Count contacts',
        description:
          'all: true counts every contact of the team (ids are then ignored), ids counts those contacts, ' +
          'filter narrows with search keys; {"filter": {"all": true, "leadFilter": {...}}} works too. The ' +
          'answer carries the number as both total and count.',
        body: CountLeadsBody,
        response: { 200: LeadCount },
      },
    },
    async (request) => leads.countLeads(authOf(request).teamId, request.body),
  );

  app.post(
    '/leads/api/leads/metrics',
    {
      schema: {
        tags,
        operationId: 'leadMetrics',
        summary: 'Contact metrics',
        description:
          'Totals of the requested metrics over the period for the contacts matching filter. Messaging ' +
          'activity is not recorded by this release yet, so activity metrics are 0; leads_count and ' +
          'new_leads_count are computed.',
        body: LeadMetricsBody,
        response: { 200: LeadMetrics },
      },
    },
    async (request) => leads.metrics(authOf(request).teamId, request.body),
  );

  app.put(
    '/leads/api/leads/mass-action',
    {
      schema: {
        tags,
        operationId: 'leadsMassAction',
        summary: 'Act on many contacts',
        description:
          'One statement over the selected contacts; blacklisted contacts are skipped. Up to the ' +
          'synchronous limit (LEADFLOW_MASS_ACTION_SYNC_LIMIT, default 50,000 contacts) it runs in the ' +
          'request: 200 {"affected": N, "operation": null}. Above it a bulk operation is queued: 202 ' +
          '{"affected": null, "operation": {...}}; poll GET /leads/api/bulk-operations/{uuid}.',
        body: massAction.body,
        response: { 200: massAction.result, 202: massAction.result },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      if (request.body.type === contactExport.type) {
        const record = await contactExport.queue({ teamId, userId }, request.body);
        return { affected: null, operation: null, export: record };
      }
      const result = await leads.massAction({ teamId, userId }, request.body);
      return reply.code(result.queued ? 202 : 200).send(result.body);
    },
  );
};
