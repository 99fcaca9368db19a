// Benchmark plumbing: a dedicated PostgreSQL (embedded in .bench/ unless DATABASE_URL is set), fresh
// databases per scenario, an in-process API server, and statistics helpers. Benchmarks report medians
// and ratios against a baseline measured in the same run, because machines here are noisy.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { createDatabaseIfMissing } from '../src/db/connect.js';
import { createDatabase, type DatabaseHandle } from '../src/db/database.js';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from '../src/db/embedded.js';
import type { ListenerHandle } from '../src/db/listener.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { createServices, type Services } from '../src/deps.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';
import { startAuthInvalidation } from '../src/modules/identity/auth-cache.js';
import { startCitusCluster } from '../test/citus/cluster.js';

import type { BenchRow } from './stats.js';

export * from './stats.js';

export type BenchDatabase = { url: string; handle: DatabaseHandle; services: Services; config: Config };

export type BenchServer = {
  serverUrl: string;
  /** A fresh, migrated database. */
  newDatabase(label: string): Promise<BenchDatabase>;
  /**
   * A fresh copy of the database `seed` fills, kept between runs as a template (`benchcache_<label>_<key>`,
   * migrated in place to the current schema, file-copied per run; a new `key` replaces the caches of the
   * same label - put the scale in the label so that runs of other sizes keep theirs). BENCH_CACHE=0, or a Citus cluster, seeds a fresh database every run.
   */
  cachedDatabase(
    label: string,
    key: string,
    seed: (deps: BenchDatabase) => Promise<void>,
    log: (line: string) => void,
  ): Promise<BenchDatabase>;
  stop(): Promise<void>;
};

export type Scenario = {
  name: string;
  description: string;
  run(server: BenchServer, log: (line: string) => void): Promise<BenchRow[]>;
};

/**
 * The database the benchmarks run on: BENCH_CITUS=N starts a Citus cluster with N workers (0: one
 * PostgreSQL 15 from the same binaries, without the citus extension - the single-server baseline of
 * the Citus figures); otherwise DATABASE_URL, or an embedded PostgreSQL in .bench/.
 */
async function benchCluster() {
  const workers = Number(process.env.BENCH_CITUS);
  const cluster = await startCitusCluster({
    workers,
    settings: {
      shared_buffers: '512MB',
      work_mem: '64MB',
      maintenance_work_mem: '256MB',
      max_wal_size: '4GB',
    },
  });
  return {
    serverUrl: cluster.coordinator.url,
    // Each database exists on every node with the extension, and the workers registered in it.
    create: (name: string) =>
      workers > 0 ? cluster.createDatabase(name) : createDatabaseIfMissing(cluster.coordinator.url, name),
    stop: () => cluster.stop(),
  };
}

export async function startBenchServer(): Promise<BenchServer> {
  let serverUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  let create = (name: string) => createDatabaseIfMissing(serverUrl!, name);
  if (process.env.BENCH_CITUS !== undefined) {
    const cluster = await benchCluster();
    serverUrl = cluster.serverUrl;
    stop = cluster.stop;
    create = cluster.create;
  } else if (!serverUrl) {
    const server = await startEmbeddedPostgres({
      dataDir: path.resolve('.bench'),
      port: 0,
      settings: {
        shared_buffers: '1GB',
        work_mem: '64MB',
        maintenance_work_mem: '512MB',
        max_wal_size: '4GB',
      },
    });
    serverUrl = server.url;
    stop = server.stop;
  }
  const handles: DatabaseHandle[] = [];
  const listeners: ListenerHandle[] = [];
  const opened = new Map<BenchDatabase, ListenerHandle>();
  const open = async (name: string): Promise<BenchDatabase> => {
    const url = embeddedDatabaseUrl(serverUrl!, name);
    const handle = createDatabase(url, 30);
    handles.push(handle);
    await migrateDatabase(handle.db, handle.pool);
    const config = loadConfig(
      {
        LOG_LEVEL: 'warn',
        LEADFLOW_RATE_LIMIT_PER_MINUTE: '100000000',
        LEADFLOW_DATA_DIR: path.resolve('.bench'),
        // Every server a benchmark talks to (mail, receivers) listens on loopback.
        LEADFLOW_OUTBOUND_ALLOWLIST: '127.0.0.0/8',
      },
      { databaseUrl: url },
    );
    const services = createServices({ db: handle.db, config, clock: systemClock });
    // As in an API process: the auth cache follows the database's change notifications.
    const listener = await startAuthInvalidation({
      cache: services.identity.authCache,
      connectionString: url,
      log: createLogger('warn'),
    });
    listeners.push(listener);
    const deps = { url, handle, config, services };
    opened.set(deps, listener);
    return deps;
  };
  const close = async (deps: BenchDatabase) => {
    const listener = opened.get(deps)!;
    await listener.stop();
    listeners.splice(listeners.indexOf(listener), 1);
    await deps.handle.close();
    handles.splice(handles.indexOf(deps.handle), 1);
  };
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  const server: BenchServer = {
    serverUrl,
    newDatabase: async (label) => {
      const name = `bench_${label}_${randomBytes(3).toString('hex')}`;
      await create(name);
      return open(name);
    },
    async cachedDatabase(label, key, seed, log) {
      if (process.env.BENCH_CITUS !== undefined || process.env.BENCH_CACHE === '0') {
        const deps = await server.newDatabase(label);
        await seed(deps);
        return deps;
      }
      const cache = `benchcache_${label}_${key}`;
      let exists = await admin(async (c) => {
        const found = await c.query('select 1 from pg_database where datname = $1', [cache]);
        return found.rowCount === 1;
      });
      if (exists) {
        // Brought up to the current migrations in place; one they cannot follow means seeding again.
        try {
          await close(await open(cache));
          log(`  using the seeded database ${cache} (BENCH_CACHE=0 seeds afresh)`);
        } catch (error) {
          log(`  ${cache} does not migrate (${String(error).slice(0, 200)}): seeding again`);
          await admin((c) => c.query(`drop database ${c.escapeIdentifier(cache)} with (force)`));
          exists = false;
        }
      }
      if (!exists) {
        // Seeded under a temporary name, renamed once complete: an interrupted seed leaves no cache.
        const seeding = `bench_seeding_${label}_${randomBytes(3).toString('hex')}`;
        await create(seeding);
        const deps = await open(seeding);
        const started = Date.now();
        await seed(deps);
        log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s; kept as ${cache} for later runs`);
        await close(deps);
        await admin(async (c) => {
          const old = await c.query<{ datname: string }>(
            'select datname from pg_database where datname like $1',
            [`benchcache\\_${label.replaceAll('_', '\\_')}\\_%`],
          );
          for (const { datname } of old.rows) await c.query(`drop database ${c.escapeIdentifier(datname)}`);
          await c.query(
            `alter database ${c.escapeIdentifier(seeding)} rename to ${c.escapeIdentifier(cache)}`,
          );
        });
      }
      const name = `bench_${label}_${randomBytes(3).toString('hex')}`;
      const started = Date.now();
      await admin((c) =>
        c.query(
          `create database ${c.escapeIdentifier(name)} template ${c.escapeIdentifier(cache)} strategy file_copy`,
        ),
      );
      log(`  copied ${cache} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return open(name);
    },
    async stop() {
      for (const listener of listeners) await listener.stop();
      for (const handle of handles) await handle.close();
      if (process.env.BENCH_CITUS !== undefined) return stop();
      // The benchcache_ templates stay for the next run.
      await admin(async (c) => {
        const dbs = await c.query<{ datname: string }>(
          "select datname from pg_database where datname like 'bench\\_%'",
        );
        for (const { datname } of dbs.rows)
          await c.query(`drop database if exists ${c.escapeIdentifier(datname)} with (force)`);
      });
      await stop();
    },
  };
  return server;
}

/** Starts the real app on a loopback port; `extra` registers bench-only routes; `webDir` serves another build. */
export async function listen(
  deps: { config: Config; handle: DatabaseHandle; services: Services },
  extra?: (app: FastifyInstance) => void,
  webDir?: string,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp({
    config: deps.config,
    db: deps.handle.db,
    services: deps.services,
    logger: createLogger('warn'),
    webDir,
  });
  extra?.(app);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url };
}

export type LoadResult = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
};

/**
 * HTTP load from a separate process (autocannon's CLI), so the load generator does not compete with
 * the server for this process's event loop.
 */
export async function load(options: {
  url: string;
  duration?: number;
  connections?: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}): Promise<LoadResult> {
  const args = ['--json', '-c', String(options.connections ?? 32), '-d', String(options.duration ?? 5)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (options.method) args.push('-m', options.method);
  if (options.body) args.push('-b', options.body);
  args.push(options.url);
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      path.resolve('node_modules/.bin/autocannon'),
      args,
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
  const result = JSON.parse(output) as autocannon.Result;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

// Runs in a worker thread: POSTs every body (N at a time) and reports the elapsed milliseconds.
const POST_ALL_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, bodies, concurrency, expectItems } = workerData;
(async () => {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < bodies.length) {
      const res = await fetch(url, { method: 'POST', headers, body: bodies[next++] });
      const text = await res.text();
      if (res.status >= 300) throw new Error('POST ' + url + ' -> ' + res.status + ': ' + text.slice(0, 300));
      if (expectItems !== undefined && JSON.parse(text).length !== expectItems) {
        throw new Error('POST ' + url + ' answered fewer than ' + expectItems + ' items');
      }
    }
  }));
  parentPort.postMessage({ ms: performance.now() - started });
})().catch((error) => parentPort.postMessage({ error: String((error && error.stack) || error) }));
`;

/**
 * POSTs pre-serialised bodies from a worker thread, `concurrency` at a time, and resolves with the
 * elapsed milliseconds. Serialising requests and parsing megabyte responses on the server's own
 * event loop would bill the client's work to the server.
 */
export async function postAllFromWorker(options: {
  url: string;
  headers: Record<string, string>;
  bodies: string[];
  concurrency: number;
  /** Each response must be a JSON array of this many items. */
  expectItems?: number;
}): Promise<number> {
  const worker = new Worker(POST_ALL_WORKER, { eval: true, workerData: options });
  try {
    const [message] = (await once(worker, 'message')) as [{ ms?: number; error?: string }];
    if (message.error !== undefined) throw new Error(message.error);
    return message.ms!;
  } finally {
    await worker.terminate();
  }
}
