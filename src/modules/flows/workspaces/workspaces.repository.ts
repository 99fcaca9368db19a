import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../../lib/pagination.js';

export const workspaceFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('w.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'w.uuid' },
  name: { type: 'string', column: 'w.name' },
  user_id: { type: 'integer', column: 'w.user_id' },
  created_at: { type: 'datetime', column: 'w.created_at' },
  updated_at: { type: 'datetime', column: 'w.updated_at' },
};
const workspaceFilter: FilterSpec = { name: 'flow workspace filter', fields: workspaceFilterFields };

export const workspaceSort: SortSpec = {
  fields: {
    created_at: 'w.created_at',
    updated_at: 'w.updated_at',
    name: 'w.name',
    order: 'w.order',
    uuid: 'w.uuid',
  },
  tiebreaker: 'w.uuid',
};

export async function selectWorkspaces(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(workspaceFilter, filter);
  let base = db.selectFrom('flow_workspaces as w').where('w.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('w')
      .orderBy(orderByClause(page, workspaceSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function insertWorkspace(
  db: Executor,
  workspace: { team_id: number; uuid: string; user_id: number; name: string; order: number },
) {
  return db
    .insertInto('flow_workspaces')
    .values({
      team_id: workspace.team_id,
      uuid: workspace.uuid,
      user_id: workspace.user_id,
      name: workspace.name,
      order: workspace.order,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateWorkspace(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: { name?: string; order?: number },
) {
  return db
    .updateTable('flow_workspaces')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.order !== undefined ? { order: changes.order } : {}),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the workspace and returns it; its flows move to no workspace. */
export async function deleteWorkspace(db: Executor, teamId: number, uuid: string) {
  const deleted = await db
    .deleteFrom('flow_workspaces')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
  if (deleted) {
    await db
      .updateTable('flows')
      .set({ flow_workspace_uuid: null, updated_at: new Date() })
      .where('team_id', '=', teamId)
      .where('flow_workspace_uuid', '=', uuid)
      .execute();
  }
  return deleted;
}
