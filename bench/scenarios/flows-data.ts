// What the flows bench seeds: the flow tree its tasks fit, a year of enrollments spread over the flows
// (bulk loads with the indexes built afterwards); the tasks themselves come from tasks-data.ts.
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** Statuses of the seeded enrollments, in percent (the mass-enrolled ones are all in progress). */
const ENROLLMENT_MIX = sql`case when (i * 7919) % 100 < 40 then 'in_progress' when (i * 7919) % 100 < 45 then 'paused'
  when (i * 7919) % 100 < 85 then 'finished' when (i * 7919) % 100 < 95 then 'canceled' else 'failed' end`;

/** The tree the seeded tasks fit: nodes 2-6 as in tasks-data.ts (visit, invite, wait, message, e-mail), then end. */
export function benchTree() {
  const steps: Array<[number, string, Record<string, unknown>]> = [
    [2, 'linkedin_visit_profile', {}],
    [3, 'linkedin_send_connection_request', { template: 'Hi {{first_name}}' }],
    [4, 'util_timer', { wait_time: 86_400 }],
    [5, 'linkedin_send_message', { template: 'Thanks for connecting, {{first_name}}' }],
    [6, 'email_send_message', { subject: 'Hello', template: '<p>Hi {{first_name}}</p>' }],
    [7, 'end', {}],
  ];
  return steps.map(([id, type, payload]) => ({
    id,
    type,
    before: id === 2 ? [] : [{ node_id: id - 1, branch_id: 1 }],
    after: id === 7 ? [] : [{ node_id: id + 1, branch_id: 1 }],
    payload,
  }));
}

/**
 * Runs `fn` (a bulk load of `table`) with the table's secondary indexes dropped, then builds them again
 * from their definitions: one index build is many times faster than ten million index insertions, and
 * leaves the same indexes. Keys of constraints (the primary key) stay; triggers (the count deltas) run.
 */
export async function withIndexesRebuilt(db: Database, table: string, fn: () => Promise<void>) {
  const { rows } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = ${table}
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
  `.execute(db);
  for (const index of rows) await sql`drop index ${sql.ref(index.name)}`.execute(db);
  await fn();
  for (const index of rows) await sql.raw(index.definition).execute(db);
}

/**
 * `count` enrollments spread over `flows` (statuses in ENROLLMENT_MIX, created over the last year),
 * `chunk` rows per statement, through the real table and its count-delta triggers.
 */
export async function seedEnrollments(
  db: Database,
  options: {
    teamId: number;
    flows: string[];
    versions: Map<string, string | null>;
    count: number;
    chunk: number;
  },
) {
  const { teamId, flows, versions, count, chunk } = options;
  const flowArray = sql`${flows}::uuid[]`;
  const versionArray = sql`${flows.map((flow) => versions.get(flow)!)}::uuid[]`;
  await withIndexesRebuilt(db, 'flow_leads', async () => {
    for (let start = 0; start < count; start += chunk) {
      const end = Math.min(count, start + chunk) - 1;
      await sql`
      insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, contact_source_id, added_by,
        status, flow_node_id, step, next_run_at, flow_active, reason, started_at, finished_at, created_at, updated_at)
      select ${teamId}, leadflow_uuid_v7(), (${flowArray})[1 + i % ${flows.length}], (${versionArray})[1 + i % ${flows.length}],
        md5('enrolled' || i)::uuid, 1, case when i % 10 = 0 then 'filter' else 'user' end, s.status,
        case when s.status in ('in_progress', 'paused') then 2 + i % 5 else 7 end, i % 5,
        case when s.status = 'in_progress' then now() + make_interval(secs => i % 86400) end, true,
        case s.status when 'finished' then 'completed' when 'canceled' then 'canceled' when 'failed' then 'error'
          when 'paused' then 'replied' end,
        c.created, case when s.status in ('finished', 'canceled', 'failed') then c.created + interval '3 days' end,
        c.created, c.created
      from generate_series(${start}::bigint, ${end}::bigint) as g(i)
      cross join lateral (select ${ENROLLMENT_MIX} as status) s
      cross join lateral (select now() - make_interval(secs => (${count}::bigint - i) * (31536000.0 / ${count})) as created) c
    `.execute(db);
    }
  });
}
