// One live run per import or export. The queue can hand a job to a second worker while the first is
// still running it (a worker presumed dead because its heartbeat was late); two runs of one import
// would race for its chunks. A run keeps one connection for its whole duration, does all its work on
// it and holds a session advisory lock there: a second run sees the lock and steps back, and because
// PostgreSQL drops the lock with the connection, a run whose process died leaves the job free for
// the next one. One connection per run, so runs cannot starve the pool of the connections they need.
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * Runs `work` on one reserved connection (`connection` is a Database bound to it; transactions on it
 * run there too) while holding the advisory lock named `key`. Resolves false without running it when
 * another live run holds the lock.
 */
export async function exclusively(
  db: Database,
  key: string,
  work: (connection: Database) => Promise<void>,
): Promise<boolean> {
  return db.connection().execute(async (connection) => {
    const lock = sql`hashtextextended(${key}, 0)`;
    const taken = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${lock}) as ok`.execute(connection);
    if (!taken.rows[0]?.ok) return false;
    try {
      await work(connection);
    } finally {
      // The connection goes back to the pool; the lock must not go with it.
      await sql`select pg_advisory_unlock(${lock})`.execute(connection).catch(() => undefined);
    }
    return true;
  });
}

/** How long a stepped-back run waits before checking again whether the live run still lives. */
export const WATCH_DELAY_MS = 10_000;
