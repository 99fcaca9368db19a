// Flows at scale: 50 flows of one team holding 1,000,000 enrollments and 10,000,000 tasks. Measures,
// through the HTTP API, the contact_add_to_flow mass action over 100,000 contacts (a background
// operation), flows-leads/list filtered by flow and status with its exact total, flows/metrics for the
// 50 flows and statistics/nodes of a flow, each against a baseline measured in the same run: one plain
// INSERT ... SELECT of the same contacts, and plain counts of the same rows (the scans the maintained
// count deltas avoid). BENCH_FLOWS_SCALE (default 1) scales every row count: 0.01 is a quick run.
// With BENCH_FLOWS_PLANS=1 it also prints the plans PostgreSQL chose for the main queries.
import os from 'node:os';
import { sql } from 'kysely';
import { flowLeadCountDeltas, foldDeltas, taskCountDeltas } from '../../src/db/count-deltas.js';
import { createJobCatalog } from '../../src/deps.js';
import { startWorker } from '../../src/jobs/runner.js';
import { systemClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { defaultSchedule } from '../../src/lib/schedule.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import {
  type BenchRow,
  latencyRows as latency,
  listen,
  measureRuns,
  percentile,
  type Scenario,
} from '../lib.js';
import { benchTree, seedEnrollments, withIndexesRebuilt } from './flows-data.js';
import { logPlans } from './flows-plans.js';
import { seedTasks } from './tasks-data.js';

const SCALE = Number(process.env.BENCH_FLOWS_SCALE ?? 1);
const MASS = Math.round(100_000 * SCALE);
const ENROLLMENTS = Math.round(1_000_000 * SCALE);
const TASKS = Math.round(10_000_000 * SCALE);
const FLOWS = 50;
const CHUNK = 250_000;
/** Tasks written at the end to measure what the indexes cost writes. */
const WRITES = Math.round(100_000 * SCALE);
const RUNS = 40;

const latencyRows = (metric: string, durations: number[], goalMs?: number, baseline?: number) =>
  latency('flows', metric, durations, {
    ...(goalMs === undefined ? {} : { goalMs }),
    ...(baseline === undefined ? {} : { baseline }),
  });

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

export const flowsScenario: Scenario = {
  name: 'flows',
  description: `flows: mass-enroll ${MASS.toLocaleString('en-US')} contacts; lists and statistics at ${ENROLLMENTS.toLocaleString('en-US')} enrollments and ${TASKS.toLocaleString('en-US')} tasks in ${FLOWS} flows`,
  async run(server, log) {
    const deps = await server.newDatabase('flows');
    const { db } = deps.handle;
    const team = await deps.services.identity.createUserWithTeam({
      email: 'flows@example.test',
      teamName: 'Flows',
    });
    const rows: BenchRow[] = [];
    log(`  load average at start (1/5/15 min, ${os.cpus().length} cores): ${loadAverage()}`);

    const { app, url } = await listen(deps);
    const worker = await startWorker({
      db,
      pool: deps.handle.pool,
      jobs: createJobCatalog(deps.services, { db, config: deps.config, clock: systemClock }),
      ...deps.config.worker,
      pollIntervalMs: 100,
      log: createLogger('warn'),
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${team.api_key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status}: ${text.slice(0, 500)}`);
      return text ? JSON.parse(text) : undefined;
    };

    try {
      // 1. Fifty flows through the API, each with the tree the seeded tasks fit, started.
      const flows: string[] = [];
      for (let i = 0; i < FLOWS; i++) {
        const flow = await call('POST', '/flows/api/flows', {
          name: `Bench flow ${i}`,
          schedule: defaultSchedule('Europe/Berlin'),
        });
        await call('POST', `/flows/api/flows/${flow.uuid}/flow-versions`, {
          nodes: benchTree(),
          contact_sources: [
            { id: 1, name: null, rotation_strategy: 'fair', sender_profiles: [], after_id: 2 },
          ],
        });
        await call('PUT', `/flows/api/flows/${flow.uuid}/start`);
        flows.push(flow.uuid);
      }
      const versions = new Map(
        (
          await db
            .selectFrom('flows')
            .select(['uuid', 'flow_version_uuid'])
            .where('team_id', '=', team.team_id)
            .execute()
        ).map((flow) => [flow.uuid, flow.flow_version_uuid]),
      );

      // 2. The mass action: MASS contacts of a list into flow 0, a background operation, against one
      //    plain INSERT ... SELECT of the same contacts into flow 1 (same table, indexes and triggers).
      const list = newId();
      await db.insertInto('lists').values({ team_id: team.team_id, uuid: list, name: 'Bench' }).execute();
      const stage = await selectInitialStageUuid(db, team.team_id, 'lead');
      await sql`
        insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, name, first_name, last_name, linkedin, custom_fields)
        select ${team.team_id}, leadflow_uuid_v7(), ${list}::uuid, ${stage}::uuid, 'Bench ' || i, 'Bench', 'Contact ' || i,
          'bench-' || i, '{}'::jsonb
        from generate_series(1, ${MASS}) as g(i)
      `.execute(db);
      await sql`vacuum analyze leads`.execute(db);

      let affected = 0;
      const massSeconds = await timed(async () => {
        const queued = await call('PUT', '/leads/api/leads/mass-action', {
          type: 'contact_add_to_flow',
          payload: { flow_uuid: flows[0] },
          filter: { list_uuid: list },
        });
        affected = queued.affected ?? 0;
        if (queued.operation) {
          let state = queued.operation;
          while (state.status !== 'done' && state.status !== 'failed') {
            await new Promise((resolve) => setTimeout(resolve, 50));
            state = await call('GET', `/leads/api/bulk-operations/${queued.operation.uuid}`);
          }
          if (state.status !== 'done') throw new Error(`contact_add_to_flow failed: ${state.error}`);
          affected = state.affected;
        }
      });
      if (affected !== MASS) throw new Error(`contact_add_to_flow enrolled ${affected}, expected ${MASS}`);
      const plainSeconds = await timed(() =>
        sql`
          insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, contact_source_id,
            added_by, status, flow_node_id, step, next_run_at, flow_active, started_at)
          select ${team.team_id}, leadflow_uuid_v7(), ${flows[1]}, ${versions.get(flows[1]!)}, l.uuid, 1, 'user',
            'in_progress', 2, 0, now(), true, now()
          from leads l where l.team_id = ${team.team_id} and l.list_uuid = ${list}
        `.execute(db),
      );
      log(
        `  contact_add_to_flow: ${affected} contacts in ${massSeconds.toFixed(1)} s; plain INSERT ... SELECT ${plainSeconds.toFixed(1)} s`,
      );
      rows.push({
        scenario: 'flows',
        metric: `contact_add_to_flow, ${MASS.toLocaleString('en-US')} contacts (baseline: one plain INSERT ... SELECT)`,
        value: massSeconds,
        unit: 's',
        baseline: plainSeconds,
        goal: '< 10 s',
        pass: massSeconds < 10,
      });

      // 3. The rest of the enrollments, spread over the 50 flows, and the tasks (tasks-data.ts: nodes 2-6
      //    of each flow, a year of them), chunk by chunk through the real tables and count-delta triggers;
      //    the indexes are built after each table's load (withIndexesRebuilt).
      const rest = ENROLLMENTS - 2 * MASS;
      log(
        `  seeding ${rest.toLocaleString('en-US')} enrollments and ${TASKS.toLocaleString('en-US')} tasks...`,
      );
      await seedEnrollments(db, { teamId: team.team_id, flows, versions, count: rest, chunk: CHUNK });
      const senders = Array.from({ length: 20 }, () => newId());
      const seedStart = performance.now();
      await withIndexesRebuilt(db, 'tasks', async () => {
        for (let start = 0; start < TASKS; start += CHUNK) {
          await seedTasks(db, {
            teamId: team.team_id,
            flows,
            senders,
            total: TASKS,
            start,
            count: Math.min(CHUNK, TASKS - start),
          });
          if ((start / CHUNK) % 8 === 7) log(`  seeded ${(start + CHUNK).toLocaleString('en-US')} tasks`);
        }
      });
      log(`  tasks: ${Math.round(TASKS / ((performance.now() - seedStart) / 1000))} tasks/s`);
      // What a quiet night leaves: the delta rows folded, the tables vacuumed and analysed.
      await foldDeltas(db, flowLeadCountDeltas, team.team_id);
      await foldDeltas(db, taskCountDeltas, team.team_id);
      for (const table of ['flow_leads', 'tasks', 'flow_lead_count_deltas', 'task_count_deltas'])
        await sql`vacuum analyze ${sql.table(table)}`.execute(db);
      const total = await sql<{ n: number }>`
        select count(*)::int as n from flow_leads where team_id = ${team.team_id}`.execute(db);
      if (total.rows[0]!.n !== ENROLLMENTS)
        throw new Error(`${total.rows[0]!.n} enrollments seeded, expected ${ENROLLMENTS}`);

      const measure = (fn: (i: number) => Promise<unknown>) => measureRuns(RUNS, fn);
      const statuses = ['in_progress', 'finished', 'paused', 'canceled', 'failed'];
      const flowOf = (i: number) => flows[i % FLOWS]!;
      const statusOf = (i: number) => statuses[Math.floor(i / FLOWS) % statuses.length]!;

      // The floor under every figure below on this machine right now: an authenticated request that
      // reads one cached row.
      const floor = await measure(() => call('GET', '/id/api/users/current'));
      rows.push(...latencyRows('HTTP floor: GET /id/api/users/current', floor));
      const floorP95 = percentile(floor, 95);

      // 4. flows-leads/list by flow and status, first page and exact total, against a bare indexed count.
      const bareCount = await measure((i) =>
        sql`select count(*) from flow_leads where team_id = ${team.team_id} and flow_uuid = ${flowOf(i)}
          and status = ${statusOf(i)}`.execute(db),
      );
      const listBody = (i: number) => ({
        filter: { flow_uuid: [flowOf(i)], status: [statusOf(i)] },
        limit: 20,
      });
      const page = await call('POST', '/flows/api/flows-leads/list', listBody(0));
      const expected = await sql<{ n: number }>`select count(*)::int as n from flow_leads
        where team_id = ${team.team_id} and flow_uuid = ${flowOf(0)} and status = ${statusOf(0)}`.execute(db);
      if (page.total !== expected.rows[0]!.n || page.data.length !== 20)
        throw new Error(`flows-leads/list total ${page.total}, expected ${expected.rows[0]!.n}`);
      rows.push(
        ...latencyRows(
          'flows-leads/list by flow + status, with total (baseline: bare indexed count)',
          await measure((i) => call('POST', '/flows/api/flows-leads/list', listBody(i))),
          50,
          percentile(bareCount, 95),
        ),
      );

      // 5. flows/metrics for the 50 flows, against a plain count of their enrollments by flow and status.
      const plainMetrics = await measureRuns(5, () =>
        sql`select flow_uuid, status, count(*) from flow_leads where team_id = ${team.team_id}
          and flow_uuid = any(${flows}::uuid[]) group by 1, 2`.execute(db),
      );
      const metrics = await call('POST', '/flows/api/flows/metrics', { uuids: flows });
      const leadsCount = Object.values(metrics as Record<string, { leads_count: number }>).reduce(
        (sum, flow) => sum + flow.leads_count,
        0,
      );
      if (leadsCount !== ENROLLMENTS) throw new Error(`flows/metrics counted ${leadsCount} enrollments`);
      rows.push(
        ...latencyRows(
          `flows/metrics, ${FLOWS} flows (baseline: plain grouped count of their enrollments)`,
          await measure(() => call('POST', '/flows/api/flows/metrics', { uuids: flows })),
          100,
          percentile(plainMetrics, 95),
        ),
      );

      // 6. statistics/nodes of a flow's five nodes, against a plain count of its tasks by node and status.
      const nodeIds = [2, 3, 4, 5, 6];
      const plainNodes = await measureRuns(5, (i) =>
        sql`select flow_node_id, status, count(*) from tasks where team_id = ${team.team_id}
          and flow_uuid = ${flowOf(i)} and flow_node_id = any(${nodeIds}::int[]) group by 1, 2`.execute(db),
      );
      rows.push(
        ...latencyRows(
          'statistics/nodes, 5 nodes (baseline: plain grouped count of the flow\u2019s tasks)',
          await measure((i) =>
            call('POST', `/flows/api/flows/${flowOf(i)}/statistics/nodes`, { node_ids: nodeIds }),
          ),
          100,
          percentile(plainNodes, 95),
        ),
      );
      const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString();
      rows.push(
        ...latencyRows(
          'statistics/nodes, 5 nodes, executed_at last 7 days (reads those tasks; baseline: HTTP floor)',
          await measure((i) =>
            call('POST', `/flows/api/flows/${flowOf(i)}/statistics/nodes`, {
              node_ids: nodeIds,
              filter: { executed_at: { '>=': lastWeek } },
            }),
          ),
          100,
          floorP95,
        ),
      );
      rows.push(
        ...latencyRows(
          'statistics/contact-sources (baseline: HTTP floor)',
          await measure((i) =>
            call('POST', `/flows/api/flows/${flowOf(i)}/statistics/contact-sources`, {
              contact_source_ids: [1],
            }),
          ),
          undefined,
          floorP95,
        ),
      );

      // 7. What the tasks' indexes cost writes: WRITES more tasks inserted with every index in place, then
      //    executed (status and executed_at set, as the engine does), timed, with the WAL each wrote;
      //    and the size of the index node statistics over a period read.
      const marker = new Date();
      const wal = async () =>
        (await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(db)).rows[0]!
          .lsn;
      const walSince = async (from: string) =>
        Number(
          (
            await sql<{
              bytes: string;
            }>`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${from}::pg_lsn)::text as bytes`.execute(
              db,
            )
          ).rows[0]!.bytes,
        );
      let from = await wal();
      const insertSeconds = await timed(() =>
        seedTasks(db, { teamId: team.team_id, flows, senders, total: TASKS, start: TASKS, count: WRITES }),
      );
      const insertWal = await walSince(from);
      from = await wal();
      const executeSeconds = await timed(() =>
        sql`update tasks set status = 'closed', executed_at = now(), updated_at = now()
          where team_id = ${team.team_id} and created_at >= ${marker}`.execute(db),
      );
      const executeWal = await walSince(from);
      const indexSize = await sql<{ bytes: string }>`
        select pg_relation_size('tasks_team_flow_node_idx')::text as bytes`.execute(db);
      const perTask = (bytes: number) => bytes / WRITES / 1024;
      rows.push(
        {
          scenario: 'flows',
          metric: `write: insert ${WRITES.toLocaleString('en-US')} tasks, every index in place (${perTask(insertWal).toFixed(1)} KB WAL per task)`,
          value: insertSeconds,
          unit: 's',
        },
        {
          scenario: 'flows',
          metric: `write: execute them, status + executed_at (${perTask(executeWal).toFixed(1)} KB WAL per task)`,
          value: executeSeconds,
          unit: 's',
        },
        {
          scenario: 'flows',
          metric: 'index tasks_team_flow_node_idx size',
          value: Number(indexSize.rows[0]!.bytes) / 1048576,
          unit: 'MiB',
        },
      );

      if (process.env.BENCH_FLOWS_PLANS === '1')
        await logPlans(db, team.team_id, flows[0]!, nodeIds, lastWeek, log);
      const load = loadAverage();
      log(`  load average at end (1/5/15 min): ${load}`);
      rows.push({
        scenario: 'flows',
        metric: `load average at end, 1 min (5 / 15 min: ${load.split(' / ').slice(1).join(' / ')}; ${os.cpus().length} cores)`,
        value: os.loadavg()[0]!,
        unit: '',
      });
      return rows;
    } finally {
      await worker.stop();
      await app.close();
    }
  },
};
