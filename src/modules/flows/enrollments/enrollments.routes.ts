import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { errorResponse } from '../../../http/openapi.js';
import { NoContent } from '../../../http/schemas.js';
import { FlowParams } from '../flows.schemas.js';
import {
  AddNewLeadBody,
  CancelBody,
  EnrolBody,
  EnrollmentPage,
  EnrolParams,
  LeadParams,
  ListEnrollmentsBody,
  MoveBody,
  Skipped,
} from './enrollments.schemas.js';
import { contactSourceIdOf, type EnrollmentsService } from './enrollments.service.js';

export const enrollmentsRoutes: FastifyPluginAsyncTypebox<{ enrollments: EnrollmentsService }> = async (
  app,
  { enrollments },
) => {
  const tags = ['Flow enrollments'];

  app.post(
    '/flows/api/flows-leads/list',
    {
      schema: {
        tags,
        operationId: 'listFlowLeads',
        summary: 'List enrollments (flow-leads)',
        description:
          'Filter keys flow_uuid, lead_uuid and status (each a list or one value); any other key is a 422 listing ' +
          'them. `total` is exact (kept by count deltas, so a flow of a million enrollments is not counted).',
        body: ListEnrollmentsBody,
        response: { 200: EnrollmentPage },
      },
    },
    async (request) => enrollments.listEnrollments(authOf(request).teamId, request.body),
  );

  app.post(
    '/flows/api/flows/:flowUuid/leads/:leadUuid',
    {
      schema: {
        tags,
        operationId: 'enrolFlowLead',
        summary: 'Enrol an existing contact',
        description:
          'The contact starts at the entry node of the contact source (default 1). Draft and stopped flows take ' +
          'contacts, who wait until the flow is on. A contact enters a flow once (409 when it is or was in it); ' +
          'blacklisted contacts and archived flows answer 422.',
        params: EnrolParams,
        body: EnrolBody,
        response: {
          204: NoContent,
          409: errorResponse(409, 'the contact is or was in this flow (a contact enters a flow once)'),
        },
      },
    },
    async (request, reply) => {
      await enrollments.enroll(
        authOf(request).teamId,
        request.params.flowUuid,
        request.params.leadUuid,
        contactSourceIdOf(request.body?.contact_source_id),
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/flows/api/flows/:flowUuid/add-new-lead',
    {
      schema: {
        tags,
        operationId: 'addNewLeadToFlow',
        summary: 'Create a contact and enrol it',
        description:
          'Finds the contact like upsert does (the same seven keys) or creates it in list_uuid, then enrols it ' +
          'through contact source flow_segment_id (default 1), in one transaction. 204 when enrolled; 200 ' +
          '{"reason": "skipped"} when skip_if_lead_exists and the contact existed; 409 when it is already in the flow.',
        params: FlowParams,
        body: AddNewLeadBody,
        response: { 200: Skipped, 204: NoContent },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      const { skipped } = await enrollments.addNewLead(
        { teamId, userId },
        request.params.flowUuid,
        request.body,
      );
      return skipped ? reply.code(200).send({ reason: 'skipped' as const }) : reply.code(204).send(null);
    },
  );

  app.put(
    '/flows/api/flows/:flowUuid/leads/:leadUuid/move',
    {
      schema: {
        tags,
        operationId: 'moveFlowLead',
        summary: 'Move a contact to another flow',
        description:
          'In one transaction: the contact leaves this flow (its enrollment ends as canceled with reason moved; ' +
          'pending tasks are canceled) and starts to_flow_uuid at the entry of contact_source_id (default 1). ' +
          'When the other flow refuses the contact nothing changes: 422 naming to_flow_uuid (not one of your ' +
          'flows, archived) or contact_source_id, 409 when the contact is or was in that flow. 404 when the ' +
          'contact was never in this flow; 409 when its enrollment here has ended.',
        params: EnrolParams,
        body: MoveBody,
        response: {
          204: NoContent,
          409: errorResponse(409, 'the contact is or was in the other flow, or its enrollment here ended'),
        },
      },
    },
    async (request, reply) => {
      const { flowUuid, leadUuid } = request.params;
      await enrollments.move(authOf(request).teamId, flowUuid, leadUuid, request.body);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/flows/api/flows/leads/:leadUuid/cancel',
    {
      schema: {
        tags,
        operationId: 'cancelFlowLead',
        summary: 'Remove a contact from flows',
        description:
          'Its live enrollments in the named flows end as canceled; their pending tasks are canceled.',
        params: LeadParams,
        body: CancelBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await enrollments.cancel(authOf(request).teamId, request.params.leadUuid, request.body.flow_uuids);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/flows/api/flows/leads/:leadUuid/cancel-all',
    {
      schema: {
        tags,
        operationId: 'cancelFlowLeadEverywhere',
        summary: 'Remove a contact from every flow',
        params: LeadParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await enrollments.cancelAll(authOf(request).teamId, request.params.leadUuid);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/flows/api/flows/leads/:leadUuid',
    {
      schema: {
        tags,
        operationId: 'deleteFlowLeadHistory',
        summary: "Delete a contact's enrollment history",
        description:
          'Live enrollments end first (their pending tasks are canceled), then every enrollment of the contact is ' +
          'deleted; the contact stays and may be enrolled in those flows again.',
        params: LeadParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await enrollments.deleteHistory(authOf(request).teamId, request.params.leadUuid);
      return reply.code(204).send(null);
    },
  );
};
