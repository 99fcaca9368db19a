import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { UuidParams } from '../../../http/schemas.js';
import { workspaceFilterFields } from './workspaces.repository.js';
import {
  CreateFlowWorkspaceBody,
  FlowWorkspace,
  FlowWorkspacePage,
  FlowWorkspacesQuery,
  UpdateFlowWorkspaceBody,
} from './workspaces.schemas.js';
import type { FlowWorkspacesService } from './workspaces.service.js';

export const flowWorkspacesRoutes: FastifyPluginAsyncTypebox<{ workspaces: FlowWorkspacesService }> = async (
  app,
  { workspaces },
) => {
  const tags = ['Flow workspaces'];

  app.get(
    '/flows/api/flow-workspaces',
    {
      config: { filterFields: Object.keys(workspaceFilterFields) },
      schema: {
        tags,
        operationId: 'listFlowWorkspaces',
        summary: 'List flow workspaces (folders)',
        querystring: FlowWorkspacesQuery,
        response: { 200: FlowWorkspacePage },
      },
    },
    async (request) => workspaces.listWorkspaces(authOf(request).teamId, request.query),
  );

  app.post(
    '/flows/api/flow-workspaces',
    {
      schema: {
        tags,
        operationId: 'createFlowWorkspace',
        summary: 'Create a flow workspace',
        body: CreateFlowWorkspaceBody,
        response: { 201: FlowWorkspace },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      return reply.code(201).send(await workspaces.createWorkspace({ teamId, userId }, request.body));
    },
  );

  app.put(
    '/flows/api/flow-workspaces/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateFlowWorkspace',
        summary: 'Update a flow workspace',
        params: UuidParams,
        body: UpdateFlowWorkspaceBody,
        response: { 200: FlowWorkspace },
      },
    },
    async (request) => workspaces.updateWorkspace(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/flows/api/flow-workspaces/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteFlowWorkspace',
        summary: 'Delete a flow workspace',
        description: 'Answers the deleted workspace (200). Its flows stay, in no workspace.',
        params: UuidParams,
        response: { 200: FlowWorkspace },
      },
    },
    async (request) => workspaces.deleteWorkspace(authOf(request).teamId, request.params.uuid),
  );
};
