import { Logger, runMigrations } from 'graphile-worker';
import { Migrator } from 'kysely';
import type pg from 'pg';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

export const silentWorkerLogger = new Logger(() => () => {});

/**
 * Applies our schema migrations (Kysely's migrator holds an advisory lock, so processes starting
 * together are safe) and then the job queue's own schema.
 */
export async function migrateDatabase(db: Database, pool: pg.Pool): Promise<{ applied: string[] }> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
  await runMigrations({ pgPool: pool, logger: silentWorkerLogger });
  return { applied: (results ?? []).map((result) => result.migrationName) };
}
