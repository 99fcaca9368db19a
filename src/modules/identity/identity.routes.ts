import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent } from '../../http/schemas.js';
import { resolvePage } from '../../lib/pagination.js';
import { apiKeySort, teamSort } from './identity.repository.js';
import {
  ApiKeyListQuery,
  ApiKeyPage,
  ApiKeyParams,
  CreateApiKeyBody,
  CreatedApiKey,
  Team,
  TeamList,
  TeamListQuery,
  TeamParams,
  User,
} from './identity.schemas.js';
import { type IdentityService, MAX_ACTIVE_API_KEYS } from './identity.service.js';

export const identityRoutes: FastifyPluginAsyncTypebox<{ identity: IdentityService }> = async (
  app,
  { identity },
) => {
  const tags = ['Users and teams'];

  app.get(
    '/id/api/users/current',
    {
      schema: {
        tags,
        operationId: 'getCurrentUser',
        summary: 'The user owning the API key',
        response: { 200: User },
      },
    },
    async (request) => identity.getCurrentUser(authOf(request).userId),
  );

  app.get(
    '/id/api/teams',
    {
      schema: {
        tags,
        operationId: 'listTeams',
        summary: 'Teams the user belongs to',
        querystring: TeamListQuery,
        response: { 200: TeamList },
      },
    },
    async (request) => identity.listTeams(authOf(request).userId, resolvePage(request.query, teamSort)),
  );

  app.get(
    '/id/api/teams/:id',
    {
      schema: {
        tags,
        operationId: 'getTeam',
        summary: 'One team (404 unless you are a member)',
        params: TeamParams,
        response: { 200: Team },
      },
    },
    async (request) => identity.getTeam(authOf(request).userId, request.params.id),
  );

  app.post(
    '/id/api/jwt-tokens/create-api-key',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create another API key for the current user (the secret is shown once)',
        description: `A user holds at most ${MAX_ACTIVE_API_KEYS} active keys; one more is a 409 until one is revoked.`,
        body: CreateApiKeyBody,
        response: { 200: CreatedApiKey, 409: errorResponse(409, 'you hold the most active keys a user may') },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return identity.createApiKey(auth.userId, auth.teamId, request.body.name);
    },
  );

  app.get(
    '/id/api/api-keys',
    {
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'The current user\u2019s API keys (never their secrets)',
        description: 'Revoked keys are listed too (revoked_at set). Newest first by default.',
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyPage },
      },
    },
    async (request) => identity.listApiKeys(authOf(request).userId, resolvePage(request.query, apiKeySort)),
  );

  app.delete(
    '/id/api/api-keys/:id',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke one of your API keys; it stops working within seconds',
        params: ApiKeyParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await identity.revokeApiKey(authOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
