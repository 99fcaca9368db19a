// Tasks at scale: a team with 10,000,000 tasks (a year of 50 flows and 20 senders, 200,000 to-dos)
// next to a team of 1,000. Measures, through the HTTP API, the list's first page with its exact total,
// filtered lists, group-counts, a sender's day and a mass-cancel of 100,000 to-dos (a background
// operation), each against a baseline measured in the same run: a plain count(*) for the totals, a
// plain UPDATE of another 100,000 to-dos for the mass move. With BENCH_TASKS_PLANS=1 it also prints
// the plans PostgreSQL chose for the main queries.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { foldDeltas, taskCountDeltas } from '../../src/db/count-deltas.js';
import { createJobCatalog } from '../../src/deps.js';
import { startWorker } from '../../src/jobs/runner.js';
import { systemClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { localDate } from '../../src/lib/schedule.js';
import {
  type BenchRow,
  latencyRows as latency,
  listen,
  measureRuns,
  percentile,
  type Scenario,
  timeRuns,
} from '../lib.js';
import { seedTasks } from './tasks-data.js';

const TOTAL = Number(process.env.BENCH_TASKS ?? 10_000_000);
const CHUNK = 250_000;
const RUNS = 40;

const latencyRows = (metric: string, durations: number[], goalMs?: number, baseline?: number) =>
  latency('tasks', metric, durations, {
    ...(goalMs === undefined ? {} : { goalMs }),
    ...(baseline === undefined ? {} : { baseline }),
  });

export const tasksScenario: Scenario = {
  name: 'tasks',
  description: `tasks: ${TOTAL.toLocaleString('en-US')} in one team next to a team of 1,000`,
  async run(server, log) {
    const deps = await server.newDatabase('tasks');
    const { db } = deps.handle;
    const big = await deps.services.identity.createUserWithTeam({
      email: 'big@example.test',
      teamName: 'Big',
    });
    const small = await deps.services.identity.createUserWithTeam({
      email: 'small@example.test',
      teamName: 'Small',
    });
    const senders: string[] = [];
    for (let i = 0; i < 20; i++) {
      const profile = await deps.services.senders.createSenderProfile(
        { teamId: big.team_id, userId: big.user_id },
        {
          first_name: `Sender ${i}`,
          schedule: { timezone: 'Europe/Berlin', use_lead_timezone: false, timeblocks: [] },
        },
      );
      senders.push(profile.uuid);
    }
    const flows = Array.from({ length: 50 }, () => newId());
    const rows: BenchRow[] = [];

    // 1. Seed, chunk by chunk, through the real table, indexes and count-delta triggers.
    log(`  seeding ${TOTAL.toLocaleString('en-US')} tasks...`);
    const seedStart = performance.now();
    for (let start = 0; start < TOTAL; start += CHUNK) {
      await seedTasks(db, {
        teamId: big.team_id,
        flows,
        senders,
        total: TOTAL,
        start,
        count: Math.min(CHUNK, TOTAL - start),
      });
      if ((start / CHUNK) % 8 === 7) log(`  seeded ${(start + CHUNK).toLocaleString('en-US')}`);
    }
    const seedRate = TOTAL / ((performance.now() - seedStart) / 1000);
    log(`  seed: ${Math.round(seedRate)} tasks/s`);
    rows.push({
      scenario: 'tasks',
      metric: 'seed (insert ... select, 250k per statement)',
      value: seedRate,
      unit: 'tasks/s',
    });
    const smallFlow = newId();
    await seedTasks(db, {
      teamId: small.team_id,
      flows: [smallFlow],
      senders: [newId()],
      total: 1000,
      start: 0,
      count: 1000,
    });
    await foldDeltas(db, taskCountDeltas, big.team_id);
    await sql`vacuum analyze tasks`.execute(db);
    await sql`vacuum analyze task_count_deltas`.execute(db);

    const { app, url } = await listen(deps);
    const call = async (method: string, path: string, body?: unknown, key = big.api_key) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text);
    };
    const measure = (fn: (i: number) => Promise<unknown>) => measureRuns(RUNS, fn);
    const list = (query: string, key?: string) => call('GET', `/flows/api/tasks${query}`, undefined, key);
    const groupCounts = (body: unknown) => call('POST', '/flows/api/tasks/group-counts', body);

    // Baseline of every exact total: counting the team's rows as a plain query would.
    const naiveCount = await timeRuns(3, () =>
      sql`select count(*) from tasks where team_id = ${big.team_id}`.execute(db),
    );
    const naiveMs = percentile(naiveCount, 50);
    log(`  plain count(*) of the team: ${Math.round(naiveMs)} ms`);

    // 2. Lists.
    const first = await list('?limit=20');
    if (first.total !== TOTAL) throw new Error(`total ${first.total} != ${TOTAL}`);
    rows.push(
      ...latencyRows(
        'first page + exact total (baseline: plain count)',
        await measure(() => list('?limit=20')),
        100,
        naiveMs,
      ),
    );
    rows.push(
      ...latencyRows(
        'filtered by flow + status',
        await measure((i) => list(`?filter[flow_uuid]=${flows[i % flows.length]}&filter[status]=failed`)),
        50,
      ),
    );
    const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    rows.push(
      ...latencyRows(
        'filtered by sender + executed_at (last 7 days)',
        await measure((i) =>
          list(
            `?filter[sender_profile_uuid]=${senders[i % senders.length]}&filter[executed_at][>=]=${lastWeek}`,
          ),
        ),
      ),
    );
    rows.push(
      ...latencyRows(
        'filtered by a rare type (InMail)',
        await measure(() => list('?filter[type]=linkedin_send_inmail')),
      ),
    );
    rows.push(
      ...latencyRows(
        'to-dos in progress (manual)',
        await measure(() => list('?filter[automation]=manual&filter[status]=in_progress')),
      ),
    );
    rows.push(
      ...latencyRows(
        'one contact\u2019s tasks',
        await measure((i) => list(`?filter[lead_uuid]=${md5Uuid(`lead${i}`)}`)),
      ),
    );
    rows.push(
      ...latencyRows('small team first page (1,000)', await measure(() => list('?limit=20', small.api_key))),
    );

    // 3. Group-counts.
    rows.push(
      ...latencyRows(
        'group-counts by status, one flow',
        await measure((i) =>
          groupCounts({ group_field: 'status', filter: { flow_uuid: flows[i % flows.length] } }),
        ),
        100,
      ),
    );
    rows.push(
      ...latencyRows(
        'group-counts by status, whole team',
        await measure(() => groupCounts({ group_field: 'status' })),
        500,
      ),
    );
    rows.push(
      ...latencyRows(
        'group-counts by type, whole team',
        await measure(() => groupCounts({ group_field: 'type' })),
      ),
    );
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    rows.push(
      ...latencyRows(
        'group-counts by day, one sender, 30 days',
        await measure((i) =>
          groupCounts({
            group_field: 'day',
            filter: { sender_profile_uuid: senders[i % senders.length], executed_at: { '>=': monthAgo } },
          }),
        ),
      ),
    );

    // 4. A sender's day.
    const yesterday = localDate(new Date(Date.now() - 86_400_000), 'Europe/Berlin');
    rows.push(
      ...latencyRows(
        'sender\u2019s day (schedule timeline)',
        await measure((i) =>
          call(
            'GET',
            `/flows/api/tasks/schedule?sender_profile_uuid=${senders[i % senders.length]}&date=${yesterday}`,
          ),
        ),
      ),
    );

    if (process.env.BENCH_TASKS_PLANS === '1')
      await logPlans(db, big.team_id, flows[0]!, senders[0]!, lastWeek, log);

    // 5. Mass-cancel of 100,000 to-dos (above the synchronous limit: a background operation), against a
    //    plain UPDATE of the other 100,000 to-dos in the same run.
    const todos = TOTAL / 100;
    const baselineStart = performance.now();
    await sql`
      update tasks set status = 'canceled', updated_at = now()
      where team_id = ${big.team_id} and automation = 'manual' and type = 'linkedin_endorse_skills'
        and status = 'in_progress'
    `.execute(db);
    const baselineSeconds = (performance.now() - baselineStart) / 1000;
    const worker = await startWorker({
      db,
      pool: deps.handle.pool,
      jobs: createJobCatalog(deps.services, { db, config: deps.config, clock: systemClock }),
      ...deps.config.worker,
      pollIntervalMs: 100,
      log: createLogger('warn'),
    });
    try {
      const massStart = performance.now();
      const queued = await call('PUT', '/flows/api/tasks/mass-cancel', {
        filter: { automation: 'manual', status: 'in_progress' },
      });
      let affected: number = queued.affected;
      if (queued.operation) {
        let state = queued.operation;
        while (state.status !== 'done' && state.status !== 'failed') {
          await new Promise((resolve) => setTimeout(resolve, 100));
          state = await call('GET', `/leads/api/bulk-operations/${queued.operation.uuid}`);
        }
        if (state.status !== 'done') throw new Error(`mass-cancel failed: ${state.error}`);
        affected = state.affected;
      }
      const massSeconds = (performance.now() - massStart) / 1000;
      if (affected !== todos) throw new Error(`mass-cancel moved ${affected} to-dos, expected ${todos}`);
      log(
        `  mass-cancel: ${affected} to-dos in ${massSeconds.toFixed(1)} s; plain UPDATE ${baselineSeconds.toFixed(1)} s`,
      );
      rows.push({
        scenario: 'tasks',
        metric: `mass-cancel ${affected.toLocaleString('en-US')} to-dos (baseline: one plain UPDATE)`,
        value: massSeconds,
        unit: 's',
        baseline: baselineSeconds,
        goal: '< 10 s',
        pass: massSeconds < 10,
      });
    } finally {
      await worker.stop();
      await app.close();
    }
    return rows;
  },
};

/** The uuid md5(text) gives (what the seeder uses for contacts). */
function md5Uuid(text: string): string {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Prints which indexes the main task queries use and how long they take, from EXPLAIN ANALYZE. */
async function logPlans(
  db: Parameters<typeof seedTasks>[0],
  teamId: number,
  flow: string,
  sender: string,
  since: string,
  log: (line: string) => void,
) {
  const queries: Array<[string, ReturnType<typeof sql>]> = [
    [
      'first page',
      sql`select * from tasks t where t.team_id = ${teamId} order by t.created_at desc, t.uuid desc limit 20`,
    ],
    [
      'flow + status',
      sql`select * from tasks t where t.team_id = ${teamId} and t.flow_uuid = ${flow} and t.status = 'failed'
        order by t.created_at desc, t.uuid desc limit 20`,
    ],
    [
      'sender + executed_at',
      sql`select * from tasks t where t.team_id = ${teamId} and t.sender_profile_uuid = ${sender}
        and t.executed_at >= ${since} order by t.created_at desc, t.uuid desc limit 20`,
    ],
    [
      'count sender + executed_at',
      sql`select count(*) from tasks t where t.team_id = ${teamId} and t.sender_profile_uuid = ${sender} and t.executed_at >= ${since}`,
    ],
    [
      'rare type',
      sql`select * from tasks t where t.team_id = ${teamId} and t.type = 'linkedin_send_inmail' order by t.created_at desc, t.uuid desc limit 20`,
    ],
    [
      'manual batch',
      sql`select t.uuid from tasks t where t.team_id = ${teamId} and t.automation = 'manual' and t.status = 'in_progress' limit 5000`,
    ],
    [
      'schedule_at day',
      sql`select count(*) from tasks t where t.team_id = ${teamId} and t.schedule_at >= ${since}::date and t.schedule_at < ${since}::date + 1`,
    ],
    [
      'count executed_at range, whole team',
      sql`select count(*) from tasks t where t.team_id = ${teamId} and t.executed_at >= ${since}`,
    ],
    [
      'planned, one sender\u2019s day',
      sql`select t.uuid from tasks t where t.team_id = ${teamId} and t.sender_profile_uuid = ${sender}
        and t.status = 'in_progress' and t.schedule_at >= ${since}::date and t.schedule_at < ${since}::date + 1`,
    ],
    [
      'deltas by status',
      sql`select d.status, sum(d.delta) from task_count_deltas d where d.team_id = ${teamId} group by 1`,
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
