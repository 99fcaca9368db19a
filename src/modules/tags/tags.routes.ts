import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { tagFilterFields } from './tags.repository.js';
import {
  CreateTagBody,
  Tag,
  TagMetrics,
  TagMetricsBody,
  TagPage,
  TagsQuery,
  UpdateTagBody,
} from './tags.schemas.js';
import type { TagsService } from './tags.service.js';

export const tagsRoutes: FastifyPluginAsyncTypebox<{ tags: TagsService }> = async (
  app,
  { tags: service },
) => {
  const tags = ['Tags'];

  app.get(
    '/leads/api/tags',
    {
      config: { filterFields: Object.keys(tagFilterFields) },
      schema: {
        tags,
        operationId: 'listTags',
        summary: 'List tags',
        querystring: TagsQuery,
        response: { 200: TagPage },
      },
    },
    async (request) => service.listTags(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/tags',
    {
      schema: {
        tags,
        operationId: 'createTag',
        summary: 'Create a tag',
        description: 'Tag names are unique within a team, case-insensitively: a taken name is a 409.',
        body: CreateTagBody,
        response: { 201: Tag },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createTag(authOf(request).teamId, request.body)),
  );

  app.get(
    '/leads/api/tags/:uuid',
    {
      schema: {
        tags,
        operationId: 'getTag',
        summary: 'Get a tag',
        params: UuidParams,
        response: { 200: Tag },
      },
    },
    async (request) => service.getTag(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/tags/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateTag',
        summary: 'Rename or recolour a tag',
        params: UuidParams,
        body: UpdateTagBody,
        response: { 200: Tag },
      },
    },
    async (request) => service.updateTag(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/leads/api/tags/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteTag',
        summary: 'Delete a tag',
        description: 'The tag is also removed from every contact and company that carries it.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await service.deleteTag(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/leads/api/tags/metrics',
    {
      schema: {
        tags,
        operationId: 'tagMetrics',
        summary: 'Contact and company counts per tag',
        body: TagMetricsBody,
        response: { 200: TagMetrics },
      },
    },
    async (request) => service.tagMetrics(authOf(request).teamId, request.body.uuids, request.body.metrics),
  );
};
