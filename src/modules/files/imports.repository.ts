import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { FileImportsTable, ImportRowError, ImportType } from './files.tables.js';

export type FileImportRow = Selectable<FileImportsTable>;

/** Row errors kept on the record; the count covers all of them. */
export const KEPT_ERRORS = 100;

export const importFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'file_imports.uuid' },
  status: {
    type: 'enum',
    column: 'file_imports.status',
    values: ['uploaded', 'queued', 'processing', 'done', 'failed'],
  },
  type: { type: 'enum', column: 'file_imports.type', values: ['csv_leads', 'csv_companies'] },
  file_name: { type: 'string', column: 'file_imports.file_name' },
  created_at: { type: 'datetime', column: 'file_imports.created_at' },
  updated_at: { type: 'datetime', column: 'file_imports.updated_at' },
};

export const importSort: SortSpec = {
  fields: {
    created_at: 'file_imports.created_at',
    updated_at: 'file_imports.updated_at',
    uuid: 'file_imports.uuid',
  },
  tiebreaker: 'file_imports.uuid',
};

export async function selectImports(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter({ name: 'file import filter', fields: importFilterFields }, filter);
  let base = db.selectFrom('file_imports').where('file_imports.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, importSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectImport(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('file_imports')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function insertImport(
  db: Executor,
  row: {
    team_id: number;
    uuid: string;
    user_id: number | null;
    type: ImportType;
    file_name: string;
    storage_key: string;
    size_bytes: number;
    encoding: string;
    has_bom: boolean;
    delimiter: string;
    headers: string[];
    rows_count: number;
    sample_rows: Record<string, string>[];
  },
) {
  return db
    .insertInto('file_imports')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      type: row.type,
      file_name: row.file_name,
      storage_key: row.storage_key,
      size_bytes: row.size_bytes,
      encoding: row.encoding,
      has_bom: row.has_bom,
      delimiter: row.delimiter,
      rows_count: row.rows_count,
      headers: JSON.stringify(row.headers),
      sample_rows: JSON.stringify(row.sample_rows),
      errors: '[]',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Starts a run: stores its configuration, resets the counters and the checkpoint. Only an upload
 * that is not being imported right now can start one (undefined otherwise).
 */
export async function queueImport(
  db: Executor,
  teamId: number,
  uuid: string,
  run: { type: ImportType; config: Record<string, unknown>; totalRows: number },
) {
  return db
    .updateTable('file_imports')
    .set({
      type: run.type,
      status: 'queued',
      config: JSON.stringify(run.config),
      total_rows: run.totalRows,
      processed_rows: 0,
      checkpoint_row: 0,
      created_count: 0,
      updated_count: 0,
      duplicate_count: 0,
      blacklisted_count: 0,
      undeduplicated_count: 0,
      error_count: 0,
      errors: '[]',
      error: null,
      started_at: null,
      finished_at: null,
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', 'not in', ['queued', 'processing'])
    .where('file_removed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Marks a queued (or interrupted) run as processing and returns it; undefined when it is not. */
export async function claimImport(db: Executor, teamId: number, uuid: string) {
  const now = new Date();
  return db
    .updateTable('file_imports')
    .set({
      status: 'processing',
      started_at: sql`coalesce(started_at, ${now}::timestamptz)`,
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', 'in', ['queued', 'processing'])
    .returningAll()
    .executeTakeFirst();
}

/** The run's state, locked until the chunk's transaction ends. */
export async function lockImport(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('file_imports')
    .select(['status', 'checkpoint_row'])
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .forUpdate()
    .executeTakeFirst();
}

export type ChunkProgress = {
  processed: number;
  lastRow: number;
  created: number;
  updated: number;
  duplicate: number;
  blacklisted: number;
  undeduplicated: number;
  errors: ImportRowError[];
};

/** Adds a committed chunk's counters and errors and moves the checkpoint (same transaction as its writes). */
export async function recordChunk(db: Executor, teamId: number, uuid: string, chunk: ChunkProgress) {
  const errors =
    chunk.errors.length === 0
      ? sql`errors`
      : sql`(select coalesce(jsonb_agg(e.value order by e.n), '[]'::jsonb)
          from jsonb_array_elements(errors || ${JSON.stringify(chunk.errors)}::jsonb) with ordinality e(value, n)
          where e.n <= ${KEPT_ERRORS})`;
  await sql`
    update file_imports set
      processed_rows = processed_rows + ${chunk.processed},
      checkpoint_row = ${chunk.lastRow},
      created_count = created_count + ${chunk.created},
      updated_count = updated_count + ${chunk.updated},
      duplicate_count = duplicate_count + ${chunk.duplicate},
      blacklisted_count = blacklisted_count + ${chunk.blacklisted},
      undeduplicated_count = undeduplicated_count + ${chunk.undeduplicated},
      error_count = error_count + ${chunk.errors.length},
      errors = ${errors},
      updated_at = now()
    where team_id = ${teamId} and uuid = ${uuid}
  `.execute(db);
}

export async function finishImport(
  db: Executor,
  teamId: number,
  uuid: string,
  outcome: { status: 'done' } | { status: 'failed'; error: string },
) {
  return db
    .updateTable('file_imports')
    .set({
      status: outcome.status,
      error: outcome.status === 'failed' ? outcome.error : null,
      // Done: every row was processed; the total is what was read (the upload counted the same rows).
      ...(outcome.status === 'done' ? { total_rows: sql`processed_rows` } : {}),
      finished_at: new Date(),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
}
