import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { ChunkCounts } from '../files/import-types.js';
import type { DataSourceError, DataSourcePayload, DataSourcesTable } from './data-sources.tables.js';
import {
  DATA_SOURCE_STATUSES,
  DATA_SOURCE_TYPES,
  type DataSourceStatus,
  type DataSourceType,
} from './data-sources.types.js';

export const dataSourceFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'data_sources.uuid' },
  type: { type: 'enum', values: DATA_SOURCE_TYPES, column: 'data_sources.type' },
  status: { type: 'enum', values: DATA_SOURCE_STATUSES, column: 'data_sources.status' },
  list_uuid: { type: 'uuid', column: 'data_sources.list_uuid' },
  sender_profile_uuid: { type: 'uuid', column: 'data_sources.sender_profile_uuid' },
  created_at: { type: 'datetime', column: 'data_sources.created_at' },
  updated_at: { type: 'datetime', column: 'data_sources.updated_at' },
};
const dataSourceFilter: FilterSpec = { name: 'data source filter', fields: dataSourceFilterFields };

export const dataSourceSort: SortSpec = {
  fields: {
    created_at: 'data_sources.created_at',
    updated_at: 'data_sources.updated_at',
    uuid: 'data_sources.uuid',
  },
  tiebreaker: 'data_sources.uuid',
};

export type DataSourceRow = {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string | null;
  list_uuid: string;
  type: DataSourceType;
  status: DataSourceStatus;
  payload: DataSourcePayload;
  tags: string[];
  errors: DataSourceError[];
  next_page: number;
  next_index: number;
  pages_read: number;
  total_results: number | null;
  read_records: number;
  saved_records: number;
  duplicate_records: number;
  blacklisted_records: number;
  error_records: number;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** The record as the API shows it. */
export function presentDataSource(row: DataSourceRow) {
  return {
    uuid: row.uuid,
    team_id: Number(row.team_id),
    user_id: row.user_id === null ? null : Number(row.user_id),
    sender_profile_uuid: row.sender_profile_uuid,
    list_uuid: row.list_uuid,
    type: row.type,
    status: row.status,
    payload: { url: row.payload.url ?? null, contacts_limit: row.payload.contacts_limit ?? null },
    tags: row.tags,
    errors: row.errors,
    next_page: row.next_page,
    total_results: row.total_results,
    started_at: row.started_at,
    finished_at: row.finished_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function selectDataSources(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(dataSourceFilter, filter);
  let base = db.selectFrom('data_sources').where('data_sources.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, dataSourceSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as DataSourceRow[], total: count.total };
}

export async function selectDataSource(
  db: Executor,
  teamId: number,
  uuid: string,
  options: { forUpdate?: boolean } = {},
) {
  let query = db
    .selectFrom('data_sources')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst()) as DataSourceRow | undefined;
}

export type DataSourceInsert = {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string | null;
  list_uuid: string;
  type: DataSourceType;
  status: DataSourceStatus;
  payload: DataSourcePayload;
  tags: string[];
  started_at: Date | null;
};

export async function insertDataSource(db: Executor, row: DataSourceInsert) {
  return (await db
    .insertInto('data_sources')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      sender_profile_uuid: row.sender_profile_uuid,
      list_uuid: row.list_uuid,
      type: row.type,
      status: row.status,
      payload: JSON.stringify(row.payload),
      tags: row.tags,
      started_at: row.started_at,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as DataSourceRow;
}

export type DataSourceChanges = Partial<{
  type: DataSourceType;
  list_uuid: string;
  sender_profile_uuid: string | null;
  payload: DataSourcePayload;
  tags: string[];
  status: DataSourceStatus;
  /** Back to the first page of the search (the search changed, or a finished source runs again). */
  rewind: boolean;
  started: Date;
}>;

export async function updateDataSource(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: DataSourceChanges,
) {
  const set: Partial<Record<keyof DataSourcesTable, unknown>> = { updated_at: new Date() };
  if (changes.type !== undefined) set.type = changes.type;
  if (changes.list_uuid !== undefined) set.list_uuid = changes.list_uuid;
  if (changes.sender_profile_uuid !== undefined) set.sender_profile_uuid = changes.sender_profile_uuid;
  if (changes.payload !== undefined) set.payload = JSON.stringify(changes.payload);
  if (changes.tags !== undefined) set.tags = changes.tags;
  if (changes.status !== undefined) {
    set.status = changes.status;
    if (changes.status === 'in_progress') set.finished_at = null;
  }
  if (changes.rewind) {
    set.next_page = 1;
    set.next_index = 0;
    set.total_results = null;
    set.read_records = 0;
  }
  return (await db
    .updateTable('data_sources')
    .set(set as never)
    .$if(changes.started !== undefined, (query) =>
      query.set({ started_at: sql`coalesce(started_at, ${changes.started!}::timestamptz)` as never }),
    )
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst()) as DataSourceRow | undefined;
}

export async function deleteDataSource(db: Executor, teamId: number, uuid: string) {
  return (await db
    .deleteFrom('data_sources')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst()) as DataSourceRow | undefined;
}

/** The counters of the team's sources among `uuids`, read from their rows (one index lookup each). */
export async function selectDataSourceMetrics(db: Executor, teamId: number, uuids: string[]) {
  return db
    .selectFrom('data_sources')
    .select([
      'uuid',
      sql<number>`case when status in ('not_started', 'in_progress', 'on_hold')
        then greatest(coalesce(total_results, 0) - read_records, 0) else 0 end`.as('queued_records'),
      'saved_records',
      'duplicate_records',
      'blacklisted_records',
      'error_records',
    ])
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
}

/** Records one processed page (or part of one): counters, cursor, status and errors, in one statement. */
export async function recordPage(
  db: Executor,
  teamId: number,
  uuid: string,
  input: {
    counts: Pick<ChunkCounts, 'created' | 'duplicate' | 'blacklisted'> & { errors: number };
    read: number;
    /** Search pages this write covers. */
    pages: number;
    nextPage: number;
    nextIndex: number;
    total: number | null;
    status: DataSourceStatus;
    errors: DataSourceError[];
    at: Date;
  },
) {
  const finished = input.status !== 'in_progress';
  await sql`
    update data_sources set
      saved_records = saved_records + ${input.counts.created}::int,
      duplicate_records = duplicate_records + ${input.counts.duplicate}::int,
      blacklisted_records = blacklisted_records + ${input.counts.blacklisted}::int,
      error_records = error_records + ${input.counts.errors}::int,
      read_records = read_records + ${input.read}::int,
      pages_read = pages_read + ${input.pages}::int,
      next_page = ${input.nextPage}::int,
      next_index = ${input.nextIndex}::int,
      total_results = coalesce(${input.total}::int, total_results),
      status = ${input.status},
      finished_at = ${finished ? input.at : null}::timestamptz,
      errors = ${appendErrors(input.errors)},
      updated_at = ${input.at}::timestamptz
    where team_id = ${teamId} and uuid = ${uuid}
  `.execute(db);
}

/** Keeps the latest 100 errors. */
function appendErrors(errors: DataSourceError[]) {
  if (errors.length === 0) return sql`errors`;
  return sql`(
    select coalesce(jsonb_agg(e order by n), '[]'::jsonb) from (
      select e, n from jsonb_array_elements(errors || ${JSON.stringify(errors)}::jsonb) with ordinality as t(e, n)
      order by n desc limit 100
    ) kept
  )`;
}

/** Sets the status (failed, or back to waiting) and notes why, unless the source changed meanwhile. */
export async function noteProblem(
  db: Executor,
  teamId: number,
  uuid: string,
  input: { status?: 'failed'; error: DataSourceError; onlyIfNew: boolean },
) {
  await sql`
    update data_sources set
      status = coalesce(${input.status ?? null}::text, status),
      finished_at = case when ${input.status ?? null}::text is null then finished_at else ${input.error.at}::timestamptz end,
      errors = case
        when ${input.onlyIfNew} and errors -> -1 ->> 'reason' = ${input.error.reason} then errors
        else ${appendErrors([input.error])} end,
      updated_at = now()
    where team_id = ${teamId} and uuid = ${uuid} and status = 'in_progress'
  `.execute(db);
}
