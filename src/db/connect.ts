// Where the database comes from: DATABASE_URL when set, otherwise the embedded server in the data dir.
import pg from 'pg';
import type { Config } from '../config.js';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from './embedded.js';

export type DatabaseSource = { url: string; embedded: boolean; stop(): Promise<void> };

const EMBEDDED_DATABASE = 'leadflow';

export async function openDatabaseSource(
  config: Config,
  log: (message: string) => void = () => {},
): Promise<DatabaseSource> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  }
  const server = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, log });
  try {
    await createDatabaseIfMissing(server.url, EMBEDDED_DATABASE);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: embeddedDatabaseUrl(server.url, EMBEDDED_DATABASE),
    embedded: true,
    stop: () => server.stop(),
  };
}

export async function createDatabaseIfMissing(
  serverUrl: string,
  name: string,
  template?: string,
): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      const from = template ? ` template ${client.escapeIdentifier(template)}` : '';
      await client.query(`create database ${client.escapeIdentifier(name)}${from}`).catch((error) => {
        // Lost a race with another process creating it: fine.
        if ((error as { code?: string }).code !== '42P04') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
