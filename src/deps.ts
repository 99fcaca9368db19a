// Composition root: every module's service is created here with its explicit dependencies, and every
// module's job handlers are merged into the one catalog the workers run.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { JobHandler } from './jobs/queue.js';
import type { Clock } from './lib/clock.js';
import { createLogger } from './lib/logger.js';
import { outboundGuard, outboundPolicy } from './lib/net/outbound.js';
import { loadSecretBox, type SecretBox } from './lib/secrets.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { deleteActivitiesOfLeads } from './modules/activities/activities.repository.js';
import { createActivitiesService } from './modules/activities/activities.service.js';
import { createAiModule } from './modules/ai/ai.module.js';
import { pruneLlmLogsHandler } from './modules/ai/llm-logs.js';
import { selectExistingAiTemplateUuids } from './modules/ai-templates/ai-templates.repository.js';
import { createAiTemplatesService } from './modules/ai-templates/ai-templates.service.js';
import { createAttachmentFiles } from './modules/attachments/attachment-files.js';
import { createAttachmentsService } from './modules/attachments/attachments.service.js';
import { createBlacklistsService } from './modules/blacklists/blacklists.service.js';
import { createBrowsersService } from './modules/browsers/browsers.service.js';
import {
  createChromiumDriver,
  createChromiumInbox,
  createChromiumReader,
} from './modules/browsers/chromium/chromium-driver.js';
import { createSeatBrowsers, type SeatBrowsers } from './modules/browsers/chromium/seat-browsers.js';
import { createLiveView } from './modules/browsers/live-view/live-view.service.js';
import { createSandboxDriver } from './modules/browsers/sandbox/sandbox-driver.js';
import { createSandboxInbox } from './modules/browsers/sandbox/sandbox-inbox.js';
import { createSandboxReader } from './modules/browsers/sandbox/sandbox-reader.js';
import { sandboxResponder } from './modules/browsers/sandbox/sandbox-responder.js';
import { seatHealthJobHandlers } from './modules/browsers/seat-health.jobs.js';
import { seatBreakers } from './modules/browsers/seat-health.js';
import { seatNotes } from './modules/browsers/seat-notes.js';
import { runBulkOperationHandler } from './modules/bulk-operations/bulk-operations.jobs.js';
import { createBulkOperationsService } from './modules/bulk-operations/bulk-operations.service.js';
import type { ReaderRegistry } from './modules/channels/reader.js';
import {
  createDriverRegistry,
  createInboxRegistry,
  createReaderRegistry,
  type DriverFactories,
  type ReaderFactories,
} from './modules/channels/registry.js';
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
import { emailDriverFactory } from './modules/email/sending/email-driver.js';
import { createMailAccess, type MailAccess } from './modules/email/transport/mail-access.js';
import {
  createEngine,
  createTemplateRenderer,
  type Engine,
  type EngineDeps,
  senderActionLimits,
} from './modules/engine/index.js';
import { grantCredits } from './modules/enrichment/credits.js';
import { createEnrichmentService } from './modules/enrichment/enrichment.service.js';
import { enrichmentJobHandlers } from './modules/enrichment/enrichment.worker.js';
import { pruneEventsHandler } from './modules/events/events.retention.js';
import { createFilesService } from './modules/files/files.service.js';
import { createLocalFileStore } from './modules/files/storage.js';
import { endEnrollmentsOfDeletedLeads } from './modules/flows/enrollments/enrollment-ends.js';
import { createFlowsModule } from './modules/flows/flows.module.js';
import { createAuthCache } from './modules/identity/auth-cache.js';
import { createIdentityService } from './modules/identity/identity.service.js';
import { createInboxService } from './modules/inbox/inbox.service.js';
import { purgeDeletedLeadsHandler } from './modules/leads/lead-deletion.js';
import { leadMassActionRunner } from './modules/leads/leads.mass-actions.js';
import { createLeadsService } from './modules/leads/leads.service.js';
import { ingestInbox, recordSentLinkedInMessages } from './modules/linkedin-messages/linkedin-ingest.js';
import { linkedInMessageJobHandlers } from './modules/linkedin-messages/linkedin-messages.jobs.js';
import { createLinkedInMessagesService } from './modules/linkedin-messages/linkedin-messages.service.js';
import { createListsService } from './modules/lists/lists.service.js';
import type { LlmClient } from './modules/llm/llm-client.js';
import { createLlmClient } from './modules/llm/openai-client.js';
import { createTeamLlms, type TeamLlms } from './modules/llm/team-llms.js';
import { createNotesService, purgeNotesOfDeletedLeads } from './modules/notes/notes.service.js';
import { seedDefaultPipelineStages } from './modules/pipeline-stages/pipeline-stages.defaults.js';
import { createPipelineStagesService } from './modules/pipeline-stages/pipeline-stages.service.js';
import { createSendersService } from './modules/senders/senders.service.js';
import { tagJobHandlers } from './modules/tags/tags.jobs.js';
import { createTagsService } from './modules/tags/tags.service.js';
import { createTasksRunner } from './modules/tasks/tasks.create-many.js';
import { taskMassMoveRunner } from './modules/tasks/tasks.mass-moves.js';
import { cancelManualTasksOfLeads } from './modules/tasks/tasks.repository.js';
import { createTasksService } from './modules/tasks/tasks.service.js';
import { createWebhookClient } from './modules/webhooks/webhook-client.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';

export type ServiceDeps = {
  db: Database;
  config: Config;
  clock: Clock;
  /** The process logger (parts that log on their own: the seat browsers). */
  logger?: Logger;
};

const llmClients = new WeakMap<Config['llm'], LlmClient>();

/** One LLM client per process, so its concurrency limit covers every caller (AI templates, engine). */
export function llmClientOf(config: Config): LlmClient {
  let client = llmClients.get(config.llm);
  if (!client) {
    client = createLlmClient(config.llm);
    llmClients.set(config.llm, client);
  }
  return client;
}

const teamLlmsByDb = new WeakMap<Database, TeamLlms>();

/**
 * The LLMs of every team in this process (one per database handle, so the engine, the API and the
 * preview share each connection's client and concurrency limit).
 */
export function teamLlmsOf(deps: Pick<ServiceDeps, 'db' | 'config'>): TeamLlms {
  let llms = teamLlmsByDb.get(deps.db);
  if (!llms) {
    llms = createTeamLlms({
      db: deps.db,
      config: deps.config,
      box: secretBoxOf(deps.config),
      server: llmClientOf(deps.config),
      guard: outboundGuard(outboundPolicy(deps.config, 'llm')),
    });
    teamLlmsByDb.set(deps.db, llms);
  }
  return llms;
}

/** The secret box of this installation (configured key or the data dir's key file). */
export function secretBoxOf(config: Config): SecretBox {
  return loadSecretBox({
    key: config.secretKey,
    previous: config.secretKeyPrevious,
    dataDir: config.dataDir,
  });
}

const seatBrowserPools = new WeakMap<Database, SeatBrowsers>();

/**
 * This process's pool of seat browsers (one per database handle, so the engine, the readers, the seats
 * API and the login live view share it). Nothing starts until a seat's browser is first needed.
 */
export function seatBrowsersOf(deps: ServiceDeps, logger: Logger | undefined = deps.logger): SeatBrowsers {
  let pool = seatBrowserPools.get(deps.db);
  if (!pool) {
    pool = createSeatBrowsers({
      config: deps.config,
      db: deps.db,
      secretBox: secretBoxOf(deps.config),
      proxyGuard: outboundGuard(outboundPolicy(deps.config, 'proxy')),
      ...(logger ? { logger: logger.child({ component: 'seat-browsers' }) } : {}),
      now: () => deps.clock.now(),
    });
    seatBrowserPools.set(deps.db, pool);
  }
  return pool;
}

/** Closes this process's seat browsers, saving their sessions (shutdown). */
export async function closeSeatBrowsers(db: Database): Promise<void> {
  await seatBrowserPools.get(db)?.closeAll();
}

export type EngineOptions = Partial<Pick<EngineDeps, 'crashPoint' | 'sleep' | 'drivers'>> & {
  /** Extra LinkedIn seat drivers (the real browser driver registers here). */
  linkedinDrivers?: DriverFactories['linkedin'];
  email?: DriverFactories['email'];
};

const channelMailAccess = new WeakMap<Database, MailAccess>();

/** The e-mail channel of the engine: the sender's mailboxes, through this process's SMTP pools. */
function emailChannel(deps: ServiceDeps): NonNullable<DriverFactories['email']> {
  const box = secretBoxOf(deps.config);
  let mail = channelMailAccess.get(deps.db);
  if (!mail) {
    mail = createMailAccess({ db: deps.db, box, config: deps.config });
    channelMailAccess.set(deps.db, mail);
  }
  return emailDriverFactory({
    db: deps.db,
    box,
    config: deps.config,
    mail,
    files: createLocalFileStore(deps.config.filesDir),
  });
}

/**
 * Closes the engine's mail connections once it has stopped (shutdown): the Sent copies still queued on
 * a held IMAP connection are filed first.
 */
export async function closeChannelMail(db: Database): Promise<void> {
  await channelMailAccess.get(db)?.close();
  channelMailAccess.delete(db);
}

/** How senders act on LinkedIn and e-mail: the seats' drivers (sandbox, real browser) and the mailboxes. */
export function createChannelDrivers(deps: ServiceDeps, log: Logger, options: EngineOptions = {}) {
  const sandbox = createSandboxDriver(deps.db, deps.config.sandbox);
  return (
    options.drivers ??
    createDriverRegistry(
      deps.db,
      {
        linkedin: {
          sandbox: () => sandbox,
          chromium: (seat) =>
            createChromiumDriver(
              { teamId: seat.team_id, seatId: seat.id },
              {
                browsers: seatBrowsersOf(deps, log),
                baseUrl: deps.config.linkedin.baseUrl,
                logger: log,
                attachmentFiles: createAttachmentFiles(deps.db, createLocalFileStore(deps.config.filesDir)),
                breakers: seatBreakers(deps.db, { teamId: seat.team_id, seatId: seat.id }, () =>
                  deps.clock.now(),
                ),
                notes: seatNotes(deps.db, { teamId: seat.team_id, seatId: seat.id }, () => deps.clock.now()),
              },
            ),
          ...options.linkedinDrivers,
        },
        email: options.email ?? emailChannel(deps),
      },
      () => deps.clock.now(),
    )
  );
}

/** The automation engine of a worker process (or of a test or simulation driving `tick()`). */
export function createAutomationEngine(deps: ServiceDeps, log: Logger, options: EngineOptions = {}): Engine {
  const drivers = createChannelDrivers(deps, log, options);
  return createEngine({
    db: deps.db,
    clock: deps.clock,
    log: log.child({ component: 'engine' }),
    config: deps.config.engine,
    drivers,
    pushes: [sandboxResponder(deps.db, ingestInbox)],
    onSent: [recordSentLinkedInMessages],
    limits: senderActionLimits,
    renderer: createTemplateRenderer({ llms: teamLlmsOf(deps) }),
    http: createWebhookClient({
      timeoutMs: deps.config.webhooks.timeoutMs,
      policy: outboundPolicy(deps.config, 'http_node'),
    }),
    ...(options.crashPoint ? { crashPoint: options.crashPoint } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
}

/**
 * How senders read LinkedIn (enrichment, data sources): the sandbox network's reader, plus the readers
 * of other seat drivers (the real browser driver registers its reader here).
 */
export function createLinkedInReaders(deps: ServiceDeps, extra: ReaderFactories = {}): ReaderRegistry {
  const sandbox = createSandboxReader(deps.config.sandbox);
  const reads = deps.config.linkedinReads;
  const pace = {
    profileIntervalMs: reads.profileIntervalSeconds * 1000,
    searchPageIntervalMs: reads.searchPageIntervalSeconds * 1000,
    profilesPerDay: reads.profilesPerDay,
    searchPagesPerDay: reads.searchPagesPerDay,
  };
  return createReaderRegistry(deps.db, {
    sandbox: () => sandbox,
    chromium: (seat) =>
      createChromiumReader(
        { teamId: seat.team_id, seatId: seat.id },
        { browsers: seatBrowsersOf(deps), baseUrl: deps.config.linkedin.baseUrl, pace },
      ),
    ...extra,
  });
}

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

/** What sending queued LinkedIn messages and syncing seats' inboxes need (jobs, tests, the bench). */
export function linkedInMessageDeps(deps: ServiceDeps, log?: Logger, options: EngineOptions = {}) {
  const logger = log ?? createLogger(deps.config.logLevel);
  return {
    db: deps.db,
    clock: deps.clock,
    log: logger,
    drivers: createChannelDrivers(deps, logger, options),
    inboxes: createInboxRegistry(deps.db, {
      sandbox: () => createSandboxInbox(deps.db),
      chromium: (seat) =>
        createChromiumInbox(
          { teamId: seat.team_id, seatId: seat.id },
          { browsers: seatBrowsersOf(deps, logger), baseUrl: deps.config.linkedin.baseUrl, logger },
        ),
    }),
    limits: senderActionLimits,
    reconcileAfterMs: deps.config.engine.reconcileAfterMs,
    maxAttempts: deps.config.engine.maxAttempts,
    limitPauseMs: deps.config.engine.limitPauseMs,
    syncIntervalMs: deps.config.linkedin.syncIntervalMs,
    pageSize: 500,
    maxPages: 20,
  };
}
