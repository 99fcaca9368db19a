import { type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { sumDeltas, taskCountDeltas } from '../../db/count-deltas.js';
import type { Executor } from '../../db/database.js';
import { orderByClause, type PageRequest } from '../../lib/pagination.js';
import { type TaskWhere, taskSort } from './tasks.filter.js';
import type { TasksTable } from './tasks.tables.js';

/** The task object's columns (spec 2.12, api-facts 4.7), in wire order. */
export const TASK_COLUMNS = [
  'uuid',
  'team_id',
  'lead_uuid',
  'company_uuid',
  'sender_profile_uuid',
  'mailbox_uuid',
  'flow_uuid',
  'flow_lead_uuid',
  'flow_node_id',
  'type',
  'automation',
  'status',
  'payload',
  'attempts',
  'error_msg',
  'automation_error_code',
  'fork_result',
  'priority',
  'note',
  'timezone',
  'schedule_at',
  'executed_at',
  'taken_to_execute_at',
  'assigned_to',
  'user_id',
  'created_at',
  'updated_at',
] as const;

const columns = sql.join(TASK_COLUMNS.map((name) => sql.ref(`t.${name}`)));
const teamScope = (teamId: number, where?: RawBuilder<SqlBool>) =>
  where ? sql<SqlBool>`t.team_id = ${teamId} and ${where}` : sql<SqlBool>`t.team_id = ${teamId}`;

/** A task as the API shows it (the engine's bookkeeping columns left out). */
export type TaskRow = Omit<Selectable<TasksTable>, 'step' | 'remote_ref'>;

export async function selectTaskPage(db: Executor, teamId: number, where: TaskWhere, page: PageRequest) {
  const { rows } = await sql<TaskRow>`
    select ${columns} from tasks t where ${teamScope(teamId, where.tasks)}
    order by ${orderByClause(page, taskSort)} limit ${page.limit} offset ${page.offset}
  `.execute(db);
  return rows;
}

/**
 * The exact number of the team's tasks matching the filter: summed from the count deltas when the
 * filter names only their columns, otherwise counted on tasks (through the index of the filter).
 */
export async function countTasks(db: Executor, teamId: number, where: TaskWhere): Promise<number> {
  if (where.deltas !== null) {
    const [total] = await sumDeltas(db, taskCountDeltas, teamId, where.deltas ? { where: where.deltas } : {});
    return Number(total?.count ?? 0);
  }
  const { rows } = await sql<{ n: number }>`
    select count(*)::bigint as n from tasks t where ${teamScope(teamId, where.tasks)}
  `.execute(db);
  return rows[0]!.n;
}

/** Counts matching tasks, but stops at `cap` (enough to choose between a request and a job). */
export async function countTasksUpTo(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
  cap: number,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from tasks t where ${teamScope(teamId, where)} limit ${cap}) capped
  `.execute(db);
  return rows[0]!.n;
}

export async function selectTask(db: Executor, teamId: number, uuid: string) {
  const { rows } = await sql<TaskRow>`
    select ${columns} from tasks t where t.team_id = ${teamId} and t.uuid = ${uuid}
  `.execute(db);
  return rows[0];
}

/** The team's tasks of `uuids`, oldest first. */
export async function selectTasksByUuids(db: Executor, teamId: number, uuids: string[]) {
  if (uuids.length === 0) return [];
  const { rows } = await sql<TaskRow>`
    select ${columns} from tasks t where t.team_id = ${teamId} and t.uuid = any(${uuids}::uuid[])
    order by t.created_at, t.uuid
  `.execute(db);
  return rows;
}

/** Automation tasks among `uuids` (the first few), for refusing hand moves of them. */
export async function selectAutomationTaskUuids(db: Executor, teamId: number, uuids: string[]) {
  const { rows } = await sql<{ uuid: string }>`
    select t.uuid from tasks t
    where t.team_id = ${teamId} and t.uuid = any(${uuids}::uuid[]) and t.automation = 'auto'
    limit 10
  `.execute(db);
  return rows.map((row) => row.uuid);
}

export type ManualTaskValues = {
  team_id: number;
  uuid: string;
  lead_uuid: string;
  company_uuid: string | null;
  sender_profile_uuid: string;
  type: string;
  payload: Record<string, unknown>;
  note: string | null;
  timezone: string;
  schedule_at: Date | null;
  assigned_to: number | null;
  user_id: number;
};

export async function insertManualTask(db: Executor, task: ManualTaskValues) {
  const { rows } = await sql<TaskRow>`
    insert into tasks as t (team_id, uuid, lead_uuid, company_uuid, sender_profile_uuid, type, automation,
      status, payload, note, timezone, schedule_at, assigned_to, user_id)
    values (${task.team_id}, ${task.uuid}, ${task.lead_uuid}, ${task.company_uuid},
      ${task.sender_profile_uuid}, ${task.type}, 'manual', 'in_progress', ${JSON.stringify(task.payload)}::jsonb,
      ${task.note}, ${task.timezone}, coalesce(${task.schedule_at}::timestamptz, now()), ${task.assigned_to},
      ${task.user_id})
    returning ${columns}
  `.execute(db);
  return rows[0]!;
}

/** The contact's company (tasks carry it), or undefined when the contact is not the team's. */
export async function selectLeadForTask(db: Executor, teamId: number, leadUuid: string) {
  return db
    .selectFrom('leads')
    .select(['uuid', 'company_uuid'])
    .where('team_id', '=', teamId)
    .where('uuid', '=', leadUuid)
    .executeTakeFirst();
}

/**
 * Cancels the still-open to-dos of deleted contacts (a step of the contact purge); their automation
 * tasks end with their enrollments.
 */
export async function cancelManualTasksOfLeads(db: Executor, teamId: number, leadUuids: string[]) {
  await sql`
    update tasks t set status = 'canceled', error_msg = coalesce(t.error_msg, 'contact_deleted'),
      updated_at = now()
    where t.team_id = ${teamId} and t.lead_uuid = any(${leadUuids}::uuid[])
      and t.automation = 'manual' and t.status in ('in_progress', 'failed')
  `.execute(db);
}
