// How senders act and read: the seat driver kinds (each registered once, giving its driver, reader and
// inbox), the e-mail channel, and the engine, readers and LinkedIn message sync built on them.
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { ServiceDeps } from '../deps.js';
import { createLogger } from '../lib/logger.js';
import { outboundPolicy } from '../lib/net/outbound.js';
import { createAttachmentFiles } from '../modules/attachments/attachment-files.js';
import { chromiumSeatKind } from '../modules/browsers/chromium/chromium-seat.js';
import { sandboxSeatKind } from '../modules/browsers/sandbox/sandbox-seat.js';
import { seatBreakers } from '../modules/browsers/seat-health.js';
import { seatNotes } from '../modules/browsers/seat-notes.js';
import type { ReaderRegistry } from '../modules/channels/reader.js';
import {
  createDriverRegistry,
  createInboxRegistry,
  createReaderRegistry,
  type DriverFactories,
  portsOf,
  type SeatKinds,
} from '../modules/channels/registry.js';
import { emailDriverFactory } from '../modules/email/sending/email-driver.js';
import { createMailAccess, type MailAccess } from '../modules/email/transport/mail-access.js';
import {
  createEngine,
  createTemplateRenderer,
  type Engine,
  type EngineDeps,
  senderActionLimits,
} from '../modules/engine/index.js';
import { createLocalFileStore } from '../modules/files/storage.js';
import { ingestInbox } from '../modules/linkedin-messages/linkedin-ingest.js';
import { recordSentLinkedInMessages } from '../modules/linkedin-messages/linkedin-sent.js';
import { createWebhookClient } from '../modules/webhooks/webhook-client.js';
import { seatBrowsersOf, secretBoxOf, teamLlmsOf } from './process.js';

/**
 * The seat driver kinds, one registration each: a kind gives its seats' driver (the engine), reader
 * (enrichment, data sources), inbox (the LinkedIn messages sync) and its push, if any (the engine).
 * `log` goes to the seat browsers, the actions and the inbox.
 */
export function seatKinds(deps: ServiceDeps, log?: Logger): SeatKinds {
  const reads = deps.config.linkedinReads;
  return {
    sandbox: sandboxSeatKind(deps.db, deps.config.sandbox, ingestInbox),
    chromium: chromiumSeatKind({
      browsers: () => seatBrowsersOf(deps, log),
      baseUrl: deps.config.linkedin.baseUrl,
      ...(log ? { logger: log } : {}),
      pace: {
        profileIntervalMs: reads.profileIntervalSeconds * 1000,
        searchPageIntervalMs: reads.searchPageIntervalSeconds * 1000,
        profilesPerDay: reads.profilesPerDay,
        searchPagesPerDay: reads.searchPagesPerDay,
      },
      attachmentFiles: createAttachmentFiles(deps.db, createLocalFileStore(deps.config.filesDir)),
      breakers: (seat) => seatBreakers(deps.db, seat, () => deps.clock.now()),
      notes: (seat) => seatNotes(deps.db, seat, () => deps.clock.now()),
    }),
  };
}

export type EngineOptions = Partial<Pick<EngineDeps, 'crashPoint' | 'sleep' | 'drivers'>> & {
  /** LinkedIn seat drivers replacing a registered kind's (tests drive a replica seat through these). */
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
  return (
    options.drivers ??
    createDriverRegistry(
      deps.db,
      {
        linkedin: { ...portsOf(seatKinds(deps, log), 'driver'), ...options.linkedinDrivers },
        email: options.email ?? emailChannel(deps),
      },
      () => deps.clock.now(),
    )
  );
}

/** The automation engine of a worker process (or of a test or simulation driving `tick()`). */
export function createAutomationEngine(deps: ServiceDeps, log: Logger, options: EngineOptions = {}): Engine {
  const drivers = createChannelDrivers(deps, log, options);
  const pushes = Object.values(seatKinds(deps, log)).flatMap((kind) => (kind.push ? [kind.push] : []));
  return createEngine({
    db: deps.db,
    clock: deps.clock,
    log: log.child({ component: 'engine' }),
    config: deps.config.engine,
    drivers,
    pushes,
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

/** How senders read LinkedIn (enrichment, data sources): the readers of the seat driver kinds. */
export function createLinkedInReaders(deps: ServiceDeps): ReaderRegistry {
  return createReaderRegistry(deps.db, portsOf(seatKinds(deps), 'reader'));
}

/** What sending queued LinkedIn messages and syncing seats' inboxes need (jobs, tests, the bench). */
export function linkedInMessageDeps(deps: ServiceDeps, log?: Logger, options: EngineOptions = {}) {
  const logger = log ?? createLogger(deps.config.logLevel);
  return {
    db: deps.db,
    clock: deps.clock,
    log: logger,
    drivers: createChannelDrivers(deps, logger, options),
    inboxes: createInboxRegistry(deps.db, portsOf(seatKinds(deps, logger), 'inbox')),
    limits: senderActionLimits,
    reconcileAfterMs: deps.config.engine.reconcileAfterMs,
    maxAttempts: deps.config.engine.maxAttempts,
    limitPauseMs: deps.config.engine.limitPauseMs,
    syncIntervalMs: deps.config.linkedin.syncIntervalMs,
    pageSize: 500,
    maxPages: 20,
  };
}
