import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import {
  CreatedLead,
  CreateLeadsBody,
  Lead,
  LeadDetail,
  LeadQuery,
  LookupLeadBody,
  UpdateLeadBody,
  UpsertedLead,
  UpsertLeadBody,
} from './leads.schemas.js';
import type { LeadsService } from './leads.service.js';

const tags = ['Contacts'];

export const leadsRoutes: FastifyPluginAsyncTypebox<{ leads: LeadsService }> = async (app, { leads }) => {
  app.post(
    '/leads/api/leads',
    {
      schema: {
        tags,
        operationId: 'createLeads',
        summary: 'Create contacts',
        description:
          'Creates up to 1000 contacts in one list, in one statement; answers 200 as the hosted service does. ' +
          'The answer has one entry per input, in ' +
          'input order. An input that duplicates an existing contact - or an earlier input of the same ' +
          'request - by a deduplication key (ln_member_id, ln_id, sn_id, LinkedIn nickname, work_email, ' +
          'personal_email; name + company_name for contacts without any of those) creates nothing: its entry ' +
          'is the existing contact, unchanged, with create_status "duplicate". The headers X-Created-Count ' +
          'and X-Duplicate-Count sum it up. `tags` are names (created when missing) or tag UUIDs; ' +
          '`custom_fields` is keyed by custom field name or UUID. New contacts start on the first cold ' +
          'pipeline stage, get their blacklist flag and are linked to a matching company.',
        body: CreateLeadsBody,
        response: {
          200: Type.Array(CreatedLead),
          409: errorResponse(409, 'an input collided with a contact changed or deleted meanwhile; retry'),
        },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      const created = await leads.createLeads({ teamId, userId }, request.body);
      const duplicates = created.filter((lead) => lead.create_status === 'duplicate').length;
      reply.header('x-created-count', String(created.length - duplicates));
      reply.header('x-duplicate-count', String(duplicates));
      return reply.code(200).send(created);
    },
  );

  app.post(
    '/leads/api/leads/upsert',
    {
      schema: {
        tags,
        operationId: 'upsertLead',
        summary: 'Create or update one contact',
        description:
          'Finds the contact by the deduplication keys in order - ln_member_id, ln_id, sn_id, LinkedIn ' +
          'nickname, work_email, personal_email, name + company_name (only against contacts no identifier ' +
          'contradicts) - first match wins. No match: the contact is created in list_uuid. A match with ' +
          'update_if_exists (default true): the fields given with a value overwrite the stored ones (null or ' +
          'empty values keep them), tags are added, custom field values are set (null clears). move_to_list ' +
          'moves a matched contact into list_uuid. Concurrent upserts of one person create one contact.',
        body: UpsertLeadBody,
        response: {
          200: UpsertedLead,
          409: errorResponse(
            409,
            'the matched contact changed concurrently, or the new values collide with another contact',
          ),
        },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return leads.upsertLead({ teamId, userId }, request.body);
    },
  );

  for (const [path, operationId] of [
    ['/leads/api/leads/lookup-one', 'lookupLead'],
    ['/leads/api/leads/find-one', 'findLead'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags,
          operationId,
          summary:
            operationId === 'lookupLead' ? 'Find one contact' : 'Find one contact (old path of lookup-one)',
          description:
            'By linkedin_id (any LinkedIn reference), email (work or personal) or name + company_name; when ' +
            'several are given the deduplication order decides. None given: 422. No match: 404.',
          body: LookupLeadBody,
          response: { 200: Lead, 404: errorResponse(404, 'no contact matches') },
        },
      },
      async (request) => leads.lookupLead(authOf(request).teamId, request.body),
    );
  }

  app.get(
    '/leads/api/leads/:uuid',
    {
      schema: {
        tags,
        operationId: 'getLead',
        summary: 'Get a contact',
        description:
          'The contact with its markers: per sender profile and in total, e-mails sent, received, opened ' +
          'and clicked, first and last e-mail, LinkedIn messages sent and received, connection request ' +
          'sent and accepted, last messaging activity (counters kept as messages come and go). ' +
          'disable_aggregation=true leaves them out.',
        params: UuidParams,
        querystring: LeadQuery,
        response: { 200: LeadDetail },
      },
    },
    async (request) =>
      leads.getLead(authOf(request).teamId, request.params.uuid, {
        aggregate: request.query.disable_aggregation !== true,
      }),
  );

  app.put(
    '/leads/api/leads/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateLead',
        summary: 'Update a contact',
        description:
          'Only the fields sent change; null clears one. list_uuid and pipeline_stage_uuid must name the ' +
          'team\u2019s list and contact stage; tags replace the contact\u2019s tags. A changed identifier that ' +
          'another contact already has is a 409. Custom field values are not accepted here (422): use ' +
          'POST /leads/api/custom-field-values.',
        params: UuidParams,
        body: UpdateLeadBody,
        response: { 200: Lead },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return leads.updateLead({ teamId, userId }, request.params.uuid, request.body);
    },
  );

  app.delete(
    '/leads/api/leads/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteLead',
        summary: 'Delete a contact',
        description:
          'Permanent: the contact is gone from every read at once; its notes and other dependent records ' +
          'are purged by a background job.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await leads.deleteLead(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
