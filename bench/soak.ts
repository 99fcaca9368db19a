// npm run soak -- --minutes N [--citus] [--rate R]: Leadflow as deployed at scale, under load and under
// crashes. Two `leadflow api` and two `leadflow worker` processes share one database (an embedded
// PostgreSQL, or a Citus coordinator with two workers); clients send a mixed load at a fixed rate
// while a chaos loop kill -9s a random process every 30-90 s (scaled down for short runs) and starts
// it again, and once restarts the database. Then it checks the invariants (checks.ts), prints them
// with latency per request kind in calm and in chaos and the client error rate, and exits 1 when one
// does not hold.

import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDatabase } from '../src/db/database.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { type Receiver, startReceiver } from '../src/modules/webhooks/receiver.test-support.js';
import { makeContacts, makeFlow, makeSandboxSeat, makeSender } from '../test/automation-factories.js';
import { makeList } from '../test/factories.js';
import { type Check, checkInvariants } from './soak/checks.js';
import { KINDS, type LoadState, percentile, runLoad } from './soak/load.js';
import { type LeadflowProcess, startLeadflow, startSoakDatabase } from './soak/processes.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    rate: { type: 'string', default: '8' },
    citus: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const log = (line: string) => process.stderr.write(`${line}\n`);
const API_KEY = 'lf_soak_owner_key_0000000000000000';
/** The sender's daily invitation limit (its weekly default is the same). */
const INVITATION_LIMIT = 100;

export type SoakReport = { checks: Check[]; table: string; errorRate: number };

async function soak(): Promise<SoakReport> {
  const database = await startSoakDatabase(values.citus ? 'citus' : 'postgresql');
  log(`soak: ${minutes} min on ${database.kind}, ${rate} requests/s, 2 API + 2 worker processes`);
  const handle = createDatabase(database.url, 4);
  const receiver: Receiver = await startReceiver();
  const processes: LeadflowProcess[] = [];
  try {
    await migrateDatabase(handle.db, handle.pool);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '8',
      LOG_LEVEL: 'warn',
      LEADFLOW_BOOTSTRAP_API_KEY: API_KEY,
      LEADFLOW_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      LEADFLOW_RATE_LIMIT_PER_MINUTE: '1000000',
      LEADFLOW_WEBHOOKS_ALLOW_PRIVATE: 'true',
      LEADFLOW_WEBHOOK_RETRY_SCHEDULE: '1,2,5,10,20,30,60',
      // A killed worker's jobs go to the others within seconds, not a minute.
      LEADFLOW_WORKER_HEARTBEAT_INTERVAL_MS: '1000',
      LEADFLOW_WORKER_HEARTBEAT_TIMEOUT_MS: '5000',
      LEADFLOW_ENGINE_LEASE_MS: '5000',
      LEADFLOW_ENGINE_RECONCILE_AFTER_MS: '5000',
      LEADFLOW_ENGINE_ACTION_INTERVAL_SECONDS: '0',
      LEADFLOW_SANDBOX_WEEKLY_INVITATION_LIMIT: '1000000',
      LEADFLOW_SANDBOX_ACCEPT_RATE: '0',
      LEADFLOW_SANDBOX_REPLY_RATE: '0',
    };
    for (const [name, role] of [
      ['api-1', 'api'],
      ['api-2', 'api'],
      ['worker-1', 'worker'],
      ['worker-2', 'worker'],
    ] as const) {
      processes.push(await startLeadflow(name, role, env, log));
    }
    const apis = processes.filter((p) => p.role === 'api');

    // The team the bootstrap created: a sandbox sender and seat, a flow that invites, a webhook.
    const team = await handle.db.selectFrom('teams').select('id').orderBy('id').executeTakeFirstOrThrow();
    const teamId = Number(team.id);
    const sender = await makeSender(handle.db, teamId, {
      limits: { linkedin_send_connection_request: INVITATION_LIMIT },
    });
    await makeSandboxSeat(handle.db, teamId, sender.uuid);
    // Hand-queued notes go out from a sender of their own, so the flow does not use up their limit.
    const noteSender = await makeSender(handle.db, teamId, {
      first_name: 'Nora',
      limits: { linkedin_send_connection_request: INVITATION_LIMIT },
    });
    await makeSandboxSeat(handle.db, teamId, noteSender.uuid);
    const flow = await makeFlow(handle.db, teamId, {
      senders: [sender.uuid],
      nodes: [
        {
          id: 1,
          type: 'linkedin_send_connection_request',
          payload: { template: 'Hi {{first_name}}' },
          next: { 1: 2 },
        },
        { id: 2, type: 'end' },
      ],
    });
    await makeContacts(handle.db, teamId, 200, 'Seed');
    const list = await makeList(handle.db, teamId, 'Soak');
    const hook = await fetch(`${apis[0]!.base}/integrations/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Invitations',
        event: 'sender_profile_sent_linkedin_connection_request',
        target_url: `${receiver.url}/hook`,
      }),
    });
    const { secret } = (await hook.json()) as { secret: string };

    let down = 0;
    const state: LoadState = {
      samples: [],
      accepted: new Map(),
      enrolled: new Set(),
      noted: new Set(),
      messages: [],
      unsure: [],
      imports: new Map(),
      chaos: () => down > 0,
    };
    const until = Date.now() + minutes * 60_000;
    const short = minutes <= 5;
    // Chaos: kill -9 a random process every 30-90 s (10-20 s in a short run), one database restart midway
    // (first in a short run).
    const chaos = (async () => {
      let restarted = false;
      const counts = { kills: 0, restarts: 0 };
      while (Date.now() < until - 5_000) {
        const gap = short ? 10_000 + Math.random() * 10_000 : 30_000 + Math.random() * 60_000;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(gap, Math.max(0, until - Date.now() - 5_000))),
        );
        if (Date.now() >= until - 5_000) break;
        down += 1;
        try {
          // A short run restarts the database at its first event: under load a process's restart can
          // take most of a minute, and the restart must happen in every run.
          if (!restarted && (short || Date.now() > until - (minutes * 60_000) / 2)) {
            restarted = true;
            counts.restarts += 1;
            log(`  chaos: restarting ${database.kind === 'citus' ? 'the Citus coordinator' : 'PostgreSQL'}`);
            await database.restart();
          } else {
            counts.kills += 1;
            await processes[Math.floor(Math.random() * processes.length)]!.crash();
          }
          await new Promise((resolve) => setTimeout(resolve, 3_000));
        } finally {
          down -= 1;
        }
      }
      return counts;
    })();
    await runLoad(
      { apis, apiKey: API_KEY, listUuid: list.uuid, flowUuid: flow.uuid, senderUuid: noteSender.uuid },
      state,
      rate,
      until,
    );
    const chaosCounts = await chaos;

    // Settle: let the engine finish the enrollments and the webhooks arrive (bounded).
    log('  load done; letting the engine and the webhooks settle');
    // Settled: nothing due (sender limits hold the rest back on purpose: the checks accept an enrollment
    // waiting on a named reason) and no new action or webhook for five seconds; bounded.
    const settleUntil = Date.now() + (short ? 60_000 : 120_000);
    let last = '';
    let stableSince = Date.now();
    for (;;) {
      const { rows } = await sql<{ due: number; actions: number }>`
        select
          (select count(*)::int from flow_leads where team_id = ${teamId} and status = 'in_progress'
             and next_run_at <= now())
          + (select count(*)::int from linkedin_messages where team_id = ${teamId}
             and status in ('new', 'in_progress'))
          + (select count(*)::int from file_imports where team_id = ${teamId}
             and status in ('queued', 'processing')) as due,
          (select count(*)::int from sandbox_linkedin_actions where team_id = ${teamId}) as actions
      `.execute(handle.db);
      const now = `${rows[0]!.actions}/${receiver.requests.length}`;
      if (now !== last) {
        last = now;
        stableSince = Date.now();
      }
      if ((rows[0]!.due === 0 && Date.now() - stableSince >= 5_000) || Date.now() > settleUntil) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const checks = await checkInvariants({
      db: handle.db,
      teamId,
      state,
      hooks: receiver.requests.filter((r) => r.path === '/hook'),
      webhookSecret: secret,
      invitationLimit: INVITATION_LIMIT,
      noteSenderUuid: noteSender.uuid,
    });
    // A cut note is not retried (it has no natural key) and was looked up above.
    const errors = state.samples.filter(
      (s) => (s.status === 0 || s.status >= 500) && s.kind !== 'linkedin_note',
    );
    const errorRate = errors.length / Math.max(1, state.samples.length);
    checks.push({
      name: 'client errors only while the database restarted, and retried',
      ok: errors.length === 0,
      detail: `${errors.length} of ${state.samples.length} requests failed after retries${
        errors.length ? ` (${errors.map((e) => `${e.kind} ${e.status || e.error}`).join(', ')})` : ''
      }; ${
        state.samples.filter((s) => s.retries > 0).length
      } needed a retry; ${chaosCounts.kills} kill -9, ${chaosCounts.restarts} database restart`,
    });
    return { checks, table: latencyTable(state), errorRate };
  } finally {
    for (const proc of processes) await proc.stop().catch(() => {});
    await handle.close();
    await receiver.close();
    await database.stop();
  }
}

function latencyTable(state: LoadState): string {
  const lines = ['kind            calm n  p50 ms  p99 ms | chaos n  p50 ms  p99 ms'];
  for (const kind of KINDS) {
    const calm = state.samples.filter((s) => s.kind === kind && !s.chaos).map((s) => s.ms);
    const chaos = state.samples.filter((s) => s.kind === kind && s.chaos).map((s) => s.ms);
    const f = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(0)).padStart(7);
    lines.push(
      `${kind.padEnd(15)} ${String(calm.length).padStart(6)} ${f(percentile(calm, 50))} ${f(percentile(calm, 99))} | ${String(chaos.length).padStart(7)} ${f(percentile(chaos, 50))} ${f(percentile(chaos, 99))}`,
    );
  }
  return lines.join('\n');
}

const report = await soak();
process.stdout.write(`\n${report.table}\n\n`);
for (const check of report.checks)
  process.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}\n`);
process.stdout.write(`client error rate: ${(report.errorRate * 100).toFixed(2)}%\n`);
process.exit(report.checks.every((c) => c.ok) ? 0 : 1);
