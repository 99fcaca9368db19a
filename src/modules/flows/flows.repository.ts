import { type Selectable, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { Schedule } from '../../lib/schedule.js';
import type { FlowStatus, FlowsTable } from './flows.tables.js';

export type FlowRow = Selectable<FlowsTable>;

export const flowFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('f.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'f.uuid' },
  name: { type: 'string', column: 'f.name' },
  status: { type: 'enum', column: 'f.status', values: ['on', 'off', 'draft', 'archived'] },
  flow_workspace_uuid: { type: 'uuid', column: 'f.flow_workspace_uuid' },
  flow_version_uuid: { type: 'uuid', column: 'f.flow_version_uuid' },
  is_public: { type: 'boolean', column: 'f.is_public' },
  user_id: { type: 'integer', column: 'f.user_id' },
  priority: { type: 'integer', column: 'f.priority' },
  created_at: { type: 'datetime', column: 'f.created_at' },
  updated_at: { type: 'datetime', column: 'f.updated_at' },
};
const flowFilter: FilterSpec = { name: 'flow filter', fields: flowFilterFields };

export const flowSort: SortSpec = {
  fields: {
    created_at: 'f.created_at',
    updated_at: 'f.updated_at',
    name: 'f.name',
    priority: 'f.priority',
    uuid: 'f.uuid',
  },
  tiebreaker: 'f.uuid',
};

export async function selectFlows(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(flowFilter, filter);
  let base = db.selectFrom('flows as f').where('f.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('f')
      .orderBy(orderByClause(page, flowSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectFlow(db: Executor, teamId: number, uuid: string, lock = false) {
  let query = db.selectFrom('flows').selectAll().where('team_id', '=', teamId).where('uuid', '=', uuid);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export type NewFlow = {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string;
  description: string | null;
  flow_workspace_uuid: string | null;
  flow_version_uuid: string;
  use_sender_schedule: boolean;
  schedule: Schedule;
  priority: number;
  status: FlowStatus;
  is_public: boolean;
  settings: Record<string, unknown>;
};

export async function insertFlow(db: Executor, flow: NewFlow): Promise<FlowRow> {
  return db
    .insertInto('flows')
    .values({
      team_id: flow.team_id,
      uuid: flow.uuid,
      user_id: flow.user_id,
      name: flow.name,
      description: flow.description,
      flow_workspace_uuid: flow.flow_workspace_uuid,
      flow_version_uuid: flow.flow_version_uuid,
      use_sender_schedule: flow.use_sender_schedule,
      schedule: JSON.stringify(flow.schedule),
      priority: flow.priority,
      status: flow.status,
      is_public: flow.is_public,
      settings: JSON.stringify(flow.settings),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type FlowChanges = Partial<{
  name: string;
  description: string | null;
  flow_workspace_uuid: string | null;
  flow_version_uuid: string;
  use_sender_schedule: boolean;
  schedule: Schedule;
  priority: number;
  status: FlowStatus;
  is_public: boolean;
  /** Keys merged into the flow's settings (the e-mail tracking switches). */
  settings: Record<string, boolean>;
}>;

export async function updateFlow(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: FlowChanges,
): Promise<FlowRow | undefined> {
  return db
    .updateTable('flows')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.flow_workspace_uuid !== undefined
        ? { flow_workspace_uuid: changes.flow_workspace_uuid }
        : {}),
      ...(changes.flow_version_uuid !== undefined ? { flow_version_uuid: changes.flow_version_uuid } : {}),
      ...(changes.use_sender_schedule !== undefined
        ? { use_sender_schedule: changes.use_sender_schedule }
        : {}),
      ...(changes.schedule !== undefined ? { schedule: JSON.stringify(changes.schedule) } : {}),
      ...(changes.priority !== undefined ? { priority: changes.priority } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.is_public !== undefined ? { is_public: changes.is_public } : {}),
      ...(changes.settings !== undefined && Object.keys(changes.settings).length > 0
        ? { settings: sql`settings || ${JSON.stringify(changes.settings)}::jsonb` }
        : {}),
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteFlow(db: Executor, teamId: number, uuid: string): Promise<void> {
  await db.deleteFrom('flows').where('team_id', '=', teamId).where('uuid', '=', uuid).execute();
}

export async function workspaceExists(db: Executor, teamId: number, uuid: string): Promise<boolean> {
  const row = await db
    .selectFrom('flow_workspaces')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return row !== undefined;
}

/** Enrollments of one flow, for endEnrollments. */
export function flowCondition(flowUuid: string) {
  return sql<SqlBool>`fl.flow_uuid = ${flowUuid}`;
}

/** Which of `uuids` are flows of the team. */
export async function selectFlowUuids(db: Executor, teamId: number, uuids: string[]): Promise<string[]> {
  const { rows } = await sql<{ uuid: string }>`
    select uuid from flows where team_id = ${teamId} and uuid = any(${uuids}::uuid[])
  `.execute(db);
  return rows.map((row) => row.uuid);
}
