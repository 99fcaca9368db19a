import { type Kysely, sql } from 'kysely';

// Node statistics over a period (statistics/nodes with filter.executed_at) count a flow node's tasks by
// status and fork result: with both in the index they are read from it alone (an index-only scan)
// instead of from task rows spread over the table. Same name and key columns as the index of 0500, so
// every other query keeps its plan; on Citus the DDL goes to each shard like any index of a distributed
// table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index tasks_team_flow_node_idx;
    create index tasks_team_flow_node_idx on tasks (team_id, flow_uuid, flow_node_id, executed_at)
      include (status, fork_result);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index tasks_team_flow_node_idx;
    create index tasks_team_flow_node_idx on tasks (team_id, flow_uuid, flow_node_id, executed_at);
  `.execute(db);
}
