import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type PathAlias, withAliases } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { aiTemplateFilterFields } from './ai-templates.repository.js';
import {
  AiTemplate,
  AiTemplatePage,
  AiTemplatesQuery,
  CreateAiTemplateBody,
  RenderAiTemplateBody,
  RenderAnswer,
  TemplateVariableList,
  UpdateAiTemplateBody,
} from './ai-templates.schemas.js';
import type { AiTemplatesService } from './ai-templates.service.js';

/** The hosted service's AI API paths of the same templates (used by the hosted MCP server). */
const ALIASES: PathAlias[] = [
  { path: '/flows/api/ai-templates', alias: '/ai/api/templates', operationSuffix: 'Ai' },
];

export const aiTemplatesRoutes: FastifyPluginAsyncTypebox<{ aiTemplates: AiTemplatesService }> = async (
  instance,
  { aiTemplates },
) => {
  const app = withAliases(instance, ALIASES);
  const tags = ['AI templates'];

  app.get(
    '/flows/api/ai-templates',
    {
      config: { filterFields: Object.keys(aiTemplateFilterFields) },
      schema: {
        tags,
        operationId: 'listAiTemplates',
        summary: 'List AI templates',
        description:
          'Your team\u2019s public templates and your own private ones. filter[q] searches the name.',
        querystring: AiTemplatesQuery,
        response: { 200: AiTemplatePage },
      },
    },
    async (request) => aiTemplates.listAiTemplates(authOf(request), request.query),
  );

  app.post(
    '/flows/api/ai-templates',
    {
      schema: {
        tags,
        operationId: 'createAiTemplate',
        summary: 'Create an AI template',
        description:
          'name is required; type defaults to message and is_public (0 or 1) to 1. Template fields (subject, body, fallback_body, ' +
          'prompt, validation_prompt) are parsed: a syntax error is a 422 naming the field.',
        body: CreateAiTemplateBody,
        response: { 201: AiTemplate },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await aiTemplates.createAiTemplate(authOf(request), request.body)),
  );

  app.post(
    '/flows/api/ai-templates/render',
    {
      schema: {
        tags,
        operationId: 'renderAiTemplate',
        summary: 'Render an AI template for a contact',
        description:
          'Fills the template with the contact\u2019s, its company\u2019s, custom field and sender variables ' +
          '(Liquid and spintax). With a prompt and a configured LLM (LEADFLOW_LLM_*), the rendered prompt ' +
          'goes to the LLM, its answer is checked (enable_validation) and, when it fails, the fallback is ' +
          'used (enable_fallback; always without an LLM). lead_uuid and sender_profile_uuid must be yours.',
        body: RenderAiTemplateBody,
        response: { 200: RenderAnswer, 404: errorResponse(404, 'no AI template of your team has that uuid') },
      },
    },
    async (request) => aiTemplates.renderAiTemplate(authOf(request), request.body),
  );

  app.get(
    '/flows/api/ai-templates/variables',
    {
      schema: {
        tags,
        operationId: 'listTemplateVariables',
        summary: 'The variables a message template can use',
        description:
          "Contact, company, sender and the team's custom-field variables (the names POST /flows/api/ai-templates/render " +
          'and the automations fill), for editors that complete them.',
        response: { 200: TemplateVariableList },
      },
    },
    async (request) => aiTemplates.templateVariables(authOf(request)),
  );

  app.get(
    '/flows/api/ai-templates/:uuid',
    {
      schema: {
        tags,
        operationId: 'getAiTemplate',
        summary: 'Get an AI template',
        params: UuidParams,
        response: { 200: AiTemplate },
      },
    },
    async (request) => aiTemplates.getAiTemplate(authOf(request), request.params.uuid),
  );

  app.put(
    '/flows/api/ai-templates/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateAiTemplate',
        summary: 'Update an AI template',
        description: 'Only the fields sent change; null clears a field.',
        params: UuidParams,
        body: UpdateAiTemplateBody,
        response: { 200: AiTemplate },
      },
    },
    async (request) => aiTemplates.updateAiTemplate(authOf(request), request.params.uuid, request.body),
  );

  app.delete(
    '/flows/api/ai-templates/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteAiTemplate',
        summary: 'Delete an AI template',
        description: 'The template is gone: afterwards it answers 404 and is not listed.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await aiTemplates.deleteAiTemplate(authOf(request), request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
