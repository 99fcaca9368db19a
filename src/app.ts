// buildApp: the HTTP application as a plugin tree - infrastructure first (errors, docs, query parsing,
// auth, rate limit, operations), then one route plugin per API area. No listening here.
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Services } from './deps.js';
import { registerAuth } from './http/auth.js';
import { registerErrorHandling } from './http/error-handler.js';
import { AJV_FORMATS } from './http/formats.js';
import { nulCharacterError } from './http/nul-characters.js';
import { registerOpenApi } from './http/openapi.js';
import { createMetricsRegistry, registerOperations } from './http/operations.js';
import { parseQueryString, registerQueryHandling } from './http/query.js';
import { registerRateLimit } from './http/rate-limit.js';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH, registerRouting } from './http/routing.js';
import { type SchemaCompilation, serializerFactory } from './http/schema-compilers.js';
import { registerSchemaRules } from './http/schema-rules.js';
import { validatorCompilerFor } from './http/validation.js';
import { registerWebApp } from './http/web-app.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { activitiesRoutes } from './modules/activities/activities.routes.js';
import { aiRoutes } from './modules/ai/ai.routes.js';
import { llmsRoutes } from './modules/ai/llms.routes.js';
import { aiTemplatesRoutes } from './modules/ai-templates/ai-templates.routes.js';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { blacklistsRoutes } from './modules/blacklists/blacklists.routes.js';
import { browsersRoutes } from './modules/browsers/browsers.routes.js';
import { liveViewRoutes } from './modules/browsers/live-view/live-view.routes.js';
import { bulkOperationsRoutes } from './modules/bulk-operations/bulk-operations.routes.js';
import { companiesRoutes } from './modules/companies/companies.routes.js';
import { customFieldsRoutes } from './modules/custom-fields/custom-fields.routes.js';
import { dataSourcesRoutes } from './modules/data-sources/data-sources.routes.js';
import { emailModuleRoutes } from './modules/email/email.module.js';
import { enrichmentRoutes } from './modules/enrichment/enrichment.routes.js';
import { contactExportMassAction } from './modules/files/contact-export.js';
import { fileExportsRoutes } from './modules/files/exports.routes.js';
import { fileImportsRoutes } from './modules/files/imports.routes.js';
import { flowsModuleRoutes } from './modules/flows/flows.module.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { inboxRoutes } from './modules/inbox/inbox.routes.js';
import { leadsRoutes } from './modules/leads/leads.routes.js';
import { leadsBulkRoutes } from './modules/leads/leads-bulk.routes.js';
import { linkedInMessagesRoutes } from './modules/linkedin-messages/linkedin-messages.routes.js';
import { listsRoutes } from './modules/lists/lists.routes.js';
import { notesRoutes } from './modules/notes/notes.routes.js';
import { pipelineStagesRoutes } from './modules/pipeline-stages/pipeline-stages.routes.js';
import { savedViewsRoutes } from './modules/saved-views/saved-views.routes.js';
import { sendersRoutes } from './modules/senders/senders.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { tasksRoutes } from './modules/tasks/tasks.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { version } from './version.js';

export type AppDeps = {
  config: Config;
  db: Database;
  services: Services;
  logger: Logger;
  metrics?: Registry;
  /** The built web application (default: dist/web of this checkout). */
  webDir?: string;
  /** When route schemas compile: on first use (default, quick starts) or all at start (a test's check). */
  schemaCompilation?: SchemaCompilation;
};

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const compilation = deps.schemaCompilation ?? 'lazy';
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: parseQueryString,
      maxParamLength: MAX_PARAM_LENGTH,
    },
    frameworkErrors,
    clientErrorHandler,
    // Response serializers pick anyOf branches with their own Ajv: it needs our formats too, or it warns
    // `unknown format "time-zone" ignored` on the console.
    serializerOpts: { ajv: { formats: AJV_FORMATS } },
    schemaController: { compilersFactory: { buildSerializer: serializerFactory(compilation) } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompilerFor(compilation));
  // Clients often send `Content-Type: application/json` on bodiless requests (DELETE): an empty body is
  // "no body", not malformed JSON. Everything else goes to Fastify's own (prototype-safe) parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      const nul = text.includes('\\u0000') ? nulCharacterError(parsed) : undefined;
      return nul ? done(nul, undefined) : done(null, parsed);
    });
  });
  // No text/plain parser: a JSON route sent text answers 415, not a 422 about the body's type.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  registerRouting(app);
  registerSchemaRules(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  await registerOpenApi(app, version);
  registerQueryHandling(app);
  await app.register(cookie);
  registerAuth(app, {
    identify: services.identity.identifyApiKey,
    touch: services.identity.touchApiKey,
    identifySession: services.accounts.identifySession,
    requireOwner: services.accounts.requireOwner,
  });
  await registerRateLimit(app, { perMinute: config.rateLimitPerMinute, redisUrl: config.redisUrl });
  registerOperations(app, { db: deps.db, metrics: deps.metrics ?? createMetricsRegistry() });
  // WebSocket routes (the public login live view); messages are small input events.
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });

  await app.register(identityRoutes, { identity: services.identity });
  await app.register(accountsRoutes, {
    accounts: services.accounts,
    secureCookies: config.publicUrl.startsWith('https:'),
    publicAttemptsPerMinute: config.signInAttemptsPerMinute,
  });
  await app.register(listsRoutes, { lists: services.lists });
  await app.register(leadsRoutes, { leads: services.leads });
  await app.register(leadsBulkRoutes, {
    leads: services.leads,
    contactExport: contactExportMassAction(services.files.exports),
  });
  await app.register(bulkOperationsRoutes, { bulkOperations: services.bulkOperations });
  await app.register(tagsRoutes, { tags: services.tags });
  await app.register(pipelineStagesRoutes, { pipelineStages: services.pipelineStages });
  await app.register(customFieldsRoutes, { customFields: services.customFields });
  await app.register(notesRoutes, { notes: services.notes });
  await app.register(activitiesRoutes, { activities: services.activities });
  await app.register(inboxRoutes, { inbox: services.inbox });
  await app.register(savedViewsRoutes, { savedViews: services.savedViews });
  await app.register(blacklistsRoutes, { blacklists: services.blacklists });
  await app.register(companiesRoutes, { companies: services.companies });
  await app.register(webhooksRoutes, { webhooks: services.webhooks });
  await app.register(fileImportsRoutes, { files: services.files });
  await app.register(fileExportsRoutes, { files: services.files });
  await app.register(sendersRoutes, { senders: services.senders });
  await app.register(flowsModuleRoutes, { flows: services.flows });
  await app.register(aiTemplatesRoutes, { aiTemplates: services.aiTemplates });
  await app.register(aiRoutes, { ai: services.ai, aiTemplates: services.aiTemplates });
  await app.register(llmsRoutes, { llms: services.ai.llms });
  await app.register(tasksRoutes, { tasks: services.tasks });
  await app.register(browsersRoutes, { browsers: services.browsers });
  await app.register(liveViewRoutes, { liveView: services.liveView });
  await app.register(attachmentsRoutes, { attachments: services.attachments });
  await app.register(emailModuleRoutes, { email: services.email });
  await app.register(linkedInMessagesRoutes, { linkedinMessages: services.linkedinMessages });
  await app.register(dataSourcesRoutes, { dataSources: services.dataSources });
  await app.register(enrichmentRoutes, { enrichment: services.enrichment });
  await registerWebApp(app, { dir: deps.webDir });
  return app;
}
