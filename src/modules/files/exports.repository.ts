import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { ExportType, FileExportsTable } from './files.tables.js';

export type FileExportRow = Selectable<FileExportsTable>;

export const exportFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'file_exports.uuid' },
  status: { type: 'enum', column: 'file_exports.status', values: ['queued', 'processing', 'done', 'failed'] },
  type: { type: 'enum', column: 'file_exports.type', values: ['contact_export_csv', 'account_export_csv'] },
  file_name: { type: 'string', column: 'file_exports.file_name' },
  created_at: { type: 'datetime', column: 'file_exports.created_at' },
  updated_at: { type: 'datetime', column: 'file_exports.updated_at' },
};

export const exportSort: SortSpec = {
  fields: {
    created_at: 'file_exports.created_at',
    updated_at: 'file_exports.updated_at',
    uuid: 'file_exports.uuid',
  },
  tiebreaker: 'file_exports.uuid',
};

export async function selectExports(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter({ name: 'file export filter', fields: exportFilterFields }, filter);
  let base = db.selectFrom('file_exports').where('file_exports.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, exportSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectExport(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('file_exports')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** A finished export of the team by its file name or its uuid. */
export async function selectDownloadable(
  db: Executor,
  teamId: number,
  by: { file_name: string } | { uuid: string },
) {
  let query = db
    .selectFrom('file_exports')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('status', '=', 'done');
  query = 'uuid' in by ? query.where('uuid', '=', by.uuid) : query.where('file_name', '=', by.file_name);
  return query.executeTakeFirst();
}

export async function insertExport(
  db: Executor,
  row: {
    team_id: number;
    uuid: string;
    user_id: number | null;
    type: ExportType;
    filter: Record<string, unknown>;
    fields: string[] | null;
    skip_blacklisted: boolean;
  },
) {
  return db
    .insertInto('file_exports')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      type: row.type,
      skip_blacklisted: row.skip_blacklisted,
      filter: JSON.stringify(row.filter),
      fields: row.fields === null ? null : JSON.stringify(row.fields),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks a queued (or interrupted) export as processing and returns it; undefined when it is not. */
export async function claimExport(db: Executor, teamId: number, uuid: string) {
  return db
    .updateTable('file_exports')
    .set({ status: 'processing', started_at: new Date(), updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', 'in', ['queued', 'processing'])
    .returningAll()
    .executeTakeFirst();
}

export async function completeExport(
  db: Executor,
  teamId: number,
  uuid: string,
  file: { file_name: string; storage_key: string; rows_count: number; size_bytes: number },
) {
  return db
    .updateTable('file_exports')
    .set({
      file_name: file.file_name,
      storage_key: file.storage_key,
      rows_count: file.rows_count,
      size_bytes: file.size_bytes,
      status: 'done',
      error: null,
      finished_at: new Date(),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
}

export async function failExport(db: Executor, teamId: number, uuid: string, error: string) {
  await db
    .updateTable('file_exports')
    .set({ status: 'failed', error, finished_at: new Date(), updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('status', '=', 'processing')
    .execute();
}
