import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { savedViewFilterFields } from './saved-views.repository.js';
import {
  CreateSavedViewBody,
  SavedView,
  SavedViewPageSchema,
  SavedViewsQuery,
  UpdateSavedViewBody,
} from './saved-views.schemas.js';
import type { SavedViewsService } from './saved-views.service.js';

const ownerOf = (request: FastifyRequest) => {
  const { teamId, userId } = authOf(request);
  return { teamId, userId };
};

export const savedViewsRoutes: FastifyPluginAsyncTypebox<{ savedViews: SavedViewsService }> = async (
  app,
  { savedViews },
) => {
  const tags = ['Saved views'];
  const scope =
    ' A view belongs to the user who saved it, in the request\u2019s team: another user\u2019s view is a 404.';

  app.get(
    '/id/api/saved-views',
    {
      config: { filterFields: Object.keys(savedViewFilterFields) },
      schema: {
        tags,
        operationId: 'listSavedViews',
        summary: 'List my saved views',
        description: `The caller's saved views of the web application's tables (filter[page] picks one).${scope}`,
        querystring: SavedViewsQuery,
        response: { 200: SavedViewPageSchema },
      },
    },
    async (request) => savedViews.list(ownerOf(request), request.query),
  );

  app.post(
    '/id/api/saved-views',
    {
      schema: {
        tags,
        operationId: 'createSavedView',
        summary: 'Save a view',
        description: `A name taken by another of the user's views of the page is a 422 naming name.${scope}`,
        body: CreateSavedViewBody,
        response: { 201: SavedView },
      },
    },
    async (request, reply) => reply.code(201).send(await savedViews.create(ownerOf(request), request.body)),
  );

  app.get(
    '/id/api/saved-views/:uuid',
    {
      schema: {
        tags,
        operationId: 'getSavedView',
        summary: 'Get a saved view',
        description: scope.trim(),
        params: UuidParams,
        response: { 200: SavedView },
      },
    },
    async (request) => savedViews.get(ownerOf(request), request.params.uuid),
  );

  app.put(
    '/id/api/saved-views/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateSavedView',
        summary: 'Rename or update a saved view',
        description: `Changes the fields given; the page stays.${scope}`,
        params: UuidParams,
        body: UpdateSavedViewBody,
        response: { 200: SavedView },
      },
    },
    async (request) => savedViews.update(ownerOf(request), request.params.uuid, request.body),
  );

  app.delete(
    '/id/api/saved-views/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteSavedView',
        summary: 'Delete a saved view',
        description: scope.trim(),
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await savedViews.remove(ownerOf(request), request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
