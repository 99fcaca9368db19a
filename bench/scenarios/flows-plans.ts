// The plans PostgreSQL chooses for the flows bench's main queries (BENCH_FLOWS_PLANS=1).
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** Prints which indexes the main queries use and how long they take, from EXPLAIN ANALYZE. */
export async function logPlans(
  db: Database,
  teamId: number,
  flow: string,
  nodeIds: number[],
  since: string,
  log: (line: string) => void,
) {
  const queries: Array<[string, ReturnType<typeof sql>]> = [
    [
      'list page, flow + status (failed)',
      sql`select * from flow_leads fl where fl.team_id = ${teamId} and fl.flow_uuid = ${flow}::uuid
        and fl.status = 'failed'::text order by fl.created_at desc, fl.uuid desc limit 20`,
    ],
    [
      'enrollment deltas, flow + status',
      sql`select sum(delta) from flow_lead_count_deltas d where d.team_id = ${teamId}
        and d.flow_uuid = any(${[flow]}::uuid[]) and d.status = any(${['in_progress']}::text[])`,
    ],
    [
      'task deltas, flow + nodes',
      sql`select flow_node_id, status, fork_result, sum(delta) from task_count_deltas d where d.team_id = ${teamId}
        and d.flow_uuid = ${flow} and d.flow_node_id = any(${nodeIds}::int[]) group by 1, 2, 3`,
    ],
    [
      'node tasks executed since',
      sql`select t.flow_node_id, t.status, t.fork_result, count(*) from tasks t where t.team_id = ${teamId}
        and t.flow_uuid = ${flow} and t.flow_node_id = any(${nodeIds}::int[]) and t.executed_at >= ${since}
        group by 1, 2, 3`,
    ],
  ];
  for (const [name, query] of queries) {
    const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (analyze, format json) ${query}`.execute(
      db,
    );
    const plan = (rows[0]!['QUERY PLAN'] as Array<{ Plan: PlanNode; 'Execution Time': number }>)[0]!;
    log(`  plan ${name}: ${plan['Execution Time'].toFixed(1)} ms, ${summarise(plan.Plan)}`);
  }
}

type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };

function summarise(node: PlanNode): string {
  const here = node['Index Name'] ? `${node['Node Type']} ${node['Index Name']}` : node['Node Type'];
  const children = (node.Plans ?? []).map(summarise);
  return children.length > 0 ? `${here} <- ${children.join(', ')}` : here;
}
