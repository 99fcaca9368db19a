// /ai/api/llms: a team's LLM connections. Changing one (it holds an API key) is for team owners.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { llmFilterFields } from './llms.repository.js';
import {
  CreateLlmBody,
  GenerateBody,
  Llm,
  LlmAnswer,
  LlmMetrics,
  LlmMetricsBody,
  LlmPage,
  LlmsQuery,
  LlmTestAnswer,
  UpdateLlmBody,
} from './llms.schemas.js';
import type { LlmsService } from './llms.service.js';

const tags = ['AI'];
const unavailable = errorResponse(503, 'the LLM endpoint failed, timed out or is not configured');

export const llmsRoutes: FastifyPluginAsyncTypebox<{ llms: LlmsService }> = async (app, { llms }) => {
  app.get(
    '/ai/api/llms',
    {
      config: { filterFields: Object.keys(llmFilterFields) },
      schema: {
        tags,
        operationId: 'listLlms',
        summary: 'List LLM connections',
        description:
          'The team\u2019s LLM connections. API keys are never answered (has_api_key, api_key_last4).',
        querystring: LlmsQuery,
        response: { 200: LlmPage },
      },
    },
    async (request) => llms.listLlms(authOf(request).teamId, request.query),
  );

  app.post(
    '/ai/api/llms',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'createLlm',
        summary: 'Connect an LLM',
        description:
          'An OpenAI-compatible chat endpoint for the team: provider (its endpoint and a small model by ' +
          'default), or openai_compatible with base_url and model. provider_api_token is stored encrypted ' +
          'and never shown again. The team\u2019s first connection becomes its default: every AI feature ' +
          '(template renders, flow steps, ask) uses it unless it names another; without one, LEADFLOW_LLM_*. ' +
          'base_url must not point at a private or loopback address (LEADFLOW_OUTBOUND_*).',
        body: CreateLlmBody,
        response: { 201: Llm },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      return reply.code(201).send(await llms.createLlm(teamId, userId, request.body));
    },
  );

  app.post(
    '/ai/api/llms/metrics',
    {
      schema: {
        tags,
        operationId: 'llmMetrics',
        summary: 'Call counts of LLM connections',
        description:
          'Per connection, from the LLM log: calls, succeeded, failed, tokens in and out over the period ' +
          '(default all the log keeps), and this month\u2019s calls.',
        body: LlmMetricsBody,
        response: { 200: LlmMetrics },
      },
    },
    async (request) => llms.metrics(authOf(request).teamId, request.body),
  );

  app.get(
    '/ai/api/llms/:uuid',
    {
      schema: {
        tags,
        operationId: 'getLlm',
        summary: 'Get an LLM connection',
        params: UuidParams,
        response: { 200: Llm },
      },
    },
    async (request) => llms.getLlm(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/ai/api/llms/:uuid',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'updateLlm',
        summary: 'Update an LLM connection',
        description:
          'Only the fields sent change. A new provider brings its endpoint and model unless given.',
        params: UuidParams,
        body: UpdateLlmBody,
        response: { 200: Llm },
      },
    },
    async (request) => llms.updateLlm(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/ai/api/llms/:uuid',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'deleteLlm',
        summary: 'Delete an LLM connection',
        description:
          'Templates and agents naming it fall back to the team\u2019s default; deleting the default makes the ' +
          'oldest remaining connection the default.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await llms.deleteLlm(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/ai/api/llms/:uuid/test',
    {
      schema: {
        tags,
        operationId: 'testLlm',
        summary: 'Test an LLM connection',
        description:
          'One short call through the connection; the outcome is answered, kept on it (last_test_*) and logged.',
        params: UuidParams,
        response: { 200: LlmTestAnswer },
      },
    },
    async (request) => llms.testLlm(authOf(request).teamId, request.params.uuid),
  );

  app.post(
    '/ai/api/llms/:uuid/generate',
    {
      schema: {
        tags,
        operationId: 'generateWithLlm',
        summary: 'Generate with an LLM connection',
        description:
          'Sends the messages to the connection (config overrides its model and sampling) and answers the ' +
          'text; a failed call is a 503 saying why. Logged (source generate).',
        params: UuidParams,
        body: GenerateBody,
        response: { 200: LlmAnswer, 503: unavailable },
      },
    },
    async (request) => llms.generate(authOf(request).teamId, request.params.uuid, request.body),
  );
};
