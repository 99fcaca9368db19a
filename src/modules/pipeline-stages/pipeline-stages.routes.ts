import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { stageFilterFields } from './pipeline-stages.repository.js';
import {
  CreateStageBody,
  PipelineStage,
  PipelineStagePage,
  PipelineStagesQuery,
  UpdateStageBody,
} from './pipeline-stages.schemas.js';
import type { PipelineStagesService } from './pipeline-stages.service.js';

export const pipelineStagesRoutes: FastifyPluginAsyncTypebox<{
  pipelineStages: PipelineStagesService;
}> = async (app, { pipelineStages }) => {
  const tags = ['Pipeline stages'];

  app.get(
    '/leads/api/pipeline-stages',
    {
      config: { filterFields: Object.keys(stageFilterFields) },
      schema: {
        tags,
        operationId: 'listPipelineStages',
        summary: 'List pipeline stages',
        description:
          'Filter as a JSON string (?filter={"object":"lead","category":"cold"}) or in bracket form ' +
          '(filter[object]=lead). Sorted by order, ascending, unless order_field is given.',
        querystring: PipelineStagesQuery,
        response: { 200: PipelineStagePage },
      },
    },
    async (request) => pipelineStages.listStages(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/pipeline-stages',
    {
      schema: {
        tags,
        operationId: 'createPipelineStage',
        summary: 'Create a custom pipeline stage',
        body: CreateStageBody,
        response: { 201: PipelineStage },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await pipelineStages.createStage(authOf(request).teamId, request.body)),
  );

  app.get(
    '/leads/api/pipeline-stages/:uuid',
    {
      schema: {
        tags,
        operationId: 'getPipelineStage',
        summary: 'Get a pipeline stage',
        params: UuidParams,
        response: { 200: PipelineStage },
      },
    },
    async (request) => pipelineStages.getStage(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/pipeline-stages/:uuid',
    {
      schema: {
        tags,
        operationId: 'updatePipelineStage',
        summary: 'Rename, recategorise or reorder a pipeline stage',
        params: UuidParams,
        body: UpdateStageBody,
        response: { 200: PipelineStage },
      },
    },
    async (request) => pipelineStages.updateStage(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/leads/api/pipeline-stages/:uuid',
    {
      schema: {
        tags,
        operationId: 'deletePipelineStage',
        summary: 'Delete a custom pipeline stage',
        description:
          'Default stages cannot be deleted (422). The stage\u2019s contacts or companies move to the first ' +
          'other stage of the same object and category (by order) in the same transaction.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await pipelineStages.deleteStage(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
