// The task filter (spec 2.12, api-facts 4.7) on two tables: the tasks themselves (alias `t`) and their
// count deltas (alias `d`, src/db/count-deltas.ts). A filter that names only columns the deltas keep
// (flow, node, sender, type, automation, status) is counted from the deltas - an exact total without
// reading tasks; any other key (contact, dates...) is counted on tasks through its index.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  compileFilter,
  compileValue,
  type FilterContext,
  type FilterField,
  type FilterSpec,
  filterError,
} from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';
import type { SortSpec } from '../../lib/pagination.js';

export const TASK_STATUSES = ['in_progress', 'closed', 'canceled', 'failed', 'skipped'] as const;
export type TaskStatusValue = (typeof TASK_STATUSES)[number];

/** The types a person can be given as a to-do (spec 2.12). */
export const MANUAL_TASK_TYPES = [
  'linkedin_send_message',
  'linkedin_send_connection_request',
  'linkedin_send_inmail',
  'linkedin_like_latest_post',
  'linkedin_endorse_skills',
] as const;

/** Keys that are columns of task_count_deltas too. */
const DELTA_KEYS = [
  'flow_uuid',
  'flow_node_id',
  'sender_profile_uuid',
  'type',
  'automation',
  'status',
  'automation_error_code',
];

const scheduleAt: FilterField = { type: 'datetime', column: 't.schedule_at' };

/** schedule_at_before / _after (the keys the hosted MCP server sends): one bound on schedule_at. */
const scheduleBound = (op: '<' | '>', description: string): FilterField => ({
  type: 'datetime',
  description,
  compile: (value, { path }) => compileValue(scheduleAt, sql.ref('t.schedule_at'), { [op]: value }, path),
});

/** assignee_uuid: the team member (users.uuid) a to-do is assigned to; a list means any of them. */
function assigneeCondition(value: unknown, { path }: FilterContext): RawBuilder<SqlBool> {
  if (value === null || value === 'is_null') return sql<SqlBool>`t.assigned_to is null`;
  if (value === 'is_not_null') return sql<SqlBool>`t.assigned_to is not null`;
  const list = Array.isArray(value) ? value : [value];
  const bad = list.findIndex((item) => typeof item !== 'string' || !isUuid(item));
  if (bad >= 0) {
    throw filterError(path, `${path} must be a user UUID or a list of them (users.uuid of team members)`);
  }
  const uuids = (list as string[]).map((item) => item.toLowerCase());
  return sql<SqlBool>`t.assigned_to = any(array(select u.id from users u where u.uuid = any(${uuids}::uuid[])))`;
}

function fields(alias: 't' | 'd'): FilterSpec['fields'] {
  const column = (name: string) => `${alias}.${name}`;
  const all: Record<string, FilterField> = {
    flow_uuid: { type: 'uuid', column: column('flow_uuid'), description: 'Flow (automation)' },
    type: { type: 'string', column: column('type'), description: 'Task type (the node type)' },
    status: {
      type: 'enum',
      values: TASK_STATUSES,
      column: column('status'),
      description: TASK_STATUSES.join(', '),
    },
    automation: {
      type: 'enum',
      values: ['manual', 'auto'],
      column: column('automation'),
      description: 'manual (a to-do) or auto (made by a flow)',
    },
    sender_profile_uuid: {
      type: 'uuid',
      column: column('sender_profile_uuid'),
      description: 'Sender profile',
    },
    flow_node_id: { type: 'integer', column: column('flow_node_id'), description: 'Node of the flow' },
    lead_uuid: { type: 'uuid', column: column('lead_uuid'), description: 'Contact' },
    flow_lead_uuid: { type: 'uuid', column: column('flow_lead_uuid'), description: 'Enrollment' },
    uuid: { type: 'uuid', column: column('uuid'), description: 'Task' },
    executed_at: { type: 'datetime', column: column('executed_at'), description: 'When it was done' },
    schedule_at: { type: 'datetime', column: column('schedule_at'), description: 'When it is planned' },
    created_at: { type: 'datetime', column: column('created_at'), description: 'When it was created' },
    automation_error_code: {
      type: 'string',
      column: column('automation_error_code'),
      description: 'Machine-readable failure (replied, too_many_attempts, unknown...)',
    },
    schedule_at_before: scheduleBound('<', 'Planned before this time (a bare date: before that day)'),
    schedule_at_after: scheduleBound('>', 'Planned after this time (a bare date: after that day)'),
    assignee_uuid: {
      type: 'uuid',
      compile: assigneeCondition,
      description: 'Team member a to-do is assigned to, by user UUID (or a list of them)',
    },
  };
  if (alias === 't') return all;
  return Object.fromEntries(DELTA_KEYS.map((key) => [key, all[key]!]));
}

export const taskFilterFields = fields('t');
export const taskFilter: FilterSpec = { name: 'task filter', fields: taskFilterFields };
const deltaFilter: FilterSpec = { name: 'task filter', fields: fields('d') };

export const taskSort: SortSpec = {
  fields: {
    created_at: 't.created_at',
    schedule_at: 't.schedule_at',
    executed_at: 't.executed_at',
    uuid: 't.uuid',
  },
  tiebreaker: 't.uuid',
};

export type TaskWhere = {
  /** The condition on tasks `t` (undefined: every task of the team). */
  tasks: RawBuilder<SqlBool> | undefined;
  /** The same condition on task_count_deltas `d`, when the filter allows counting there. */
  deltas: RawBuilder<SqlBool> | undefined | null;
};

function isFilterObject(filter: unknown): filter is Record<string, unknown> {
  return typeof filter === 'object' && filter !== null && !Array.isArray(filter);
}

/** Compiles a task filter for tasks and, where it can, for the count deltas. */
export function compileTaskFilter(filter: unknown, path = 'filter'): TaskWhere {
  if (filter !== undefined && filter !== null && !isFilterObject(filter)) {
    throw filterError(path, `${path} must be an object of field: value pairs`);
  }
  const tasks = compileFilter(taskFilter, filter, path);
  const keys = Object.keys(filter ?? {});
  const countable = keys.every((key) => DELTA_KEYS.includes(key));
  return { tasks, deltas: countable ? compileFilter(deltaFilter, filter, path) : null };
}
