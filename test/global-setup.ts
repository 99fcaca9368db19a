// Starts one PostgreSQL for the whole run (embedded in a temp dir unless DATABASE_URL is set) and
// migrates a template database once; each test file then clones it (CREATE DATABASE ... TEMPLATE),
// which takes milliseconds and isolates files completely.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/database.js';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { citusDatabases, citusTopologyFromEnv } from './citus/cluster.js';
import { trackRun } from './leftovers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    pgTemplate: string;
    /** The Citus cluster when the run is `npm run test:citus` (each database exists on every node). */
    pgCitus: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  const runId = randomBytes(4).toString('hex');
  let serverUrl: string;
  let stopServer = async () => {};
  let dataDir: string | undefined;
  const citus = citusTopologyFromEnv();
  if (citus) {
    serverUrl = citus.coordinator;
  } else if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-test-'));
    await fs.chmod(dataDir, 0o755);
    const server = await startEmbeddedPostgres({
      dataDir,
      port: 0,
      // Test data is disposable: skip the durability work that makes a laptop's disk the bottleneck.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
    serverUrl = server.url;
    stopServer = server.stop;
  }

  // From here on every process and temp dir of the run is tagged (test/leftovers.ts).
  const run = await trackRun(runId);

  const template = `leadflow_test_template_${runId}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  if (citus) await citusDatabases(citus).createDatabase(template);
  else await admin.query(`create database ${template}`);
  const templateDb = createDatabase(embeddedDatabaseUrl(serverUrl, template), 2);
  await migrateDatabase(templateDb.db, templateDb.pool);
  await templateDb.close();

  project.provide('pgServerUrl', serverUrl);
  project.provide('pgTemplate', template);
  project.provide('pgCitus', citus ? JSON.stringify(citus) : undefined);

  return async () => {
    // Drop every database this run created (files drop their own; this catches crashed ones).
    const leftovers = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`leadflow_test_%${runId}%`],
    );
    for (const { datname } of leftovers.rows) {
      if (citus) await citusDatabases(citus).dropDatabase(datname);
      else
        await admin
          .query(`drop database if exists ${admin.escapeIdentifier(datname)} with (force)`)
          .catch(() => {});
    }
    await admin.end();
    await stopServer();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    // Fails the run when a process or temp dir of the tests outlived them.
    await run.check();
  };
}
