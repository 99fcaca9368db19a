// Per-file test context: a private database cloned from the migrated template, the real services and
// the real Fastify app (requests go through every hook via inject), plus helpers to create users.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';
import { embeddedDatabaseUrl } from '../src/db/embedded.js';
import { createJobCatalog, createServices, type Services } from '../src/deps.js';
import type { JobHandler } from '../src/jobs/queue.js';
import { startWorker, type WorkerHandle } from '../src/jobs/runner.js';
import type { Clock } from '../src/lib/clock.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';
import { startAuthInvalidation } from '../src/modules/identity/auth-cache.js';
import { type CitusTopology, citusDatabases } from './citus/cluster.js';
import { chromiumPath } from './system-programs.js';

export type TestUser = {
  userId: number;
  teamId: number;
  apiKey: string;
  email: string;
  headers: Record<string, string>;
};

export type TestContext = {
  config: Config;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  databaseUrl: string;
  services: Services;
  app: FastifyInstance;
  /** A fresh user with their own team and key. */
  createUser(teamName?: string): Promise<TestUser>;
  /** Request as `user` (or unauthenticated when null). Bodies are JSON. */
  request(user: TestUser | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Starts the job workers of this context (stopped by close()). */
  startWorkers(overrides?: Partial<Config['worker']> & { extraJobs?: JobHandler[] }): Promise<WorkerHandle>;
  close(): Promise<void>;
};

/** Creates a database cloned from the migrated template; returns its URL and a drop function. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject('pgServerUrl');
  const template = inject('pgTemplate');
  const name = `${template}_f${randomBytes(4).toString('hex')}`;
  const citus = inject('pgCitus');
  if (citus) {
    // On Citus the clone is made on every node, so the coordinator's shard map finds its shards.
    const cluster = citusDatabases(JSON.parse(citus) as CitusTopology);
    await cluster.cloneDatabase(template, name);
    return { url: embeddedDatabaseUrl(serverUrl, name), drop: () => cluster.dropDatabase(name) };
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(
      `create database ${admin.escapeIdentifier(name)} template ${admin.escapeIdentifier(template)}`,
    );
  } finally {
    await admin.end();
  }
  return {
    url: embeddedDatabaseUrl(serverUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client
        .query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`)
        .catch(() => {});
      await client.end();
    },
  };
}

export function testConfig(
  databaseUrl: string,
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
): Config {
  return loadConfig(
    {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      LEADFLOW_RATE_LIMIT_PER_MINUTE: '100000',
      LEADFLOW_SECRET_KEY: randomBytes(32).toString('base64'),
      LEADFLOW_WORKER_POLL_INTERVAL_MS: '100',
      // The machine's Chromium, as the application would find it (test/system-programs.ts).
      LEADFLOW_CHROMIUM_PATH: chromiumPath,
      ...env,
    },
    { databaseUrl, ...overrides },
  );
}

export async function createTestContext(
  options: {
    config?: Partial<Config>;
    env?: Record<string, string>;
    clock?: Clock;
    /** Registers extra (test-only) routes before the app is sealed. */
    routes?: (app: FastifyInstance) => Promise<void> | void;
  } = {},
): Promise<TestContext> {
  const created = await createTestDatabase();
  const config = testConfig(created.url, options.config, options.env);
  const database = createDatabase(created.url, 10);
  const logger = createLogger(config.logLevel);
  const deps = { db: database.db, config, clock: options.clock ?? systemClock };
  const services = createServices(deps);
  // As in an API process: the auth cache follows the database's change notifications.
  const authInvalidation = await startAuthInvalidation({
    cache: services.identity.authCache,
    connectionString: created.url,
    log: logger,
  });
  const app = await buildApp({ config, db: database.db, services, logger });
  if (options.routes) await options.routes(app);
  await app.ready();
  const workers: WorkerHandle[] = [];
  let counter = 0;

  return {
    config,
    database,
    db: database.db,
    databaseUrl: created.url,
    services,
    app,
    async createUser(teamName = 'Test team') {
      counter += 1;
      const email = `user${counter}-${randomBytes(3).toString('hex')}@example.test`;
      const result = await services.identity.createUserWithTeam({ email, teamName });
      return {
        userId: result.user_id,
        teamId: result.team_id,
        apiKey: result.api_key,
        email,
        headers: { authorization: `Bearer ${result.api_key}` },
      };
    },
    request(user, requestOptions) {
      return app.inject({
        ...requestOptions,
        headers: { ...(user ? user.headers : {}), ...(requestOptions.headers ?? {}) },
      });
    },
    async startWorkers({ extraJobs = [], ...overrides } = {}) {
      const worker = await startWorker({
        db: database.db,
        pool: database.pool,
        jobs: [...createJobCatalog(services, deps), ...extraJobs],
        ...config.worker,
        ...overrides,
        log: logger,
      });
      workers.push(worker);
      return worker;
    },
    async close() {
      for (const worker of workers) await worker.stop();
      await app.close();
      await authInvalidation.stop();
      await database.close();
      await created.drop();
    },
  };
}

/** Polls `check` until it returns a truthy value or the timeout passes. */
export async function waitFor<T>(check: () => Promise<T>, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
