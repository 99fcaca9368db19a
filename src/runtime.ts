// Process lifecycle shared by the CLI roles: open the database (embedded or DATABASE_URL), migrate,
// then run the API, the workers or both; stop in the reverse order so nothing is cut off mid-way.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { type Config, ConfigError } from './config.js';
import { openDatabaseSource } from './db/connect.js';
import { createDatabase, type DatabaseHandle } from './db/database.js';
import type { ListenerHandle } from './db/listener.js';
import { migrateDatabase } from './db/migrate.js';
import {
  closeChannelMail,
  closeSeatBrowsers,
  createAutomationEngine,
  createJobCatalog,
  createServices,
  type Services,
} from './deps.js';
import { startWorker, type WorkerHandle } from './jobs/runner.js';
import { systemClock } from './lib/clock.js';
import { startMailboxSync } from './modules/email/sync/sync-loop.js';
import type { Engine } from './modules/engine/index.js';
import { startAuthInvalidation } from './modules/identity/auth-cache.js';

export type Role = 'serve' | 'api' | 'worker';

export type Runtime = {
  services: Services;
  database: DatabaseHandle;
  app?: FastifyInstance;
  worker?: WorkerHandle;
  engine?: Engine;
  /** Base URL the API listens on, when it does. */
  url?: string;
  stop(): Promise<void>;
};

/** Opens and migrates the database; the caller closes both handles. */
export async function openDatabase(config: Config, logger: Logger) {
  const source = await openDatabaseSource(config, (message) =>
    logger.debug({ postgres: message }, 'embedded postgres'),
  );
  const database = createDatabase(source.url, config.databasePoolSize);
  try {
    await migrateDatabase(database.db, database.pool, { citus: config.citus });
  } catch (error) {
    await database.close();
    await source.stop();
    throw error;
  }
  return { source, database };
}

export async function startRuntime(role: Role, config: Config, logger: Logger): Promise<Runtime> {
  const { source, database } = await openDatabase(config, logger);
  const deps = { db: database.db, config, clock: systemClock, logger };
  const services = createServices(deps);
  let app: FastifyInstance | undefined;
  let worker: WorkerHandle | undefined;
  let engine: Engine | undefined;
  let mailSync: { stop(): Promise<void> } | undefined;
  let authInvalidation: ListenerHandle | undefined;
  let url: string | undefined;

  const stop = async () => {
    // Stop taking requests and let in-flight ones finish, then let running jobs finish,
    // and only then close the pool and the embedded server.
    await app?.close().catch((error) => logger.error({ err: error }, 'closing the API failed'));
    await authInvalidation?.stop();
    await engine?.stop().catch((error) => logger.error({ err: error }, 'stopping the engine failed'));
    await mailSync?.stop().catch((error) => logger.error({ err: error }, 'stopping the mailbox sync failed'));
    await worker?.stop().catch((error) => logger.error({ err: error }, 'stopping workers failed'));
    await closeChannelMail(database.db).catch((error) =>
      logger.error({ err: error }, "closing the engine's mail connections failed"),
    );
    await closeSeatBrowsers(database.db).catch((error) =>
      logger.error({ err: error }, 'closing seat browsers failed'),
    );
    await database.close();
    await source.stop();
  };

  try {
    if (role !== 'worker') {
      const created = await services.identity.bootstrapOwner({
        email: config.bootstrap.email,
        teamName: config.bootstrap.teamName,
        apiKey: config.bootstrap.apiKey,
      });
      if (created) {
        const link = await services.accounts.issuePasswordLink(config.bootstrap.email);
        announceOwner({ ...created, password_url: link.url }, config);
      }
      authInvalidation = await startAuthInvalidation({
        cache: services.identity.authCache,
        connectionString: source.url,
        log: logger.child({ component: 'auth-cache' }),
      });
      app = await buildApp({ config, db: database.db, services, logger });
      url = await listenOn(app, config);
    }
    if (role !== 'api') {
      worker = await startWorker({
        db: database.db,
        pool: database.pool,
        jobs: createJobCatalog(services, deps),
        concurrency: config.worker.concurrency,
        pollIntervalMs: config.worker.pollIntervalMs,
        heartbeatIntervalMs: config.worker.heartbeatIntervalMs,
        heartbeatTimeoutMs: config.worker.heartbeatTimeoutMs,
        log: logger.child({ component: 'worker' }),
      });
      if (config.engine.enabled) {
        engine = createAutomationEngine(deps, logger);
        engine.start();
      }
      if (config.email.syncEnabled) {
        mailSync = startMailboxSync({
          db: database.db,
          mail: services.email.mail,
          config,
          log: logger.child({ component: 'mailbox-sync' }),
        });
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info({ role, url, embeddedDatabase: source.embedded }, 'leadflow started');
  return { services, database, app, worker, engine, url, stop };
}

const LISTEN_PROBLEMS: Record<string, (config: Config) => string> = {
  EADDRINUSE: (c) =>
    `PORT ${c.port} on HOST ${c.host} is already in use by another process; stop it or set PORT to a free port`,
  EACCES: (c) =>
    `PORT ${c.port} may not be opened by this user (ports below 1024 need privileges); set PORT to 1024 or higher`,
  EADDRNOTAVAIL: (c) =>
    `HOST ${c.host} is not an address of this machine; set HOST to one of its addresses or 0.0.0.0`,
  ENOTFOUND: (c) => `HOST ${c.host} cannot be resolved; set HOST to an address of this machine or 0.0.0.0`,
};

/** Listens, turning the usual operator mistakes into a one-line configuration error instead of a stack. */
async function listenOn(app: FastifyInstance, config: Config): Promise<string> {
  try {
    return await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const problem = LISTEN_PROBLEMS[(error as { code?: string }).code ?? ''];
    if (!problem) throw error;
    throw new ConfigError(`Invalid configuration: ${problem(config)}.`);
  }
}

function announceOwner(
  created: { user_id: number; team_id: number; api_key: string; password_url: string },
  config: Config,
): void {
  const lines = [
    '',
    '  Leadflow is set up. An owner user and team were created on this first start:',
    `    user:  ${config.bootstrap.email} (id ${created.user_id})`,
    `    team:  ${config.bootstrap.teamName} (id ${created.team_id})`,
    config.bootstrap.apiKey
      ? '    API key: the value of LEADFLOW_BOOTSTRAP_API_KEY'
      : `    API key: ${created.api_key}`,
    '  The key is shown only this once. More keys: leadflow admin create-api-key --email <e-mail>',
    '',
    "  Web application: open this one-time link to set the owner's password (valid 7 days):",
    `    ${created.password_url}`,
    '  A new link at any time: leadflow admin reset-password --email <e-mail>',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
