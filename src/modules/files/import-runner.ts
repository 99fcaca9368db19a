// The import job. It streams the stored file (never whole in memory) and works in chunks of rows;
// each chunk's writes, its counters and errors and the checkpoint (the file row it ended on) commit in
// one transaction. A run that dies - process killed, database restarted - is picked up again by the
// queue and resumes after the last checkpoint, so every row is counted exactly once and no contact is
// written twice. While one chunk is written the next one is parsed, so parsing and the database work
// side by side.
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, handleJob, type JobContext, jobType } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { selectInitialStageUuid } from '../pipeline-stages/pipeline-stages.defaults.js';
import { type CsvEncoding, isEmptyRecord, readRecords } from './csv-format.js';
import { prepareCompanyRows, writeCompanyChunk } from './import-companies.js';
import { prepareLeadRows, writeLeadChunk } from './import-leads.js';
import type { MappedColumn } from './import-mapping.js';
import type { ChunkCounts, SourceRow } from './import-types.js';
import {
  claimImport,
  type FileImportRow,
  finishImport,
  lockImport,
  recordChunk,
} from './imports.repository.js';
import { exclusively, WATCH_DELAY_MS } from './run-lock.js';
import type { FileStore } from './storage.js';

/** The run's configuration, stored on the import record when it is started. */
export type ImportConfig = {
  kind: 'leads' | 'companies';
  /** The mapping as the client gave it, for display. */
  mapping: Array<{ source: string; target: string | null }>;
  columns: MappedColumn[];
  skip_first_row: boolean;
  update_if_exists: boolean;
  move_to_list: boolean;
  list_uuid: string | null;
  list_uuids: string[];
  tag_uuids: string[];
  data_source_uuid: string | null;
};

/** Rows per chunk: large enough for set-based statements to pay off, small enough to keep locks short. */
export const CHUNK_ROWS = 5000;

export const importJob = jobType(
  'files.import',
  Type.Object({ teamId: Type.Integer(), uuid: Type.String({ format: 'uuid' }) }),
  { maxAttempts: 10 },
);

/**
 * The file's non-empty data rows in order. The first non-empty record is the header; with
 * `skipFirstRow` false it is imported as data too.
 */
export async function* readDataRows(
  store: FileStore,
  record: Pick<FileImportRow, 'storage_key' | 'encoding' | 'delimiter'>,
  skipFirstRow: boolean,
): AsyncGenerator<SourceRow> {
  const records = readRecords(store.read(record.storage_key), {
    encoding: record.encoding as CsvEncoding,
    delimiter: record.delimiter,
  });
  let row = 0;
  let headerSeen = !skipFirstRow;
  for await (const cells of records) {
    row++;
    if (isEmptyRecord(cells)) continue;
    if (!headerSeen) {
      headerSeen = true;
      continue;
    }
    yield { row, cells };
  }
}

/**
 * A chunk in two steps: `prepare` normalises the rows in memory (while the previous chunk is still
 * being written), `write` runs the chunk's statements inside its transaction.
 */
type ChunkWriter = (rows: SourceRow[]) => {
  errors: ChunkCounts['errors'];
  write: (trx: Executor) => Promise<ChunkCounts>;
};

/** Another run owns the import now (or it was restarted); this one stops without touching it. */
class Superseded extends Error {}

async function chunkWriter(db: Database, record: FileImportRow, config: ImportConfig): Promise<ChunkWriter> {
  const teamId = record.team_id;
  const definitions = await selectCustomFieldDefinitions(
    db,
    teamId,
    config.kind === 'leads' ? 'lead' : 'company',
  );
  for (const column of config.columns) {
    if (column.customField && !definitions.some((d) => d.uuid === column.customField!.uuid)) {
      throw new AppError(
        'validation_error',
        `The custom field "${column.customField.name}" (column "${column.source}") was deleted; start the import again.`,
      );
    }
  }
  const base = {
    teamId,
    userId: record.user_id,
    updateIfExists: config.update_if_exists,
    tagUuids: config.tag_uuids,
    dataSourceUuid: config.data_source_uuid,
    columns: config.columns,
  };
  if (config.kind === 'leads') {
    const options = {
      ...base,
      listUuid: config.list_uuid!,
      moveToList: config.move_to_list,
      stageUuid: await selectInitialStageUuid(db, teamId, 'lead'),
    };
    return (rows) => {
      const { prepared, errors } = prepareLeadRows(rows, config.columns);
      return { errors, write: (trx) => writeLeadChunk(trx, options, prepared) };
    };
  }
  const options = {
    ...base,
    listUuids: config.list_uuids,
    initialStageUuid: await selectInitialStageUuid(db, teamId, 'company'),
  };
  return (rows) => {
    const { prepared, errors } = prepareCompanyRows(rows, config.columns);
    return { errors, write: (trx) => writeCompanyChunk(trx, options, prepared) };
  };
}

/** Runs (or resumes) the import to the end. */
async function runImport(db: Database, store: FileStore, record: FileImportRow, chunkRows: number) {
  const config = record.config as unknown as ImportConfig;
  const prepare = await chunkWriter(db, record, config);
  const { team_id: teamId, uuid } = record;
  let checkpoint = record.checkpoint_row;

  const commit = (rows: SourceRow[], chunk: ReturnType<ChunkWriter>, expected: number) =>
    db.transaction().execute(async (trx) => {
      const state = await lockImport(trx, teamId, uuid);
      if (state?.status !== 'processing' || state.checkpoint_row !== expected) throw new Superseded();
      const counts = await chunk.write(trx);
      const errors = [...chunk.errors, ...counts.errors].sort((a, b) => a.row - b.row);
      await recordChunk(trx, teamId, uuid, {
        ...counts,
        errors,
        processed: rows.length,
        lastRow: rows.at(-1)!.row,
      });
    });

  // One chunk is written while the next is read, parsed and normalised.
  let inflight: Promise<void> = Promise.resolve();
  let chunk: SourceRow[] = [];
  const flush = async () => {
    const rows = chunk;
    chunk = [];
    const expected = checkpoint;
    checkpoint = rows.at(-1)!.row;
    const prepared = prepare(rows);
    await inflight;
    inflight = commit(rows, prepared, expected);
    inflight.catch(() => {});
  };
  for await (const row of readDataRows(store, record, config.skip_first_row)) {
    if (row.row <= checkpoint) continue;
    chunk.push(row);
    if (chunk.length >= chunkRows) await flush();
  }
  if (chunk.length > 0) await flush();
  await inflight;
}

async function runJob(
  deps: { db: Database; store: FileStore; chunkRows?: number },
  { teamId, uuid }: { teamId: number; uuid: string },
  context: JobContext,
) {
  const record = await claimImport(deps.db, teamId, uuid);
  if (!record) return;
  try {
    await runImport(deps.db, deps.store, record, deps.chunkRows ?? CHUNK_ROWS);
    await finishImport(deps.db, teamId, uuid, { status: 'done' });
  } catch (error) {
    if (error instanceof Superseded) {
      context.log.warn({ import: uuid }, 'import run superseded by another run; stopping');
      return;
    }
    const code = (error as { code?: string }).code;
    // A deleted list or stage (foreign key) or a removed file does not come back by retrying.
    const final =
      error instanceof AppError ||
      code === '23503' ||
      code === 'ENOENT' ||
      context.attempt >= context.maxAttempts;
    if (!final) throw error;
    context.log.error({ err: error, import: uuid }, 'import failed');
    const message =
      error instanceof AppError
        ? error.message
        : code === '23503'
          ? 'The target list or pipeline stage was deleted during the import; start it again.'
          : code === 'ENOENT'
            ? 'The uploaded file is no longer stored; upload it again.'
            : 'Internal error; the import was stopped. Rows up to processed_rows are in.';
    await finishImport(deps.db, teamId, uuid, { status: 'failed', error: message });
  }
}

export const importJobKey = (teamId: number, uuid: string) => `files.import:${teamId}:${uuid}`;

export function importJobHandler(deps: { db: Database; store: FileStore; chunkRows?: number }) {
  return handleJob(importJob, async (payload, context) => {
    const key = importJobKey(payload.teamId, payload.uuid);
    const ran = await exclusively(deps.db, key, (connection) =>
      runJob({ ...deps, db: connection }, payload, context),
    );
    // Another live run has it. Check back later: if that run's process dies, this job resumes it.
    if (!ran) {
      await enqueueJob(deps.db, importJob, payload, {
        runAt: new Date(Date.now() + WATCH_DELAY_MS),
        jobKey: key,
      });
    }
  });
}
