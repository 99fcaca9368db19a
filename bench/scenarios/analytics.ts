// Team analytics at scale (POST /flows/api/statistics/team): a team with a year of tasks (seedTasks: 20
// senders, 50 flows; BENCH_ANALYTICS_TASKS, default 2,000,000) and a year of hourly conversion deltas per
// sender and kind (about 525,000 rows, as if never folded), asked for 30 and 90 days, against a plain
// grouped count of the same period's tasks by sender, type and day (the per-request scan it avoids)
// measured in the same run.
import { sql } from 'kysely';
import { newId } from '../../src/lib/ids.js';
import { makeSender } from '../../test/automation-factories.js';
import { type BenchRow, latencyRows, listen, measureRuns, type Scenario } from '../lib.js';
import { seedTasks } from './tasks-data.js';

const TASKS = Number(process.env.BENCH_ANALYTICS_TASKS ?? 2_000_000);
const CHUNK = 250_000;
const RUNS = 20;

export const analyticsScenario: Scenario = {
  name: 'analytics',
  description: `team analytics over 30 and 90 days with ${TASKS.toLocaleString('en')} tasks and a year of conversions`,
  async run(server, log) {
    const deps = await server.newDatabase('analytics');
    const { app } = await listen(deps);
    const db = deps.handle.db;
    const owner = await deps.services.identity.createUserWithTeam({
      email: `bench-analytics-${Date.now()}@example.test`,
      teamName: 'Bench analytics',
    });
    const teamId = owner.team_id;
    const senders: string[] = [];
    for (let i = 0; i < 20; i += 1) senders.push((await makeSender(db, teamId)).uuid);
    const flows = Array.from({ length: 50 }, () => newId());
    let started = Date.now();
    for (let start = 0; start < TASKS; start += CHUNK) {
      await seedTasks(db, {
        teamId,
        flows,
        senders,
        total: TASKS,
        start,
        count: Math.min(CHUNK, TASKS - start),
      });
    }
    await sql`
      insert into flow_conversion_deltas (team_id, flow_uuid, flow_node_id, contact_source_id, sender_profile_uuid,
        channel, kind, delta, occurred_at)
      select ${teamId}, (${flows}::uuid[])[1 + (h + s) % 50], 3, 1, (${senders}::uuid[])[1 + s],
        case k when 0 then 'linkedin_connection_request' when 1 then 'linkedin_connection_request' else 'linkedin_message' end,
        case k when 0 then 'sent' when 1 then 'accepted' else 'replied' end, 1 + (h * 7 + s) % 3,
        date_trunc('hour', now()) - make_interval(hours => h)
      from generate_series(0, 8759) h, generate_series(0, 19) s, generate_series(0, 2) k
    `.execute(db);
    await sql`analyze`.execute(db);
    log(
      `  seeded ${TASKS} tasks and 525,600 conversion rows in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );

    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    const rows: BenchRow[] = [];
    for (const days of [30, 90]) {
      const body = { from: day(days - 1), to: day(0), time_zone: 'UTC' };
      const api = await measureRuns(RUNS, async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/flows/api/statistics/team',
          headers: { authorization: `Bearer ${owner.api_key}` },
          payload: body,
        });
        if (res.statusCode !== 200) throw new Error(res.body);
      });
      const plain = await measureRuns(5, () =>
        sql`
          select sender_profile_uuid, type, executed_at::date, count(*) from tasks
          where team_id = ${teamId} and executed_at >= ${new Date(Date.now() - days * 86_400_000)}
          group by 1, 2, 3
        `.execute(db),
      );
      started = plain.sort((a, b) => a - b)[Math.floor(plain.length / 2)]!;
      log(
        `  ${days} days: p50 ${api.sort((a, b) => a - b)[RUNS / 2]?.toFixed(1)} ms, plain grouped count ${started.toFixed(1)} ms`,
      );
      rows.push(
        ...latencyRows('analytics', `statistics/team, ${days} days, 20 senders`, api, { baseline: started }),
      );
    }
    await app.close();
    return rows;
  },
};
