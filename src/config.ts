// The only reader of process.env. Parsed once at start; every problem is listed at once so an
// operator fixes the environment in one go instead of one restart per typo.
import { isIP } from 'node:net';
import path from 'node:path';
import { type Env, EnvReader } from './lib/env-reader.js';
import { allowlistEntryProblem } from './lib/net/address-policy.js';

/** A DNS server entry: an IP address, optionally with a port (1.1.1.1:53, [::1]:5353). */
function dnsServerProblem(entry: string): string | undefined {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(entry) ?? /^([^:]+):(\d+)$/.exec(entry);
  const host = match ? match[1]! : entry;
  const port = match ? Number(match[2]) : 53;
  return isIP(host) !== 0 && port >= 1 && port <= 65_535
    ? undefined
    : 'must be an IP address, optionally with :port';
}

export type Config = Readonly<{
  host: string;
  port: number;
  logLevel: string;
  /** External PostgreSQL; when unset an embedded server runs out of `dataDir`. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /**
   * Citus (src/db/citus.ts): true creates the extension and distributes the schema, false never
   * distributes; unset distributes when the database has the citus extension.
   */
  citus: boolean | undefined;
  dataDir: string;
  /** Port of the embedded PostgreSQL; 0 picks a free one (it is recorded in the data dir). */
  embeddedPgPort: number;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  /** Sign-in, password-link and invite attempts per minute per client address. */
  signInAttemptsPerMinute: number;
  authCacheTtlMs: number;
  bootstrap: { apiKey: string | undefined; email: string; teamName: string };
  worker: {
    concurrency: number;
    pollIntervalMs: number;
    heartbeatIntervalMs: number;
    /** A worker silent for this long is presumed dead and its jobs are released to others. */
    heartbeatTimeoutMs: number;
  };
  /** Largest accepted request body for JSON endpoints. */
  bodyLimitBytes: number;
  /** Largest accepted upload (CSV imports, attachments). */
  uploadMaxBytes: number;
  /** Largest accepted attachment (files sent with LinkedIn messages and e-mails). */
  attachmentMaxBytes: number;
  /** Where uploaded and generated files live when no object store is configured. */
  filesDir: string;
  /** Mass actions touching more records than this run as a background job. */
  massActionSyncLimit: number;
  webhooks: {
    retryScheduleSeconds: number[];
    allowPrivateTargets: boolean;
    /** Targets always allowed, link-local and metadata included: CIDRs, addresses, host names. */
    allowlist?: readonly string[];
    timeoutMs: number;
    /** A webhook that has not succeeded once in this long is switched off. */
    disableAfterFailingMs: number;
  };
  /**
   * Connections a user can aim (mail servers, proxies, webhooks, gs_call_api, LLM endpoints) reach only
   * public addresses unless these open more (src/lib/net/outbound.ts); the webhook switches add to them.
   */
  /** DNS servers (ip or ip:port) custom tracking domains are verified with; empty: the system's. */
  dnsServers: readonly string[];
  outbound: {
    /** Loopback, private, CGNAT and unique-local addresses too (never link-local or cloud metadata). */
    allowPrivate: boolean;
    /** Targets always allowed, link-local and metadata included: CIDRs, addresses, host names. */
    allowlist: readonly string[];
  };
  /** Encryption of secrets at rest (src/lib/secrets.ts); unset: a key file in the data dir. */
  secretKey: string | undefined;
  secretKeyPrevious: string[];
  /** The automation engine (src/modules/engine/CONTEXT.md). */
  engine: {
    /** Run the engine loops in worker processes (off: enrollments wait until a process runs them). */
    enabled: boolean;
    /** How often an idle worker looks for due steps (a due step starts within about this long). */
    pollIntervalMs: number;
    /** Enrollments claimed per batch. */
    batchSize: number;
    /** A claim is held this long; a worker that dies gives its rows back after it. */
    leaseMs: number;
    /** An action whose outcome is unrecorded this long after it was taken is reconciled. */
    reconcileAfterMs: number;
    /** Senders whose actions run at once per worker process. */
    dispatchConcurrency: number;
    /** Default seconds between two LinkedIn actions of one sender (randomised from half to 1.5x). */
    actionIntervalSeconds: number;
    /** How long connection requests pause after LinkedIn signals its invitation limit. */
    limitPauseMs: number;
    /** Tries of an action that failed for a passing reason, before the step fails. */
    maxAttempts: number;
    /** How long a trigger waits when its node names no timer. */
    triggerDefaultWaitSeconds: number;
  };
  /** Base URL of links the product hands out (public login links); default http://HOST:PORT. */
  publicUrl: string;
  /** LinkedIn through real browsers (seats with driver "chromium"). */
  linkedin: {
    /** Where LinkedIn is; tests point it at the local replica. */
    baseUrl: string;
    chromiumPath: string;
    /** A seat's browser closes after this long without use (memory: one Chromium per busy seat). */
    browserIdleMs: number;
    /** Browsers open at once per process; the least recently used closes for a new one. */
    maxOpenBrowsers: number;
    /** Seats sharing one Chromium process, each in its own browser context (1: a process per seat). */
    seatsPerBrowserProcess: number;
    /** How often each running seat reads new messages and accepted invitations. */
    syncIntervalMs: number;
    /** Longest a live-view visit lasts (the seat's automation waits meanwhile). */
    viewerMaxMs: number;
    /** Where seats save (redacted) the LinkedIn pages the driver did not understand; undefined: nowhere. */
    pageDumpsDir: string | undefined;
  };
  /** The sandbox LinkedIn network (seats created with driver "sandbox"). */
  sandbox: {
    seed: number;
    acceptRate: number;
    replyRate: number;
    /** Answers come this many seconds after the action (uniform between min and max). */
    minResponseSeconds: number;
    maxResponseSeconds: number;
    /** Invitations per rolling 7 days a sandbox account accepts before it signals the weekly limit. */
    weeklyInvitationLimit: number;
    /** Share of profiles and company pages the sandbox answers "not found" for. */
    profileMissingRate: number;
    /** Pause between two reads of one sandbox account (0: as fast as the workers go). */
    readIntervalMs: number;
  };
  /** How fast a real LinkedIn account is read (profiles for enrichment, search pages for data sources). */
  linkedinReads: {
    profileIntervalSeconds: number;
    searchPageIntervalSeconds: number;
    profilesPerDay: number;
    searchPagesPerDay: number;
  };
  /** Data sources (src/modules/data-sources/CONTEXT.md). */
  dataSources: {
    /** Search pages one job run reads before it hands the worker back (and schedules the next run). */
    pagesPerRun: number;
    /** How long a source waits for a sender that cannot read (no seat, logged out, rate limited). */
    waitSeconds: number;
  };
  /** Scheduled clean-up; 0 days keeps things forever. */
  retention: {
    /** Events (and their webhook delivery log) older than this are deleted. */
    eventDays: number;
    /** Export files and uploaded CSVs are removed this long after they were finished or uploaded. */
    fileDays: number;
  };
  /** The OpenAI-compatible chat endpoint AI templates use; `baseUrl` unset: no LLM (AI parts fall back). */
  llm: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    /** Model of templates whose llm_config names none. */
    model: string;
    timeoutMs: number;
    /** LLM calls in flight at once, per process; more wait their turn. */
    concurrency: number;
    /** Retries of a call that failed with a connection error, 408, 409, 429 or 5xx. */
    maxRetries: number;
  };
  /** The e-mail channel (src/modules/email/CONTEXT.md). */
  email: {
    /** Connecting, greeting and socket inactivity limit of one SMTP or IMAP connection. */
    connectTimeoutMs: number;
    /** Run the IMAP sync of active mailboxes in worker processes. */
    syncEnabled: boolean;
    /** A mailbox is polled at least this often (IDLE reports new mail sooner where the server offers it). */
    syncPollSeconds: number;
    /** Hold an IMAP IDLE connection per synced mailbox (where the server offers IDLE) for prompt replies. */
    syncIdle: boolean;
    /** Mailboxes one worker process keeps in sync at once. */
    syncMailboxesPerProcess: number;
    /** Messages looked at per IMAP fetch while syncing (memory stays flat whatever the mailbox size). */
    syncBatchSize: number;
    /** Days of existing mail the first sync of a mailbox reads (0: only mail arriving from now on). */
    syncHistoryDays: number;
    /** A mailbox's held IMAP connection (Sent copies) is closed after this long without use. */
    imapHoldSeconds: number;
    oauth: Record<'gmail' | 'outlook', OAuthProviderConfig>;
  };
}>;

export type OAuthProviderConfig = {
  clientId: string | undefined;
  clientSecret: string | undefined;
  authUrl: string;
  tokenUrl: string;
  /** Google: the OpenID userinfo endpoint; Microsoft: unset (the id_token names the account). */
  userinfoUrl: string | undefined;
  scopes: string[];
  imap: { host: string; port: number; secure: boolean };
  smtp: { host: string; port: number; secure: boolean };
};

export class ConfigError extends Error {}

/** LEADFLOW_LINKEDIN_PAGE_DUMPS_DIR: a folder, `off`, or unset (`<data dir>/linkedin-pages`). */
function pageDumpsDir(value: string, dataDir: string): string | undefined {
  if (value === 'off') return undefined;
  return path.resolve(value || path.join(dataDir, 'linkedin-pages'));
}

/** pino's levels. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const read = new EnvReader(env);
  const dataDir = path.resolve(read.string('LEADFLOW_DATA_DIR', './.leadflow'));
  const config: Config = {
    host: read.string('HOST', '127.0.0.1'),
    port: read.int('PORT', 8080, 0, 65535),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    databaseUrl: read.optional('DATABASE_URL'),
    databasePoolSize: read.int('DATABASE_POOL_SIZE', 20, 2, 500),
    citus: read.optional('LEADFLOW_CITUS') === undefined ? undefined : read.bool('LEADFLOW_CITUS', false),
    dataDir,
    embeddedPgPort: read.int('LEADFLOW_EMBEDDED_PG_PORT', 0, 0, 65535),
    redisUrl: read.optional('REDIS_URL'),
    rateLimitPerMinute: read.int('LEADFLOW_RATE_LIMIT_PER_MINUTE', 300, 1),
    signInAttemptsPerMinute: read.int('LEADFLOW_SIGN_IN_ATTEMPTS_PER_MINUTE', 10, 1),
    authCacheTtlMs: read.int('LEADFLOW_AUTH_CACHE_TTL_MS', 5000, 0, 60_000),
    bootstrap: {
      apiKey: read.optional('LEADFLOW_BOOTSTRAP_API_KEY'),
      email: read.string('LEADFLOW_BOOTSTRAP_EMAIL', 'owner@leadflow.local'),
      teamName: read.string('LEADFLOW_BOOTSTRAP_TEAM', 'My Team'),
    },
    worker: {
      concurrency: read.int('LEADFLOW_WORKER_CONCURRENCY', 10, 1, 500),
      pollIntervalMs: read.int('LEADFLOW_WORKER_POLL_INTERVAL_MS', 2000, 50),
      heartbeatIntervalMs: read.int('LEADFLOW_WORKER_HEARTBEAT_INTERVAL_MS', 10_000, 100),
      heartbeatTimeoutMs: read.int('LEADFLOW_WORKER_HEARTBEAT_TIMEOUT_MS', 60_000, 500),
    },
    bodyLimitBytes: read.int('LEADFLOW_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024),
    uploadMaxBytes: read.int('LEADFLOW_UPLOAD_MAX_BYTES', 100 * 1024 * 1024, 1024),
    attachmentMaxBytes: read.int('LEADFLOW_ATTACHMENT_MAX_BYTES', 20 * 1024 * 1024, 1024),
    filesDir: path.resolve(read.string('LEADFLOW_FILES_DIR', path.join(dataDir, 'files'))),
    massActionSyncLimit: read.int('LEADFLOW_MASS_ACTION_SYNC_LIMIT', 50_000, 1),
    webhooks: {
      retryScheduleSeconds: read.intList(
        'LEADFLOW_WEBHOOK_RETRY_SCHEDULE',
        [5, 60, 300, 1800, 7200, 21600, 43200],
      ),
      allowPrivateTargets: read.bool('LEADFLOW_WEBHOOKS_ALLOW_PRIVATE', false),
      allowlist: read.list('LEADFLOW_WEBHOOKS_ALLOWLIST', allowlistEntryProblem),
      timeoutMs: read.int('LEADFLOW_WEBHOOK_TIMEOUT_MS', 10_000, 100),
      disableAfterFailingMs: read.int('LEADFLOW_WEBHOOK_DISABLE_AFTER_MS', 5 * 24 * 3600 * 1000, 1000),
    },
    dnsServers: read.list('LEADFLOW_DNS_SERVERS', dnsServerProblem),
    outbound: {
      allowPrivate: read.bool('LEADFLOW_OUTBOUND_ALLOW_PRIVATE', false),
      allowlist: read.list('LEADFLOW_OUTBOUND_ALLOWLIST', allowlistEntryProblem),
    },
    secretKey: read.optional('LEADFLOW_SECRET_KEY'),
    secretKeyPrevious: (read.optional('LEADFLOW_SECRET_KEY_PREVIOUS') ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    engine: {
      enabled: read.bool('LEADFLOW_ENGINE_ENABLED', true),
      pollIntervalMs: read.int('LEADFLOW_ENGINE_POLL_INTERVAL_MS', 250, 10, 60_000),
      batchSize: read.int('LEADFLOW_ENGINE_BATCH_SIZE', 500, 1, 10_000),
      leaseMs: read.int('LEADFLOW_ENGINE_LEASE_MS', 60_000, 1000),
      reconcileAfterMs: read.int('LEADFLOW_ENGINE_RECONCILE_AFTER_MS', 300_000, 1000),
      dispatchConcurrency: read.int('LEADFLOW_ENGINE_DISPATCH_CONCURRENCY', 8, 1, 200),
      actionIntervalSeconds: read.int('LEADFLOW_ENGINE_ACTION_INTERVAL_SECONDS', 120, 0, 86_400),
      limitPauseMs: read.int('LEADFLOW_ENGINE_LIMIT_PAUSE_MS', 5 * 3600 * 1000, 0),
      maxAttempts: read.int('LEADFLOW_ENGINE_MAX_ATTEMPTS', 3, 1, 20),
      triggerDefaultWaitSeconds: read.int('LEADFLOW_ENGINE_TRIGGER_DEFAULT_WAIT_SECONDS', 14 * 86_400, 60),
    },
    publicUrl: read.httpUrl('LEADFLOW_PUBLIC_URL') ?? '',
    linkedin: {
      baseUrl: read.httpUrl('LEADFLOW_LINKEDIN_URL') ?? 'https://www.linkedin.com',
      chromiumPath: read.string('LEADFLOW_CHROMIUM_PATH', '/usr/bin/chromium'),
      browserIdleMs: read.int('LEADFLOW_BROWSER_IDLE_SECONDS', 300, 5, 86_400) * 1000,
      maxOpenBrowsers: read.int('LEADFLOW_BROWSER_MAX_OPEN', 20, 1, 500),
      seatsPerBrowserProcess: read.int('LEADFLOW_BROWSER_SEATS_PER_PROCESS', 10, 1, 100),
      syncIntervalMs: read.int('LEADFLOW_LINKEDIN_SYNC_SECONDS', 900, 10, 86_400) * 1000,
      viewerMaxMs: read.int('LEADFLOW_LOGIN_VIEW_MAX_SECONDS', 1800, 60, 86_400) * 1000,
      pageDumpsDir: pageDumpsDir(read.string('LEADFLOW_LINKEDIN_PAGE_DUMPS_DIR', ''), dataDir),
    },
    sandbox: {
      seed: read.int('LEADFLOW_SANDBOX_SEED', 42),
      acceptRate: read.fraction('LEADFLOW_SANDBOX_ACCEPT_RATE', 0.6),
      replyRate: read.fraction('LEADFLOW_SANDBOX_REPLY_RATE', 0.3),
      minResponseSeconds: read.int('LEADFLOW_SANDBOX_MIN_RESPONSE_SECONDS', 5, 0),
      maxResponseSeconds: read.int('LEADFLOW_SANDBOX_MAX_RESPONSE_SECONDS', 60, 0),
      weeklyInvitationLimit: read.int('LEADFLOW_SANDBOX_WEEKLY_INVITATION_LIMIT', 200, 1),
      profileMissingRate: read.fraction('LEADFLOW_SANDBOX_PROFILE_MISSING_RATE', 0.02),
      readIntervalMs: read.int('LEADFLOW_SANDBOX_READ_INTERVAL_MS', 0, 0, 3_600_000),
    },
    linkedinReads: {
      profileIntervalSeconds: read.int('LEADFLOW_LINKEDIN_PROFILE_READ_INTERVAL_SECONDS', 8, 1, 86_400),
      searchPageIntervalSeconds: read.int('LEADFLOW_LINKEDIN_SEARCH_PAGE_INTERVAL_SECONDS', 30, 1, 86_400),
      profilesPerDay: read.int('LEADFLOW_LINKEDIN_PROFILE_READS_PER_DAY', 150, 0, 100_000),
      searchPagesPerDay: read.int('LEADFLOW_LINKEDIN_SEARCH_PAGES_PER_DAY', 40, 0, 100_000),
    },
    dataSources: {
      pagesPerRun: read.int('LEADFLOW_DATA_SOURCE_PAGES_PER_RUN', 5, 1, 1000),
      waitSeconds: read.int('LEADFLOW_DATA_SOURCE_WAIT_SECONDS', 300, 1, 86_400),
    },
    retention: {
      eventDays: read.int('LEADFLOW_EVENT_RETENTION_DAYS', 30, 0, 36_500),
      fileDays: read.int('LEADFLOW_FILE_RETENTION_DAYS', 7, 0, 36_500),
    },
    llm: {
      baseUrl: read.httpUrl('LEADFLOW_LLM_BASE_URL'),
      apiKey: read.optional('LEADFLOW_LLM_API_KEY'),
      model: read.string('LEADFLOW_LLM_MODEL', 'gpt-4o-mini'),
      timeoutMs: read.int('LEADFLOW_LLM_TIMEOUT_MS', 30_000, 100, 600_000),
      concurrency: read.int('LEADFLOW_LLM_CONCURRENCY', 4, 1, 1000),
      maxRetries: read.int('LEADFLOW_LLM_MAX_RETRIES', 1, 0, 10),
    },
    email: {
      connectTimeoutMs: read.int('LEADFLOW_EMAIL_CONNECT_TIMEOUT_MS', 20_000, 100, 600_000),
      syncEnabled: read.bool('LEADFLOW_EMAIL_SYNC_ENABLED', true),
      syncPollSeconds: read.int('LEADFLOW_EMAIL_SYNC_POLL_SECONDS', 120, 1, 86_400),
      syncIdle: read.bool('LEADFLOW_EMAIL_SYNC_IDLE', true),
      syncMailboxesPerProcess: read.int('LEADFLOW_EMAIL_SYNC_MAILBOXES_PER_PROCESS', 200, 1, 10_000),
      syncBatchSize: read.int('LEADFLOW_EMAIL_SYNC_BATCH_SIZE', 500, 10, 10_000),
      syncHistoryDays: read.int('LEADFLOW_EMAIL_SYNC_HISTORY_DAYS', 14, 0, 36_500),
      imapHoldSeconds: read.int('LEADFLOW_EMAIL_IMAP_HOLD_SECONDS', 300, 1, 86_400),
      oauth: {
        gmail: {
          clientId: read.optional('LEADFLOW_GMAIL_CLIENT_ID'),
          clientSecret: read.optional('LEADFLOW_GMAIL_CLIENT_SECRET'),
          authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
          tokenUrl: 'https://oauth2.googleapis.com/token',
          userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
          scopes: ['https://mail.google.com/', 'openid', 'email'],
          imap: { host: 'imap.gmail.com', port: 993, secure: true },
          smtp: { host: 'smtp.gmail.com', port: 465, secure: true },
        },
        outlook: {
          clientId: read.optional('LEADFLOW_OUTLOOK_CLIENT_ID'),
          clientSecret: read.optional('LEADFLOW_OUTLOOK_CLIENT_SECRET'),
          authUrl: `https://login.microsoftonline.com/${read.string('LEADFLOW_OUTLOOK_TENANT', 'common')}/oauth2/v2.0/authorize`,
          tokenUrl: `https://login.microsoftonline.com/${read.string('LEADFLOW_OUTLOOK_TENANT', 'common')}/oauth2/v2.0/token`,
          userinfoUrl: undefined,
          scopes: [
            'https://outlook.office.com/IMAP.AccessAsUser.All',
            'https://outlook.office.com/SMTP.Send',
            'offline_access',
            'openid',
            'email',
          ],
          imap: { host: 'outlook.office365.com', port: 993, secure: true },
          smtp: { host: 'smtp.office365.com', port: 587, secure: false },
        },
      },
    },
    ...overrides,
  };
  if (!config.publicUrl) {
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    (config as { publicUrl: string }).publicUrl =
      `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  }
  if (read.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${read.problems.join('\n  - ')}`);
  }
  return Object.freeze(config);
}
