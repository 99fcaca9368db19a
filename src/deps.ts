// Composition root: every module's service is created here with its explicit dependencies, and every
// module's job handlers are merged into the one catalog the workers run. What a process shares
// (LLM clients, secret box, seat browsers) is in deps/process.ts; the channels - seat driver kinds, the
// engine, the LinkedIn readers and message sync - in deps/channels.ts. Both are re-exported here: the
// CLI, tests and benches import the composition root from this file only.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createLinkedInReaders, linkedInMessageDeps } from './deps/channels.js';
import { llmClientOf, seatBrowsersOf, secretBoxOf, teamLlmsOf } from './deps/process.js';
import type { JobHandler } from './jobs/queue.js';
import type { Clock } from './lib/clock.js';
import { outboundGuard, outboundPolicy } from './lib/net/outbound.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { deleteActivitiesOfLeads } from './modules/activities/activities.repository.js';
import { createActivitiesService } from './modules/activities/activities.service.js';
import { createAiModule } from './modules/ai/ai.module.js';
import { pruneLlmLogsHandler } from './modules/ai/llm-logs.js';
import { selectExistingAiTemplateUuids } from './modules/ai-templates/ai-templates.repository.js';
import { createAiTemplatesService } from './modules/ai-templates/ai-templates.service.js';
import { createAttachmentsService } from './modules/attachments/attachments.service.js';
import { createBlacklistsService } from './modules/blacklists/blacklists.service.js';
import { createBrowsersService } from './modules/browsers/browsers.service.js';
import { createLiveView } from './modules/browsers/live-view/live-view.service.js';
import { seatHealthJobHandlers } from './modules/browsers/seat-health.jobs.js';
import { runBulkOperationHandler } from './modules/bulk-operations/bulk-operations.jobs.js';
import { createBulkOperationsService } from './modules/bulk-operations/bulk-operations.service.js';
import { companyMassActionRunner } from './modules/companies/companies.mass-actions.js';
import { createCompaniesService } from './modules/companies/companies.service.js';
import { customFieldJobHandlers } from './modules/custom-fields/custom-fields.jobs.js';
import { createCustomFieldsService } from './modules/custom-fields/custom-fields.service.js';
import {
  dataSourceJobHandler,
  resumeStalledDataSourcesHandler,
} from './modules/data-sources/data-sources.jobs.js';
import { createDataSourcesService } from './modules/data-sources/data-sources.service.js';
import { createEmailModule } from './modules/email/email.module.js';
import { createTemplateRenderer } from './modules/engine/index.js';
import { grantCredits } from './modules/enrichment/credits.js';
import { createEnrichmentService } from './modules/enrichment/enrichment.service.js';
import { enrichmentJobHandlers } from './modules/enrichment/enrichment.worker.js';
import { pruneEventsHandler } from './modules/events/events.retention.js';
import { createFilesService } from './modules/files/files.service.js';
import { endEnrollmentsOfDeletedLeads } from './modules/flows/enrollments/enrollment-ends.js';
import { createFlowsModule } from './modules/flows/flows.module.js';
import { createAuthCache } from './modules/identity/auth-cache.js';
import { createIdentityService } from './modules/identity/identity.service.js';
import { createInboxService } from './modules/inbox/inbox.service.js';
import { purgeDeletedLeadsHandler } from './modules/leads/lead-deletion.js';
import { leadMassActionRunner } from './modules/leads/leads.mass-actions.js';
import { createLeadsService } from './modules/leads/leads.service.js';
import { linkedInMessageJobHandlers } from './modules/linkedin-messages/linkedin-messages.jobs.js';
import { createLinkedInMessagesService } from './modules/linkedin-messages/linkedin-messages.service.js';
import { createListsService } from './modules/lists/lists.service.js';
import { createNotesService, purgeNotesOfDeletedLeads } from './modules/notes/notes.service.js';
import { seedDefaultPipelineStages } from './modules/pipeline-stages/pipeline-stages.defaults.js';
import { createPipelineStagesService } from './modules/pipeline-stages/pipeline-stages.service.js';
import { createSavedViewsService } from './modules/saved-views/saved-views.service.js';
import { createSendersService } from './modules/senders/senders.service.js';
import { tagJobHandlers } from './modules/tags/tags.jobs.js';
import { createTagsService } from './modules/tags/tags.service.js';
import { createTasksRunner } from './modules/tasks/tasks.create-many.js';
import { taskMassMoveRunner } from './modules/tasks/tasks.mass-moves.js';
import { cancelManualTasksOfLeads } from './modules/tasks/tasks.repository.js';
import { createTasksService } from './modules/tasks/tasks.service.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';

export {
  closeChannelMail,
  createAutomationEngine,
  createChannelDrivers,
  createLinkedInReaders,
  type EngineOptions,
  linkedInMessageDeps,
  seatKinds,
} from './deps/channels.js';
export { closeSeatBrowsers, llmClientOf, seatBrowsersOf, secretBoxOf, teamLlmsOf } from './deps/process.js';

export type ServiceDeps = {
  db: Database;
  config: Config;
  clock: Clock;
  /** The process logger (parts that log on their own: the seat browsers). */
  logger?: Logger;
};

export function createServices(deps: ServiceDeps) {
  const authCache = createAuthCache({ ttlMs: deps.config.authCacheTtlMs });
  const identity = createIdentityService({
    db: deps.db,
    onTeamCreated: [seedDefaultPipelineStages],
    grantCredits,
    authCache,
  });
  const accounts = createAccountsService({ db: deps.db, publicUrl: deps.config.publicUrl, authCache });
  const lists = createListsService({ db: deps.db });
  const companies = createCompaniesService({ db: deps.db, config: deps.config });
  const tags = createTagsService({ db: deps.db });
  const pipelineStages = createPipelineStagesService({ db: deps.db });
  const customFields = createCustomFieldsService({ db: deps.db });
  const notes = createNotesService({ db: deps.db });
  const activities = createActivitiesService({ db: deps.db });
  const inbox = createInboxService({ db: deps.db });
  const savedViews = createSavedViewsService({ db: deps.db });
  const blacklists = createBlacklistsService({ db: deps.db });
  const leads = createLeadsService({ db: deps.db, config: deps.config });
  const bulkOperations = createBulkOperationsService({ db: deps.db });
  const webhooks = createWebhooksService(deps);
  const files = createFilesService({ db: deps.db, config: deps.config, clock: deps.clock });
  const senders = createSendersService({ db: deps.db, clock: deps.clock });
  const llm = llmClientOf(deps.config);
  const llms = teamLlmsOf(deps);
  const flows = createFlowsModule({
    db: deps.db,
    references: { ai_template: selectExistingAiTemplateUuids },
    preview: {
      renderer: createTemplateRenderer({ llms }),
      sandbox: deps.config.sandbox,
      engine: deps.config.engine,
    },
  });
  const aiTemplates = createAiTemplatesService({ db: deps.db, llms });
  const ai = createAiModule({
    db: deps.db,
    config: deps.config,
    box: secretBoxOf(deps.config),
    guard: outboundGuard(outboundPolicy(deps.config, 'llm')),
    llms,
  });
  const tasks = createTasksService({ db: deps.db, config: deps.config, clock: deps.clock });
  const browsers = createBrowsersService({
    db: deps.db,
    clock: deps.clock,
    box: secretBoxOf(deps.config),
    publicUrl: deps.config.publicUrl,
    runtime: seatBrowsersOf(deps),
    proxyGuard: outboundGuard(outboundPolicy(deps.config, 'proxy')),
  });
  const liveView = createLiveView({
    db: deps.db,
    clock: deps.clock,
    box: secretBoxOf(deps.config),
    browsers: seatBrowsersOf(deps),
    config: deps.config,
  });
  const attachments = createAttachmentsService({
    db: deps.db,
    store: files.store,
    maxBytes: deps.config.attachmentMaxBytes,
  });
  const email = createEmailModule({ ...deps, box: secretBoxOf(deps.config) });
  const linkedinMessages = createLinkedInMessagesService({ db: deps.db, clock: deps.clock, aiTemplates });
  const dataSources = createDataSourcesService({ db: deps.db, clock: deps.clock });
  const enrichment = createEnrichmentService({ db: deps.db, clock: deps.clock });
  return {
    identity,
    accounts,
    lists,
    companies,
    tags,
    pipelineStages,
    customFields,
    notes,
    activities,
    inbox,
    savedViews,
    blacklists,
    leads,
    bulkOperations,
    webhooks,
    files,
    senders,
    flows,
    aiTemplates,
    ai,
    tasks,
    browsers,
    liveView,
    attachments,
    llm,
    email,
    linkedinMessages,
    dataSources,
    enrichment,
  };
}

export type Services = ReturnType<typeof createServices>;

export function createJobCatalog(services: Services, deps: ServiceDeps): JobHandler[] {
  const readers = createLinkedInReaders(deps);
  return [
    ...services.webhooks.jobs,
    ...services.files.jobs,
    ...services.flows.jobs,
    pruneEventsHandler({ db: deps.db, clock: deps.clock, retentionDays: deps.config.retention.eventDays }),
    pruneLlmLogsHandler({ db: deps.db, clock: deps.clock, retentionDays: deps.config.retention.eventDays }),
    purgeDeletedLeadsHandler({
      db: deps.db,
      steps: [
        purgeNotesOfDeletedLeads,
        deleteActivitiesOfLeads,
        cancelManualTasksOfLeads,
        endEnrollmentsOfDeletedLeads,
      ],
    }),
    ...tagJobHandlers({ db: deps.db }),
    dataSourceJobHandler({
      db: deps.db,
      clock: deps.clock,
      readers,
      pagesPerRun: deps.config.dataSources.pagesPerRun,
      waitMs: deps.config.dataSources.waitSeconds * 1000,
    }),
    resumeStalledDataSourcesHandler({ db: deps.db }),
    ...customFieldJobHandlers({ db: deps.db }),
    ...enrichmentJobHandlers({ db: deps.db, clock: deps.clock, readers }),
    runBulkOperationHandler({
      db: deps.db,
      runners: [
        leadMassActionRunner({ db: deps.db, config: deps.config }),
        companyMassActionRunner({ db: deps.db, config: deps.config }),
        taskMassMoveRunner({ db: deps.db, config: deps.config }),
        createTasksRunner({ db: deps.db, config: deps.config }),
      ],
    }),
    ...linkedInMessageJobHandlers(linkedInMessageDeps(deps)),
    ...seatHealthJobHandlers({
      db: deps.db,
      clock: deps.clock,
      browsers: seatBrowsersOf(deps),
      baseUrl: deps.config.linkedin.baseUrl,
    }),
  ];
}
