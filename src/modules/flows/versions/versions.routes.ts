import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { NoContent, UuidParams } from '../../../http/schemas.js';
import {
  ContactSource,
  FlowUuidParams,
  FlowVersion,
  FlowVersionList,
  NodeTypesList,
  SavedFlowVersion,
  SaveVersionBody,
  ValidateContactSourceBody,
  ValidateNodeBody,
} from './versions.schemas.js';
import type { FlowVersionsService } from './versions.service.js';

export const flowVersionsRoutes: FastifyPluginAsyncTypebox<{ versions: FlowVersionsService }> = async (
  app,
  { versions },
) => {
  const tags = ['Flow versions'];

  app.get(
    '/flows/api/flows/:flowUuid/flow-versions',
    {
      schema: {
        tags,
        operationId: 'listFlowVersions',
        summary: "List a flow's versions",
        params: FlowUuidParams,
        response: { 200: FlowVersionList },
      },
    },
    async (request) => versions.listVersions(authOf(request).teamId, request.params.flowUuid),
  );

  app.post(
    '/flows/api/flows/:flowUuid/flow-versions',
    {
      schema: {
        tags,
        operationId: 'saveFlowVersion',
        summary: 'Save a new version (it becomes the active one)',
        description:
          'Validates the whole tree (one 422 lists every problem by node or contact source id), stores it and makes ' +
          'it the active version. Live enrollments at a node the new version keeps (same id, same type) continue ' +
          'there; the others end as canceled (reason node_removed). The answer counts both.',
        params: FlowUuidParams,
        body: SaveVersionBody,
        response: { 201: SavedFlowVersion },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await versions.saveVersion(authOf(request).teamId, request.params.flowUuid, request.body)),
  );

  app.get(
    '/flows/api/flow-versions/node-types',
    {
      schema: {
        tags,
        operationId: 'listFlowNodeTypes',
        summary: 'The node type catalogue',
        description:
          'Every node type a version accepts: category, branch ids, whether it needs a sender, and the JSON Schema of its payload.',
        response: { 200: NodeTypesList },
      },
    },
    async () => versions.nodeTypes(),
  );

  app.post(
    '/flows/api/flow-versions/validate-node',
    {
      schema: {
        tags,
        operationId: 'validateFlowNode',
        summary: 'Validate one node',
        description:
          'Checks what one node can be checked for on its own: a known type, its payload, the branch ids of its ' +
          'outgoing edges and the records its payload names. 204 when valid; 422 lists the problems.',
        body: ValidateNodeBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await versions.validateNode(authOf(request).teamId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/flows/api/flow-versions/validate-contact-source',
    {
      schema: {
        tags,
        operationId: 'validateFlowContactSource',
        summary: 'Validate one contact source',
        description:
          'Checks its senders exist and its filter compiles; answers the source as it would be stored.',
        body: ValidateContactSourceBody,
        response: { 200: ContactSource },
      },
    },
    async (request) => versions.validateContactSource(authOf(request).teamId, request.body),
  );

  app.get(
    '/flows/api/flow-versions/:uuid',
    {
      schema: {
        tags,
        operationId: 'getFlowVersion',
        summary: 'Get a flow version',
        params: UuidParams,
        response: { 200: FlowVersion },
      },
    },
    async (request) => versions.getVersion(authOf(request).teamId, request.params.uuid),
  );

  app.delete(
    '/flows/api/flow-versions/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteFlowVersion',
        summary: 'Delete a flow version',
        description: 'The active version of a flow answers 422.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await versions.deleteVersion(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
