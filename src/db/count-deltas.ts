// Exact counts at scale from signed count deltas. Statement triggers write one row per group and
// statement into a delta table whenever the counted rows change (migrations 0110, 0500, 1100); the sum of a
// group's deltas is the exact count of that group, read in one index range instead of a count over
// millions of rows. Readers fold a scope's rows into one row per group now and then, so the ranges they
// read stay short. This is the one implementation: every module sums and folds through it.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from './database.js';

export type DeltaTable = {
  name: string;
  /** Columns a fold keeps apart: one row per distinct combination survives a fold. */
  dimensions: readonly string[];
  /** A time column a fold keeps at this granularity (UTC), so time ranges still sum to the unit. */
  time?: { column: string; unit: 'hour' | 'day' };
};

export const leadCountDeltas = { name: 'lead_count_deltas', dimensions: [] } as const satisfies DeltaTable;

export const activityCountDeltas = {
  name: 'activity_count_deltas',
  dimensions: ['type'],
} as const satisfies DeltaTable;

export const taskCountDeltas = {
  name: 'task_count_deltas',
  dimensions: [
    'flow_uuid',
    'flow_node_id',
    'sender_profile_uuid',
    'type',
    'automation',
    'status',
    'fork_result',
    'automation_error_code',
  ],
} as const satisfies DeltaTable;

export const flowLeadCountDeltas = {
  name: 'flow_lead_count_deltas',
  dimensions: ['flow_uuid', 'contact_source_id', 'added_by', 'status'],
} as const satisfies DeltaTable;

export const flowConversionDeltas = {
  name: 'flow_conversion_deltas',
  dimensions: ['flow_uuid', 'flow_node_id', 'contact_source_id', 'sender_profile_uuid', 'channel', 'kind'],
  time: { column: 'occurred_at', unit: 'hour' },
} as const satisfies DeltaTable;

/**
 * A read folds its scope when it summed more than this many rows and more than twice the rows a fold
 * would leave (one per combination of the table's dimensions, not per group the read asked for: a
 * team-wide total over 30,000 combinations must not fold on every read).
 */
const FOLD_ABOVE = 64;

type Dimension<T extends DeltaTable> = T['dimensions'][number];

export type DeltaGroup<K extends string> = { [P in K]: unknown } & { count: number };

const column = (name: string) => sql.ref(`d.${name}`);

/** What a fold keeps apart: the dimensions, and the time bucket of a timed table. */
function foldKeys(table: DeltaTable): RawBuilder<unknown>[] {
  const keys: RawBuilder<unknown>[] = table.dimensions.map((name) => sql`${column(name)}`);
  if (table.time) {
    keys.push(sql`date_trunc(${sql.lit(table.time.unit)}, ${column(table.time.column)}, 'UTC')`);
  }
  return keys;
}

/**
 * Sums the team's deltas of `table` matching `where` (a condition on the alias `d`), grouped by
 * `groupBy`. Groups whose sum is zero are left out. Without `groupBy` the answer is one group (the
 * total; 0 when there are no rows). A read that summed many more rows than a fold would leave folds
 * its scope afterwards.
 */
export async function sumDeltas<T extends DeltaTable, K extends Dimension<T> = never>(
  db: Executor,
  table: T,
  teamId: number,
  options: { groupBy?: readonly K[]; where?: RawBuilder<SqlBool> } = {},
): Promise<Array<DeltaGroup<K>>> {
  const groupBy = options.groupBy ?? [];
  const where = options.where ?? sql<SqlBool>`true`;
  const inner = [
    ...groupBy.map((name) => sql`${column(name)} as ${sql.ref(name)}`),
    sql`sum(d.delta) as count`,
    sql`count(*) as rows`,
  ];
  const keys = groupBy.map((name) => sql`c.${sql.ref(name)} as ${sql.ref(name)}`);
  const folds = foldKeys(table);
  // One pass: sum per combination a fold would keep, then per group asked for, so the read also
  // learns how many rows a fold would leave.
  const { rows } = await sql<Record<string, unknown> & { count: number; rows: number; combinations: number }>`
    with c as (
      select ${sql.join(inner)}
      from ${sql.table(table.name)} d
      where d.team_id = ${teamId} and ${where}
      group by ${folds.length > 0 ? sql.join(folds) : sql`()`}
    )
    select ${sql.join([
      ...keys,
      sql`coalesce(sum(c.count), 0)::bigint as count`,
      sql`coalesce(sum(c.rows), 0)::int as rows`,
      sql`count(*)::int as combinations`,
    ])}
    from c
    ${groupBy.length > 0 ? sql`group by ${sql.join(groupBy.map((name) => sql`c.${sql.ref(name)}`))}` : sql``}
  `.execute(db);
  const summed = rows.reduce((total, row) => total + row.rows, 0);
  const combinations = rows.reduce((total, row) => total + row.combinations, 0);
  if (summed > FOLD_ABOVE && summed > 2 * combinations) await foldDeltas(db, table, teamId, where);
  const groups = rows
    .filter((row) => groupBy.length === 0 || row.count !== 0)
    .map(({ rows: _rows, combinations: _combinations, ...group }) => group as DeltaGroup<K>);
  return groups;
}

/**
 * Replaces the team's delta rows matching `where` (alias `d`) with one row per group of the table's
 * dimensions, in one statement, so readers see the sums before or after, never in between. Rows that
 * another fold holds are skipped rather than waited for.
 */
export async function foldDeltas(
  db: Executor,
  table: DeltaTable,
  teamId: number,
  where: RawBuilder<SqlBool> = sql<SqlBool>`true`,
): Promise<void> {
  const dims = table.dimensions.map((name) => sql.ref(name));
  const time = table.time;
  const kept = time
    ? [
        ...dims,
        sql`date_trunc(${sql.lit(time.unit)}, ${sql.ref(time.column)}, 'UTC') as ${sql.ref(time.column)}`,
      ]
    : dims;
  const grouped = time
    ? [...dims, sql`date_trunc(${sql.lit(time.unit)}, ${sql.ref(time.column)}, 'UTC')`]
    : dims;
  const targetColumns = [
    sql.ref('team_id'),
    ...dims,
    ...(time ? [sql.ref(time.column)] : []),
    sql.ref('delta'),
  ];
  const returned = [...dims, ...(time ? [sql.ref(time.column)] : []), sql.ref('delta')];
  await sql`
    with folded as (
      delete from ${sql.table(table.name)} x
      where x.team_id = ${teamId} and x.id in (
        select d.id from ${sql.table(table.name)} d
        where d.team_id = ${teamId} and ${where}
        for update skip locked
      )
      returning ${sql.join(returned)}
    )
    insert into ${sql.table(table.name)} (${sql.join(targetColumns)})
    select ${sql.join([sql`${teamId}::bigint`, ...kept, sql`sum(delta)`])}
    from folded
    ${grouped.length > 0 ? sql`group by ${sql.join(grouped)}` : sql``}
    having count(*) > 0 and sum(delta) <> 0
  `.execute(db);
}
