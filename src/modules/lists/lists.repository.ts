import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';

export const listFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('lists.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'lists.uuid' },
  name: { type: 'string', column: 'lists.name' },
  created_at: { type: 'datetime', column: 'lists.created_at' },
  updated_at: { type: 'datetime', column: 'lists.updated_at' },
};
export const listFilter: FilterSpec = { name: 'list filter', fields: listFilterFields };

export const listSort: SortSpec = {
  fields: {
    created_at: 'lists.created_at',
    updated_at: 'lists.updated_at',
    name: 'lists.name',
    uuid: 'lists.uuid',
  },
  tiebreaker: 'lists.uuid',
};

export async function selectLists(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(listFilter, filter);
  let base = db.selectFrom('lists').where('lists.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, listSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectList(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('lists')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Locks the list so no contact can be added to it until the transaction ends. */
export async function lockList(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('lists')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertList(db: Executor, list: { team_id: number; uuid: string; name: string }) {
  return db
    .insertInto('lists')
    .values({ team_id: list.team_id, uuid: list.uuid, name: list.name })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateList(db: Executor, teamId: number, uuid: string, name: string) {
  return db
    .updateTable('lists')
    .set({ name, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteList(db: Executor, teamId: number, uuid: string) {
  await db.deleteFrom('lists').where('team_id', '=', teamId).where('uuid', '=', uuid).execute();
}

export async function countLeadsInList(db: Executor, teamId: number, uuid: string): Promise<number> {
  const row = await db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('list_uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Lead counts of the team's lists among `uuids`, one grouped scan of the list index. */
export async function selectListLeadCounts(db: Executor, teamId: number, uuids: string[]) {
  return db
    .selectFrom('lists')
    .leftJoin('leads', (join) =>
      join.onRef('leads.team_id', '=', 'lists.team_id').onRef('leads.list_uuid', '=', 'lists.uuid'),
    )
    .select(['lists.uuid', (eb) => eb.fn.count<number>('leads.uuid').as('leads_count')])
    .where('lists.team_id', '=', teamId)
    .where('lists.uuid', 'in', uuids)
    .groupBy('lists.uuid')
    .execute();
}
