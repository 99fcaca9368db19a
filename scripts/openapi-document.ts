// The OpenAPI document as the running service serves it, built from buildApp without a database
// connection or a listening server (no route runs; the pool connects lazily and is never used).
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { createServices } from '../src/deps.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const databaseUrl = 'postgres://leadflow@127.0.0.1:1/unused';
  const config = loadConfig(
    { LOG_LEVEL: 'silent', LEADFLOW_SECRET_KEY: Buffer.alloc(32, 1).toString('base64') },
    { databaseUrl },
  );
  const database = createDatabase(databaseUrl, 2);
  const services = createServices({ db: database.db, config, clock: systemClock });
  const app = await buildApp({ config, db: database.db, services, logger: createLogger('silent') });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}
