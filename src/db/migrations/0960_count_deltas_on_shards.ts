import { type Kysely, sql } from 'kysely';

// The count-delta triggers of 0110 and 0500, in a form that also runs on Citus, where a trigger fires
// on the shard being written (on a worker) and its insert into the delta table is itself a distributed
// statement. Citus refuses statements that read a trigger's transition table beside a distributed or
// reference table, so each function first folds the transition table into groups with a plain local
// query, then inserts those groups in a second statement. That insert only reaches the co-located
// delta shard of the same team (on the same node, in the same transaction), which is why the nested
// distributed execution Citus otherwise refuses from inside a shard is allowed for these functions.
// Rows of a team being deleted are still skipped (its deltas go with it). On plain PostgreSQL the
// result is the same; the setting is an inert placeholder there.

export type DeltaTriggerSpec = {
  fn: string;
  table: string;
  /** Grouped columns besides team_id, with their types. */
  dims: ReadonlyArray<readonly [string, string]>;
  /** The rows counted: a select over the transition tables giving team_id, the dims and n (+1/-1). */
  source: string;
};

const TASK_DIMS = [
  ['flow_uuid', 'uuid'],
  ['flow_node_id', 'integer'],
  ['sender_profile_uuid', 'uuid'],
  ['type', 'text'],
  ['automation', 'text'],
  ['status', 'text'],
  ['fork_result', 'integer'],
  ['automation_error_code', 'text'],
] as const;
const FLOW_LEAD_DIMS = [
  ['flow_uuid', 'uuid'],
  ['contact_source_id', 'integer'],
  ['added_by', 'text'],
  ['status', 'text'],
] as const;

export const deltaRows = (dims: DeltaTriggerSpec['dims'], from: string, n: number) =>
  `select ${['team_id', ...dims.map(([name]) => name)].join(', ')}, ${n} as n from ${from}`;

const changes = (fn: string, table: string, dims: DeltaTriggerSpec['dims']): DeltaTriggerSpec[] => [
  { fn: `${fn}_insert`, table, dims, source: deltaRows(dims, 'leadflow_new_rows', 1) },
  { fn: `${fn}_delete`, table, dims, source: deltaRows(dims, 'leadflow_old_rows', -1) },
  {
    fn: `${fn}_update`,
    table,
    dims,
    source: `${deltaRows(dims, 'leadflow_new_rows', 1)} union all ${deltaRows(dims, 'leadflow_old_rows', -1)}`,
  },
];

const SPECS: DeltaTriggerSpec[] = [
  {
    fn: 'leadflow_lead_count_inserted',
    table: 'lead_count_deltas',
    dims: [],
    source: deltaRows([], 'leadflow_new_rows', 1),
  },
  {
    fn: 'leadflow_lead_count_deleted',
    table: 'lead_count_deltas',
    dims: [],
    source: deltaRows([], 'leadflow_old_rows', -1),
  },
  ...changes('leadflow_task_counts', 'task_count_deltas', TASK_DIMS),
  ...changes('leadflow_flow_lead_counts', 'flow_lead_count_deltas', FLOW_LEAD_DIMS),
];

/** A count-delta trigger function that also runs on Citus (see the top of this file). */
export function deltaTriggerFunction({ fn, table, dims, source }: DeltaTriggerSpec): string {
  const columns = ['team_id', ...dims.map(([name]) => name)];
  const record = [['team_id', 'bigint'], ...dims, ['delta', 'bigint']]
    .map(([n, t]) => `${n} ${t}`)
    .join(', ');
  return `
    create or replace function ${fn}() returns trigger language plpgsql
    set citus.allow_nested_distributed_execution = on as $$
    declare
      groups jsonb;
    begin
      select jsonb_agg(g) into groups from (
        select ${columns.join(', ')}, sum(n) as delta from (${source}) c
        group by ${columns.join(', ')} having sum(n) <> 0
      ) g;
      if groups is null then return null; end if;
      insert into ${table} (${columns.join(', ')}, delta)
      select ${columns.map((c) => `r.${c}`).join(', ')}, r.delta
      from jsonb_to_recordset(groups) as r(${record})
      where r.team_id in (select id from teams);
      return null;
    end $$;`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SPECS.map(deltaTriggerFunction).join('\n')).execute(db);
}
