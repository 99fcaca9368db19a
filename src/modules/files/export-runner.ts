// The export job. One REPEATABLE READ transaction reads the matching records through a server-side
// cursor (FETCH in batches, so memory does not grow with the row count), streams them as CSV into
// the file store, then - on the same snapshot - records one contact_exported /
// account_exported event per exported record and marks the export done. The events and the status
// commit together, and they cover exactly the rows in the file.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, handleJob, jobType } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { emitCompanyEvents, emitContactEvents } from '../events/emit.js';
import { csvRecord } from './csv-format.js';
import { exportColumns, exportQuery } from './export-columns.js';
import { compileExportWhere } from './export-selection.js';
import { claimExport, completeExport, type FileExportRow, failExport } from './exports.repository.js';
import { exclusively, WATCH_DELAY_MS } from './run-lock.js';
import type { FileStore } from './storage.js';

export const exportJob = jobType(
  'files.export',
  Type.Object({ teamId: Type.Integer(), uuid: Type.String({ format: 'uuid' }) }),
  { maxAttempts: 5 },
);

/** Rows per FETCH: enough to amortise the round trip, few enough to keep memory flat. */
const FETCH_ROWS = 2000;

/** Unguessable, so a name alone reveals nothing; downloads still look it up by team. */
export function exportFileName(type: FileExportRow['type'], now: Date): string {
  const prefix = type === 'contact_export_csv' ? 'leads' : 'companies';
  return `${prefix}-export-${now.toISOString().slice(0, 10)}-${randomBytes(12).toString('hex')}.csv`;
}

/**
 * Streams the cursor's rows as CSV (UTF-8 with a BOM, so spreadsheets read it as UTF-8) into the
 * store; resolves with rows and bytes written. The next FETCH runs while a batch is formatted.
 */
async function writeCsv(trx: Executor, store: FileStore, key: string, headers: string[]) {
  const out = new PassThrough();
  const written = store.write(key, out);
  written.catch(() => {});
  const fetch = () => {
    const batch = sql<{ r: Array<string | null> }>`
      fetch forward ${sql.lit(FETCH_ROWS)} from leadflow_export
    `.execute(trx);
    // A batch fetched ahead is awaited later; if an earlier step fails first it must not go unhandled.
    batch.catch(() => {});
    return batch;
  };
  let rows = 0;
  try {
    out.write(`\ufeff${csvRecord(headers)}`);
    let next = fetch();
    for (;;) {
      const batch = await next;
      const more = batch.rows.length === FETCH_ROWS;
      if (more) next = fetch();
      let text = '';
      for (const row of batch.rows) text += csvRecord(row.r);
      rows += batch.rows.length;
      if (!out.write(text)) await Promise.race([once(out, 'drain'), written]);
      if (!more) break;
    }
    out.end();
  } catch (error) {
    out.destroy(error as Error);
    throw error;
  }
  return { rows, bytes: await written };
}

async function emitExported(trx: Executor, record: FileExportRow, where: RawBuilder<SqlBool> | undefined) {
  const teamId = record.team_id;
  const filter = where ?? sql<SqlBool>`true`;
  return record.type === 'contact_export_csv'
    ? emitContactEvents(
        trx,
        teamId,
        'contact_exported',
        sql`select l.uuid from leads l where l.team_id = ${teamId} and ${filter}`,
      )
    : emitCompanyEvents(
        trx,
        teamId,
        'account_exported',
        sql`select c.uuid from companies c where c.team_id = ${teamId} and ${filter}`,
      );
}

async function runExport(db: Database, store: FileStore, record: FileExportRow): Promise<void> {
  const { team_id: teamId, type } = record;
  const where = await compileExportWhere(db, teamId, type, record.filter, record.skip_blacklisted);
  const definitions = await selectCustomFieldDefinitions(
    db,
    teamId,
    type === 'contact_export_csv' ? 'lead' : 'company',
  );
  const columns = exportColumns(type, definitions, record.fields);
  const fileName = exportFileName(type, new Date());
  const key = `exports/${teamId}/${fileName}`;
  try {
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`declare leadflow_export no scroll cursor for ${exportQuery(type, teamId, columns, where)}`.execute(
          trx,
        );
        const written = await writeCsv(
          trx,
          store,
          key,
          columns.map((column) => column.header),
        );
        await sql`close leadflow_export`.execute(trx);
        const events = await emitExported(trx, record, where);
        if (events !== written.rows) {
          throw new Error(
            `export ${record.uuid}: ${written.rows} rows written but ${events} events recorded`,
          );
        }
        const done = await completeExport(trx, teamId, record.uuid, {
          file_name: fileName,
          storage_key: key,
          rows_count: written.rows,
          size_bytes: written.bytes,
        });
        if (!done) throw new Error(`export ${record.uuid} is no longer processing`);
      });
  } catch (error) {
    await store.delete(key);
    throw error;
  }
}

export function exportJobHandler(deps: { db: Database; store: FileStore }) {
  return handleJob(exportJob, async (payload, context) => {
    const { teamId, uuid } = payload;
    const key = `files.export:${teamId}:${uuid}`;
    const ran = await exclusively(deps.db, key, async (connection) => {
      const record = await claimExport(connection, teamId, uuid);
      if (!record) return;
      try {
        await runExport(connection, deps.store, record);
      } catch (error) {
        const final = error instanceof AppError || context.attempt >= context.maxAttempts;
        if (!final) throw error;
        context.log.error({ err: error, export: uuid }, 'export failed');
        await failExport(
          connection,
          teamId,
          uuid,
          error instanceof AppError ? error.message : 'Internal error; the export was stopped.',
        );
      }
    });
    // Another live run has it; if that run's process dies, this job starts the export again.
    if (!ran) {
      await enqueueJob(deps.db, exportJob, payload, {
        runAt: new Date(Date.now() + WATCH_DELAY_MS),
        jobKey: key,
      });
    }
  });
}
