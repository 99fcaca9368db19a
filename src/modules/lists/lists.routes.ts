import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { listFilterFields } from './lists.repository.js';
import {
  CreateListBody,
  DeleteListBody,
  DeleteListQuery,
  List,
  ListMetrics,
  ListMetricsBody,
  ListPage,
  ListsQuery,
  UpdateListBody,
} from './lists.schemas.js';
import type { ListsService } from './lists.service.js';

export const listsRoutes: FastifyPluginAsyncTypebox<{ lists: ListsService }> = async (app, { lists }) => {
  const tags = ['Lists'];

  app.get(
    '/leads/api/lists',
    {
      config: { filterFields: Object.keys(listFilterFields) },
      schema: {
        tags,
        operationId: 'listLists',
        summary: 'List lists',
        querystring: ListsQuery,
        response: { 200: ListPage },
      },
    },
    async (request) => lists.listLists(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/lists',
    {
      schema: {
        tags,
        operationId: 'createList',
        summary: 'Create a list',
        body: CreateListBody,
        response: { 201: List },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await lists.createList(authOf(request).teamId, request.body.name)),
  );

  app.get(
    '/leads/api/lists/:uuid',
    {
      schema: {
        tags,
        operationId: 'getList',
        summary: 'Get a list',
        params: UuidParams,
        response: { 200: List },
      },
    },
    async (request) => lists.getList(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/lists/:uuid',
    {
      schema: {
        tags,
        operationId: 'renameList',
        summary: 'Rename a list',
        params: UuidParams,
        body: UpdateListBody,
        response: { 200: List },
      },
    },
    async (request) => lists.renameList(authOf(request).teamId, request.params.uuid, request.body.name),
  );

  app.delete(
    '/leads/api/lists/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteList',
        summary: 'Delete a list',
        description:
          'A list that still holds contacts is refused with 409 unless move_to_list_uuid (its contacts move ' +
          'there) or delete_contacts: true is given, in the JSON body or the query string.',
        params: UuidParams,
        querystring: DeleteListQuery,
        body: DeleteListBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await lists.deleteList(authOf(request).teamId, request.params.uuid, {
        ...request.query,
        ...(request.body ?? {}),
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/leads/api/lists/metrics',
    {
      schema: {
        tags,
        operationId: 'listMetrics',
        summary: 'Lead counts per list',
        body: ListMetricsBody,
        response: { 200: ListMetrics },
      },
    },
    async (request) => lists.listMetrics(authOf(request).teamId, request.body.uuids),
  );
};
