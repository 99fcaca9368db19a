import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { SavedViewPage, SavedViewSort } from './saved-views.tables.js';

export const savedViewFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('saved_views.name'), value, path),
  },
  page: { type: 'string', column: 'saved_views.page' },
  name: { type: 'string', column: 'saved_views.name' },
  uuid: { type: 'uuid', column: 'saved_views.uuid' },
};
const savedViewFilter: FilterSpec = { name: 'saved view filter', fields: savedViewFilterFields };

export const savedViewSort: SortSpec = {
  fields: {
    name: 'saved_views.name',
    page: 'saved_views.page',
    created_at: 'saved_views.created_at',
    updated_at: 'saved_views.updated_at',
  },
  default: 'name',
  tiebreaker: 'saved_views.uuid',
};

export type SavedViewValues = {
  name: string;
  filter: Record<string, unknown>;
  sort: SavedViewSort | null;
  columns: string[];
};

/** The views of one user in one team. */
const ownViews = (db: Executor, teamId: number, userId: number) =>
  db.selectFrom('saved_views').where('team_id', '=', teamId).where('user_id', '=', userId);

export async function selectSavedViews(
  db: Executor,
  teamId: number,
  userId: number,
  filter: unknown,
  page: PageRequest,
) {
  const where = compileFilter(savedViewFilter, filter);
  let base = ownViews(db, teamId, userId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, savedViewSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectSavedView(db: Executor, teamId: number, userId: number, uuid: string) {
  return ownViews(db, teamId, userId).selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

/** Whether the user has another view of the page with this name (case-insensitive). */
export async function nameTaken(
  db: Executor,
  teamId: number,
  userId: number,
  page: SavedViewPage,
  name: string,
  exceptUuid?: string,
): Promise<boolean> {
  let query = ownViews(db, teamId, userId)
    .select('uuid')
    .where('page', '=', page)
    .where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptUuid) query = query.where('uuid', '!=', exceptUuid);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertSavedView(
  db: Executor,
  view: SavedViewValues & { team_id: number; user_id: number; uuid: string; page: SavedViewPage },
) {
  return db
    .insertInto('saved_views')
    .values({
      team_id: view.team_id,
      uuid: view.uuid,
      user_id: view.user_id,
      page: view.page,
      name: view.name,
      filter: JSON.stringify(view.filter),
      sort: view.sort === null ? null : JSON.stringify(view.sort),
      columns: view.columns,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateSavedView(
  db: Executor,
  teamId: number,
  userId: number,
  uuid: string,
  changes: Partial<SavedViewValues>,
) {
  return db
    .updateTable('saved_views')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.filter !== undefined ? { filter: JSON.stringify(changes.filter) } : {}),
      ...(changes.sort !== undefined
        ? { sort: changes.sort === null ? null : JSON.stringify(changes.sort) }
        : {}),
      ...(changes.columns !== undefined ? { columns: changes.columns } : {}),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteSavedView(db: Executor, teamId: number, userId: number, uuid: string) {
  const result = await db
    .deleteFrom('saved_views')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
