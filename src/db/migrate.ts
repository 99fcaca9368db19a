import { Logger, runMigrations } from 'graphile-worker';
import { Migrator, sql } from 'kysely';
import type pg from 'pg';
import { hasCitus, installCitusPlacement } from './citus.js';
import { citusMigrationDb, forCitus } from './citus-migrate.js';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

export const silentWorkerLogger = new Logger(() => () => {});

/**
 * Applies our schema migrations (Kysely's migrator holds an advisory lock, so processes starting
 * together are safe) and then the job queue's own schema. On a Citus coordinator (the citus
 * extension installed, or `citus: true`, which installs it) tables are distributed as they are
 * created (src/db/citus.ts).
 */
export async function migrateDatabase(
  db: Database,
  pool: pg.Pool,
  options: { citus?: boolean } = {},
): Promise<{ applied: string[]; citus: boolean }> {
  if (options.citus) await sql`create extension if not exists citus`.execute(db);
  const citus = options.citus !== false && (await hasCitus(db));
  if (citus) await installCitusPlacement(db);
  const migrator = new Migrator({
    db: citus ? citusMigrationDb(pool) : db,
    provider: {
      getMigrations: async () =>
        citus
          ? Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, forCitus(m)]))
          : migrations,
    },
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
  return { applied: (results ?? []).map((result) => result.migrationName), citus };
}
