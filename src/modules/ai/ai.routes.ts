// The hosted service's AI API (/ai/api/...), used by its MCP server: AI agents (documented at
// /flows/api/ai-agents, aliased at /ai/api/agents), ask, the LLM log and the paged variables list. LLM
// connections are llms.routes.ts; templates under /ai/api/templates are the AI templates' own routes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type PathAlias, withAliases } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import type { AiTemplatesService } from '../ai-templates/ai-templates.service.js';
import {
  AiAgent,
  AiAgentPage,
  AiAgentsQuery,
  agentFilterFields,
  CreateAiAgentBody,
  UpdateAiAgentBody,
} from './agents.js';
import type { AiModule } from './ai.module.js';
import { AskBody } from './ask.js';
import { LlmLog, LlmLogPage, LlmLogsQuery, llmLogFilterFields } from './llm-logs.js';
import { LlmAnswer } from './llms.schemas.js';
import {
  pageOfVariables,
  VARIABLE_FILTER_KEYS,
  VariablePage,
  VariablesDescription,
  VariablesQuery,
} from './variables.js';

const ALIASES: PathAlias[] = [
  { path: '/flows/api/ai-agents', alias: '/ai/api/agents', operationSuffix: 'Ai' },
];
const tags = ['AI'];

export const aiRoutes: FastifyPluginAsyncTypebox<{ ai: AiModule; aiTemplates: AiTemplatesService }> = async (
  instance,
  { ai, aiTemplates },
) => {
  const app = withAliases(instance, ALIASES);

  app.get(
    '/ai/api/variables',
    {
      config: { filterFields: VARIABLE_FILTER_KEYS },
      schema: {
        tags,
        operationId: 'listAiVariables',
        summary: 'List the variables AI templates can use',
        description: VariablesDescription,
        querystring: VariablesQuery,
        response: { 200: VariablePage },
      },
    },
    async (request) => pageOfVariables(await aiTemplates.templateVariables(authOf(request)), request.query),
  );

  app.post(
    '/ai/api/ask',
    {
      schema: {
        tags,
        operationId: 'askAi',
        summary: 'Ask the team\u2019s LLM a question',
        description:
          'A one-shot question to the team\u2019s default LLM connection (or llm_uuid), else LEADFLOW_LLM_*; ' +
          'with lead_uuid (or context.lead_uuid) the contact\u2019s fields, company and custom fields go along. ' +
          'Answers the text in answer (and text); a failed call is a 503, no LLM at all a 422. Logged (source ask).',
        body: AskBody,
        response: {
          200: Type.Object({ answer: Type.String({ description: 'The answer' }), ...LlmAnswer.properties }),
          503: errorResponse(503, 'the LLM failed or timed out'),
        },
      },
    },
    async (request) => ai.ask(authOf(request).teamId, request.body),
  );

  app.get(
    '/ai/api/llm-logs',
    {
      config: { filterFields: Object.keys(llmLogFilterFields) },
      schema: {
        tags,
        operationId: 'listLlmLogs',
        summary: 'List LLM calls',
        description:
          'Every LLM call made for the team - template renders and validations, flow steps, ask, generate, ' +
          'tests - newest first by default, kept as long as events (LEADFLOW_EVENT_RETENTION_DAYS).',
        querystring: LlmLogsQuery,
        response: { 200: LlmLogPage },
      },
    },
    async (request) => ai.logs.listLlmLogs(authOf(request).teamId, request.query),
  );

  app.get(
    '/ai/api/llm-logs/:uuid',
    {
      schema: {
        tags,
        operationId: 'getLlmLog',
        summary: 'Get one LLM call',
        params: UuidParams,
        response: { 200: LlmLog },
      },
    },
    async (request) => ai.logs.getLlmLog(authOf(request).teamId, request.params.uuid),
  );

  app.get(
    '/flows/api/ai-agents',
    {
      config: { filterFields: Object.keys(agentFilterFields) },
      schema: {
        tags,
        operationId: 'listAiAgents',
        summary: 'List AI agents',
        querystring: AiAgentsQuery,
        response: { 200: AiAgentPage },
      },
    },
    async (request) => ai.agents.listAgents(authOf(request).teamId, request.query),
  );

  app.post(
    '/flows/api/ai-agents',
    {
      schema: {
        tags,
        operationId: 'createAiAgent',
        summary: 'Create an AI agent',
        description:
          'A named system prompt (classification_prompt) on one of your LLM connections ' +
          '(classification_llm_uuid; default the team\u2019s). Stored and served; nothing runs agents yet.',
        body: CreateAiAgentBody,
        response: { 201: AiAgent },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      return reply.code(201).send(await ai.agents.createAgent(teamId, userId, request.body));
    },
  );

  app.get(
    '/flows/api/ai-agents/:uuid',
    {
      schema: {
        tags,
        operationId: 'getAiAgent',
        summary: 'Get an AI agent',
        params: UuidParams,
        response: { 200: AiAgent },
      },
    },
    async (request) => ai.agents.getAgent(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/flows/api/ai-agents/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateAiAgent',
        summary: 'Update an AI agent',
        params: UuidParams,
        body: UpdateAiAgentBody,
        response: { 200: AiAgent },
      },
    },
    async (request) => ai.agents.updateAgent(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/flows/api/ai-agents/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteAiAgent',
        summary: 'Delete an AI agent',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await ai.agents.deleteAgent(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
