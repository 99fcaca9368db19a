// The hosted service's AI API (/ai/api/...), used by its MCP server: LLM connections, agents, ask, LLM
// logs and the paged variables list. Templates under /ai/api/templates are the AI templates' own routes
// (aliases registered by ai-templates.routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import type { AiTemplatesService } from '../ai-templates/ai-templates.service.js';
import {
  pageOfVariables,
  VARIABLE_FILTER_KEYS,
  VariablePage,
  VariablesDescription,
  VariablesQuery,
} from './variables.js';

export const aiRoutes: FastifyPluginAsyncTypebox<{ aiTemplates: AiTemplatesService }> = async (
  app,
  { aiTemplates },
) => {
  app.get(
    '/ai/api/variables',
    {
      config: { filterFields: VARIABLE_FILTER_KEYS },
      schema: {
        tags: ['AI'],
        operationId: 'listAiVariables',
        summary: 'List the variables AI templates can use',
        description: VariablesDescription,
        querystring: VariablesQuery,
        response: { 200: VariablePage },
      },
    },
    async (request) => pageOfVariables(await aiTemplates.templateVariables(authOf(request)), request.query),
  );
};
