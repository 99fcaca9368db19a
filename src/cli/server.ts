// The commands that run the service or change its database: serve/api/worker, demo and migrate. They take
// the configuration read before this module loads, so a configuration mistake answers at once.
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { buildDemo, demoInstructions } from '../demo.js';
import { createServices } from '../deps.js';
import { systemClock } from '../lib/clock.js';
import { createLogger } from '../lib/logger.js';
import { DEMO_KEY_NAME } from '../modules/identity/roles.js';
import { openDatabase, type Role, startRuntime } from '../runtime.js';

export async function runServer(role: Role, config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  // Handlers go in before anything starts, so a signal during start-up still shuts down cleanly.
  let stopping = false;
  const starting = startRuntime(role, config, logger);
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    starting
      .then((runtime) => runtime.stop())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutdown(signal));
  await starting;
}

export async function runDemo(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { source, database } = await openDatabase(config, logger);
  try {
    const services = createServices({ db: database.db, config, clock: systemClock });
    const app = await buildApp({ config, db: database.db, services, logger });
    try {
      const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
      const team = await services.identity.createUserWithTeam({
        email: `demo+${stamp}@leadflow.local`,
        teamName: `Leadflow demo ${stamp}`,
        keyName: DEMO_KEY_NAME,
      });
      const result = await buildDemo(app, team.api_key);
      const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
      process.stdout.write(`${demoInstructions(result, team.api_key, `http://${host}:${config.port}`)}\n`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await source.stop();
  }
}

export async function runMigrate(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const { source, database } = await openDatabase(config, logger);
  await database.close();
  await source.stop();
  process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
}
