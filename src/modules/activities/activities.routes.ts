import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { UuidParams } from '../../http/schemas.js';
import { activityFilterFields } from './activities.repository.js';
import { ActivitiesQuery, Activity, ActivityPage, CreateActivityBody } from './activities.schemas.js';
import type { ActivitiesService } from './activities.service.js';

export const activitiesRoutes: FastifyPluginAsyncTypebox<{ activities: ActivitiesService }> = async (
  app,
  { activities },
) => {
  const tags = ['Activities'];

  app.get(
    '/leads/api/activities',
    {
      config: { filterFields: Object.keys(activityFilterFields) },
      schema: {
        tags,
        operationId: 'listActivities',
        summary: 'List activities (timelines)',
        description:
          'The timeline of contacts and companies, newest first: filter[lead_uuid] for one contact, ' +
          'filter[company_uuid] for a company and its contacts, filter[type] (one or a list), ' +
          'filter[created_at][>=]=2026-04-01; the filter may also be a JSON string ' +
          '(?filter={"type":"pipeline_stage_changed"}). Leadflow records channel activities (messages, ' +
          'e-mails, connection requests, opens, clicks, replies, bounces), CRM changes (stage, list, tags), ' +
          'flow enrollments and their ends, notes and enrichment in the same transaction as the change.',
        querystring: ActivitiesQuery,
        response: { 200: ActivityPage },
      },
    },
    async (request) => activities.listActivities(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/activities',
    {
      schema: {
        tags,
        operationId: 'createActivity',
        summary: 'Record an activity',
        description:
          'Adds an entry to a contact\u2019s or company\u2019s timeline: a call, a meeting or any type of ' +
          'your own. object_uuid must name one of your contacts (object_type lead) or companies (422 ' +
          'otherwise). No webhook event is sent for it (the hosted service lists none).',
        body: CreateActivityBody,
        response: { 201: Activity },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await activities.createActivity(authOf(request), request.body)),
  );

  app.get(
    '/leads/api/activities/:uuid',
    {
      schema: {
        tags,
        operationId: 'getActivity',
        summary: 'Get an activity',
        params: UuidParams,
        response: { 200: Activity },
      },
    },
    async (request) => activities.getActivity(authOf(request).teamId, request.params.uuid),
  );
};
