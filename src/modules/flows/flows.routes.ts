import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withBodyForm } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent } from '../../http/schemas.js';
import { flowFilterFields } from './flows.repository.js';
import {
  CloneFlowBody,
  CloneFlowByPathBody,
  CreateFlowBody,
  FlowDetail,
  FlowPage,
  FlowParams,
  FlowsListBody,
  FlowsQuery,
  UpdateFlowBody,
} from './flows.schemas.js';
import type { FlowsService } from './flows.service.js';

const moves = [
  {
    path: 'start',
    operationId: 'startFlow',
    summary: 'Start a flow',
    description:
      'draft or off -> on: contacts are worked on the schedule. An archived flow answers 422 (unarchive it first).',
  },
  {
    path: 'stop',
    operationId: 'stopFlow',
    summary: 'Stop a flow',
    description:
      'on -> off: contacts finish the step they are in; no new step is planned. Other statuses stay.',
  },
  {
    path: 'archive',
    operationId: 'archiveFlow',
    summary: 'Archive a flow',
    description:
      'Any status -> archived: the flow stops and its live enrollments end (canceled, flow_archived).',
  },
  {
    path: 'unarchive',
    operationId: 'unarchiveFlow',
    summary: 'Unarchive a flow',
    description: 'archived -> off (startable again). Other statuses stay.',
  },
] as const;

export const flowsRoutes: FastifyPluginAsyncTypebox<{ flows: FlowsService }> = async (app, { flows }) => {
  const tags = ['Flows'];

  withBodyForm(
    app,
    {
      url: '/flows/api/flows',
      bodyUrl: '/flows/api/flows/list',
      primary: 'GET',
      config: { filterFields: Object.keys(flowFilterFields) },
      schema: { tags, operationId: 'listFlows', summary: 'List flows', response: { 200: FlowPage } },
      querystring: FlowsQuery,
      body: FlowsListBody,
    },
    (params, request) => flows.listFlows(authOf(request).teamId, params as never),
  );

  app.post(
    '/flows/api/flows',
    {
      schema: {
        tags,
        operationId: 'createFlow',
        summary: 'Create a flow',
        description:
          'Creates a draft flow with an initial version holding one end node and the default contact source (id 1).',
        body: CreateFlowBody,
        response: { 201: FlowDetail },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      return reply.code(201).send(await flows.createFlow({ teamId, userId }, request.body));
    },
  );

  app.post(
    '/flows/api/flows/clone',
    {
      schema: {
        tags,
        operationId: 'cloneFlow',
        summary: 'Clone a flow',
        description: "Copies the flow's settings and active version into a new flow with status off.",
        body: CloneFlowBody,
        response: { 201: FlowDetail, 404: errorResponse(404, 'no flow of your team has that uuid') },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      return reply.code(201).send(await flows.cloneFlow({ teamId, userId }, request.body));
    },
  );

  app.post(
    '/flows/api/flows/:flowUuid/clone',
    {
      schema: {
        tags,
        operationId: 'cloneFlowByPath',
        summary: 'Clone a flow',
        description:
          'Alias of POST /flows/api/flows/clone with the flow to copy in the path (the hosted MCP server\u2019s ' +
          "form): copies the flow's settings and active version into a new flow with status off.",
        params: FlowParams,
        body: CloneFlowByPathBody,
        response: { 201: FlowDetail },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      const body = { ...request.body, flow_uuid: request.params.flowUuid };
      return reply.code(201).send(await flows.cloneFlow({ teamId, userId }, body));
    },
  );

  app.get(
    '/flows/api/flows/:flowUuid',
    {
      schema: {
        tags,
        operationId: 'getFlow',
        summary: 'Get a flow',
        description: "The flow with its active version's nodes, contact sources and first_common_node_id.",
        params: FlowParams,
        response: { 200: FlowDetail },
      },
    },
    async (request) => flows.getFlow(authOf(request).teamId, request.params.flowUuid),
  );

  app.put(
    '/flows/api/flows/:flowUuid',
    {
      schema: {
        tags,
        operationId: 'updateFlow',
        summary: 'Update a flow',
        params: FlowParams,
        body: UpdateFlowBody,
        response: { 200: FlowDetail },
      },
    },
    async (request) => flows.updateFlow(authOf(request).teamId, request.params.flowUuid, request.body),
  );

  app.delete(
    '/flows/api/flows/:flowUuid',
    {
      schema: {
        tags,
        operationId: 'deleteFlow',
        summary: 'Delete a flow',
        description:
          'Deletes the flow and its versions. Its live enrollments end as canceled (reason flow_deleted) and stay as history.',
        params: FlowParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await flows.deleteFlow(authOf(request).teamId, request.params.flowUuid);
      return reply.code(204).send(null);
    },
  );

  for (const move of moves) {
    app.put(
      `/flows/api/flows/:flowUuid/${move.path}`,
      {
        schema: {
          tags,
          operationId: move.operationId,
          summary: move.summary,
          description: move.description,
          params: FlowParams,
          response: { 200: FlowDetail },
        },
      },
      async (request) => flows[move.path](authOf(request).teamId, request.params.flowUuid),
    );
  }
};
