// Export files and uploaded CSVs are kept for LEADFLOW_FILE_RETENTION_DAYS, then a scheduled job
// removes them from the file store. The records stay - they are the history of the team's imports and
// exports - with `file_removed_at` set, so a client sees why a download or a new import run of that
// file is refused. Running imports and exports are never touched.
import { type SqlBool, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { claimAcrossTeams } from '../../db/team-claims.js';
import { handleJob, jobType } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from './storage.js';

export const removeExpiredFilesJob = jobType('files.removeExpired', Type.Object({}), {
  schedule: '41 * * * *',
  maxAttempts: 3,
});

const BATCH = 500;

type Expired = { team_id: number; uuid: string; storage_key: string };

/**
 * Marks up to BATCH expired files of `table` as removed and deletes them from the store. The mark
 * commits first: a file is never gone while its record still offers it (a crash in between leaves
 * at worst an orphaned file on disk).
 */
async function removeBatch(
  db: Database,
  store: FileStore,
  table: 'file_exports' | 'file_imports',
  before: Date,
): Promise<number> {
  // Exports age from when they finished; uploads from their last import run, or the upload itself.
  const expired =
    table === 'file_exports'
      ? sql<boolean>`t.status in ('done', 'failed') and t.storage_key is not null and t.finished_at < ${before}`
      : sql<boolean>`t.status in ('uploaded', 'done', 'failed') and coalesce(t.finished_at, t.created_at) < ${before}`;
  const marked = await claimAcrossTeams({
    db,
    mark: 'files-retention',
    table,
    due: sql<SqlBool>`t.file_removed_at is null and ${expired}`,
    order: sql`t.created_at`,
    limit: BATCH,
    async claim(teamId, teamLimit) {
      const { rows } = await sql<Expired>`
        update ${sql.table(table)} t set file_removed_at = now(), updated_at = now()
        where t.team_id = ${teamId} and t.uuid in (
          select t.uuid from ${sql.table(table)} t
          where t.team_id = ${teamId} and t.file_removed_at is null and ${expired}
          limit ${teamLimit} for update skip locked
        )
        returning t.team_id, t.uuid, t.storage_key
      `.execute(db);
      return rows;
    },
  });
  for (const row of marked) await store.delete(row.storage_key);
  return marked.length;
}

/** Removes the files that expired before `before`; returns how many of each kind. */
export async function removeExpiredFiles(db: Database, store: FileStore, before: Date) {
  const removed = { exports: 0, uploads: 0 };
  for (;;) {
    const count = await removeBatch(db, store, 'file_exports', before);
    removed.exports += count;
    if (count < BATCH) break;
  }
  for (;;) {
    const count = await removeBatch(db, store, 'file_imports', before);
    removed.uploads += count;
    if (count < BATCH) break;
  }
  return removed;
}

export function removeExpiredFilesHandler(deps: {
  db: Database;
  store: FileStore;
  clock: Clock;
  retentionDays: number;
}) {
  return handleJob(removeExpiredFilesJob, async (_payload, { log }) => {
    if (deps.retentionDays === 0) return;
    const before = new Date(deps.clock.now().getTime() - deps.retentionDays * 86_400_000);
    const removed = await removeExpiredFiles(deps.db, deps.store, before);
    if (removed.exports + removed.uploads > 0) log.info({ ...removed, before }, 'removed expired files');
  });
}
