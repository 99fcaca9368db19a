// The automation engine: steps per second through the sandbox network (limits lifted, no human gap)
// against bare claim-and-update SQL on the same table, lateness of due steps at idle, and the claim and
// the reply stop with a million active and ten million finished enrollments in the table.
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { systemClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { createSandboxDriver } from '../../src/modules/browsers/sandbox/sandbox-driver.js';
import { sandboxResponder } from '../../src/modules/browsers/sandbox/sandbox-responder.js';
import { createDriverRegistry } from '../../src/modules/channels/registry.js';
import { createEngine } from '../../src/modules/engine/engine.js';
import { claimDueEnrollments } from '../../src/modules/engine/run/claim.js';
import { ingestSignals } from '../../src/modules/engine/signals.js';
import { createTemplateRenderer } from '../../src/modules/engine/template-renderer.js';
import { ingestInbox } from '../../src/modules/linkedin-messages/linkedin-ingest.js';
import { recordSentLinkedInMessages } from '../../src/modules/linkedin-messages/linkedin-sent.js';
import { noLlm } from '../../src/modules/llm/llm-client.js';
import { fixedLlms } from '../../src/modules/llm/team-llms.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { createWebhookClient } from '../../src/modules/webhooks/webhook-client.js';
import { ALWAYS, buildNodes } from '../../test/automation-factories.js';
import { type BenchRow, percentile, type Scenario, timeRuns } from '../lib.js';

const THROUGHPUT = Number(process.env.BENCH_ENGINE_ENROLLMENTS ?? 20_000);
const ACTIVE = Number(process.env.BENCH_ENGINE_ACTIVE ?? 1_000_000);
const FINISHED = Number(process.env.BENCH_ENGINE_FINISHED ?? 10_000_000);
const SENDERS = 20;
/** 1,000,000 as "1M", 100,000 as "100k" (metric names follow the sizes asked for). */
const count = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0
    ? `${n / 1_000_000}M`
    : n >= 1000 && n % 1000 === 0
      ? `${n / 1000}k`
      : String(n);

async function seedTeam(
  db: Database,
  services: {
    identity: { createUserWithTeam(i: { email: string; teamName: string }): Promise<{ team_id: number }> };
  },
  label: string,
) {
  const { team_id: teamId } = await services.identity.createUserWithTeam({
    email: `${label}@bench.test`,
    teamName: label,
  });
  const list = newId();
  await db.insertInto('lists').values({ team_id: teamId, uuid: list, name: label }).execute();
  const stage = await selectInitialStageUuid(db, teamId, 'lead');
  return { teamId, list, stage };
}

async function seedContacts(
  db: Database,
  team: { teamId: number; list: string; stage: string },
  count: number,
) {
  await sql`
    insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, first_name, last_name, linkedin, custom_fields)
    select ${team.teamId}, leadflow_uuid_v7(), ${team.list}, ${team.stage}, 'Bench' || i, 'Contact', 'bench-' || i, '{}'
    from generate_series(1, ${count}) i
  `.execute(db);
}

async function seedSenders(db: Database, teamId: number, count: number) {
  const senders = Array.from({ length: count }, (_, i) => ({
    team_id: teamId,
    uuid: newId(),
    first_name: `Sender${i}`,
    schedule: JSON.stringify(ALWAYS),
    limits: '{}',
    weekly_limits: '{}',
    action_interval_seconds: 0,
  }));
  await db.insertInto('sender_profiles').values(senders).execute();
  await db
    .insertInto('linkedin_browsers')
    .values(
      senders.map((s) => ({
        team_id: teamId,
        sender_profile_uuid: s.uuid,
        driver: 'sandbox' as const,
        status: 'running' as const,
      })),
    )
    .execute();
  return senders.map((s) => s.uuid);
}

async function seedFlow(db: Database, teamId: number, senders: string[], tag: string) {
  const flow = newId();
  const version = newId();
  await db
    .insertInto('flows')
    .values({
      team_id: teamId,
      uuid: flow,
      name: 'Bench',
      flow_version_uuid: version,
      schedule: JSON.stringify(ALWAYS),
      status: 'on',
      settings: '{}',
    })
    .execute();
  const nodes = buildNodes([
    { id: 1, type: 'linkedin_visit_profile', next: { 1: 2 } },
    { id: 2, type: 'gs_add_tag', payload: { tag_uuid: tag }, next: { 1: 3 } },
    {
      id: 3,
      type: 'rule_ab_test',
      payload: {
        branches: [
          { branch_id: 1, value: 50, is_enabled: true },
          { branch_id: 2, value: 50, is_enabled: true },
        ],
      },
      next: { 1: 4, 2: 5 },
    },
    { id: 4, type: 'util_timer', payload: { wait_time: 0 }, next: { 1: 5 } },
    { id: 5, type: 'end' },
  ]);
  await db
    .insertInto('flow_versions')
    .values({
      team_id: teamId,
      uuid: version,
      flow_uuid: flow,
      nodes: JSON.stringify(nodes),
      contact_sources: JSON.stringify([
        { id: 1, name: null, rotation_strategy: 'fair', sender_profiles: senders, after_id: 1 },
      ]),
    })
    .execute();
  return { flow, version };
}

async function enrollAll(
  db: Database,
  teamId: number,
  flow: { flow: string; version: string },
  at: Date,
  limit?: number,
) {
  await sql`
    insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, status, flow_node_id, next_run_at, flow_active, started_at)
    select ${teamId}, leadflow_uuid_v7(), ${flow.flow}, ${flow.version}, l.uuid, 'in_progress', 1, ${at}, true, ${at}
    from leads l where l.team_id = ${teamId} ${limit ? sql`limit ${limit}` : sql``}
  `.execute(db);
}

function benchEngine(
  db: Database,
  config: Parameters<typeof createEngine>[0]['config'],
  webhooks: { timeoutMs: number },
  sandboxSettings: Parameters<typeof createSandboxDriver>[1],
) {
  const sandbox = createSandboxDriver(db, sandboxSettings);
  return createEngine({
    db,
    clock: systemClock,
    log: createLogger('warn'),
    config,
    drivers: createDriverRegistry(db, { linkedin: { sandbox: () => sandbox } }),
    pushes: [sandboxResponder(db, ingestInbox)],
    onSent: [recordSentLinkedInMessages],
    // Limits lifted: this measures the engine, not LinkedIn's pace.
    limits: () => ({ daily: 1_000_000_000, weekly: null }),
    renderer: createTemplateRenderer({ llms: fixedLlms(noLlm) }),
    http: createWebhookClient({ timeoutMs: webhooks.timeoutMs, policy: { allowPrivate: false } }),
  });
}

async function untilSettled(db: Database, teamId: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const live = await sql<{ n: number }>`
      select count(*)::int as n from flow_leads where team_id = ${teamId} and status in ('in_progress', 'paused')`.execute(
      db,
    );
    if ((live.rows[0]?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error(`${live.rows[0]?.n} enrollments still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const engineScenario: Scenario = {
  name: 'engine',
  description: `engine throughput (${THROUGHPUT.toLocaleString('en-US')} enrollments, sandbox), idle lateness, claim and reply stop at ${ACTIVE.toLocaleString('en-US')} active + ${FINISHED.toLocaleString('en-US')} finished`,
  async run(server, log) {
    const rows: BenchRow[] = [];
    const deps = await server.newDatabase('engine');
    const { db } = deps.handle;
    const engineConfig = { ...deps.config.engine, batchSize: 1000, dispatchConcurrency: 16 };

    // 1. Baseline: claim 500 due rows and update them, nothing else, on the same table.
    {
      const team = await seedTeam(db, deps.services, 'baseline');
      await seedContacts(db, team, THROUGHPUT);
      const tag = newId();
      const flow = await seedFlow(db, team.teamId, [], tag);
      await enrollAll(db, team.teamId, flow, new Date(Date.now() - 1000));
      const started = performance.now();
      let done = 0;
      for (;;) {
        const claimed = await claimDueEnrollments(db, new Date(), 500, 60_000);
        if (claimed.length === 0) break;
        await sql`update flow_leads set step = step + 1, next_run_at = null, status = 'finished'
          where team_id = ${team.teamId} and uuid = any(${claimed.map((c) => c.uuid)}::uuid[])`.execute(db);
        done += claimed.length;
      }
      const perSecond = done / ((performance.now() - started) / 1000);
      rows.push({
        scenario: 'engine',
        metric: 'baseline: bare claim + update',
        value: perSecond,
        unit: 'rows/s',
      });
      log(`  baseline ${Math.round(perSecond)} rows/s`);
    }
    const baseline = rows[0]!.value;

    // 2. Steps per second through the sandbox: a 5-node flow with an action, a CRM change and a split.
    {
      const team = await seedTeam(db, deps.services, 'throughput');
      await seedContacts(db, team, THROUGHPUT);
      const senders = await seedSenders(db, team.teamId, SENDERS);
      const tag = newId();
      await db.insertInto('tags').values({ team_id: team.teamId, uuid: tag, name: 'Visited' }).execute();
      const flow = await seedFlow(db, team.teamId, senders, tag);
      await enrollAll(db, team.teamId, flow, new Date());
      const engine = benchEngine(db, engineConfig, deps.config.webhooks, deps.config.sandbox);
      const started = performance.now();
      engine.start();
      await untilSettled(db, team.teamId, 30 * 60_000);
      const seconds = (performance.now() - started) / 1000;
      await engine.stop();
      const steps = await sql<{
        n: number;
      }>`select count(*)::int as n from tasks where team_id = ${team.teamId}`.execute(db);
      const perSecond = (steps.rows[0]?.n ?? 0) / seconds;
      rows.push({
        scenario: 'engine',
        metric: `steps/s, ${THROUGHPUT.toLocaleString('en-US')} enrollments x 4-5 steps`,
        value: perSecond,
        unit: 'steps/s',
        baseline,
        goal: '>= 5000/s',
        pass: perSecond >= 5000,
      });
      rows.push({
        scenario: 'engine',
        metric: `wall time, ${THROUGHPUT.toLocaleString('en-US')} enrollments through the flow`,
        value: seconds,
        unit: 's',
      });
      log(`  ${Math.round(perSecond)} steps/s (${seconds.toFixed(1)} s)`);
    }

    // 3. Lateness at idle: steps due over the next few seconds start within the poll interval.
    {
      const team = await seedTeam(db, deps.services, 'lateness');
      await seedContacts(db, team, 200);
      const senders = await seedSenders(db, team.teamId, 2);
      const tag = newId();
      await db.insertInto('tags').values({ team_id: team.teamId, uuid: tag, name: 'Late' }).execute();
      const flow = await seedFlow(db, team.teamId, senders, tag);
      const engine = benchEngine(db, { ...deps.config.engine }, deps.config.webhooks, deps.config.sandbox);
      engine.start();
      const base = Date.now() + 2000;
      await sql`
        insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, status, flow_node_id, next_run_at, flow_active, started_at)
        select ${team.teamId}, leadflow_uuid_v7(), ${flow.flow}, ${flow.version}, l.uuid, 'in_progress', 2,
          ${new Date(base)}::timestamptz + (row_number() over () * interval '37 milliseconds'), true, now()
        from leads l where l.team_id = ${team.teamId}
      `.execute(db);
      const due = await db
        .selectFrom('flow_leads')
        .select(['uuid', 'next_run_at'])
        .where('team_id', '=', team.teamId)
        .execute();
      await untilSettled(db, team.teamId, 60_000);
      await engine.stop();
      const firstTask = await sql<{ flow_lead_uuid: string; created_at: Date }>`
        select flow_lead_uuid, min(created_at) as created_at from tasks where team_id = ${team.teamId} group by 1`.execute(
        db,
      );
      const dueAt = new Map(due.map((d) => [d.uuid, d.next_run_at!.getTime()]));
      const lateness = firstTask.rows.map((t) => t.created_at.getTime() - (dueAt.get(t.flow_lead_uuid) ?? 0));
      const p99 = percentile(lateness, 99);
      rows.push({
        scenario: 'engine',
        metric: 'lateness of due steps at idle, p99',
        value: p99,
        unit: 'ms',
        goal: '< 1000 ms',
        pass: p99 < 1000,
      });
      log(`  lateness p99 ${p99} ms`);
    }

    // 4. The claim and the reply stop with a big table.
    {
      const team = await seedTeam(db, deps.services, 'scale');
      const flow = await seedFlow(db, team.teamId, [], newId());
      log(
        `  seeding ${FINISHED.toLocaleString('en-US')} finished and ${ACTIVE.toLocaleString('en-US')} active enrollments...`,
      );
      const chunk = 1_000_000;
      for (let done = 0; done < FINISHED; done += chunk) {
        await sql`
          insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, status, flow_node_id, flow_active, reason, finished_at)
          select ${team.teamId}, leadflow_uuid_v7(), ${flow.flow}, ${flow.version}, leadflow_uuid_v7(), 'finished', 5, true, 'completed', now()
          from generate_series(1, ${Math.min(chunk, FINISHED - done)})
        `.execute(db);
      }
      await sql`
        insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, status, flow_node_id, next_run_at, flow_active)
        select ${team.teamId}, leadflow_uuid_v7(), ${flow.flow}, ${flow.version}, leadflow_uuid_v7(), 'in_progress', 1,
          now() - interval '1 hour' + (i % 3600) * interval '1 second', true
        from generate_series(1, ${ACTIVE}) i
      `.execute(db);
      // One contact in 50 flows with the same sender, for the reply stop.
      const sender = newId();
      const contacts = Array.from({ length: 20 }, () => newId());
      await sql`
        insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, sender_profile_uuid, status, flow_node_id, flow_active)
        select ${team.teamId}, leadflow_uuid_v7(), leadflow_uuid_v7(), ${flow.version}, c, ${sender}, 'in_progress', 1, true
        from unnest(${contacts}::uuid[]) c, generate_series(1, 50)
      `.execute(db);
      await sql`insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, first_name, custom_fields)
        select ${team.teamId}, c, ${team.list}, ${team.stage}, 'Reply', '{}' from unnest(${contacts}::uuid[]) c`.execute(
        db,
      );
      await sql`analyze flow_leads`.execute(db);
      // Each claim is followed by what a batch does with its rows (untimed): they leave the due range.
      const claims: number[] = [];
      for (let i = 0; i < 60; i += 1) {
        const started = performance.now();
        const claimed = await claimDueEnrollments(db, new Date(), 500, 600_000);
        claims.push(performance.now() - started);
        await sql`update flow_leads set next_run_at = now() + interval '1 day', lease_until = null
          where team_id = ${team.teamId} and uuid = any(${claimed.map((c) => c.uuid)}::uuid[])`.execute(db);
      }
      const claimP99 = percentile(claims, 99);
      rows.push({
        scenario: 'engine',
        metric: `claim 500 due rows, ${count(ACTIVE)} active + ${count(FINISHED)} finished, p99`,
        value: claimP99,
        unit: 'ms',
        goal: '<= 50 ms',
        pass: claimP99 <= 50,
      });
      const stops = await timeRuns(contacts.length, (i) =>
        ingestSignals(db, team.teamId, new Date(), [
          {
            kind: 'linkedin_replied',
            leadUuid: contacts[i]!,
            senderProfileUuid: sender,
            occurredAt: new Date(),
            externalKey: `bench:${i}`,
          },
        ]),
      );
      const stopP99 = percentile(stops, 99);
      rows.push({
        scenario: 'engine',
        metric: 'reply stops one contact in 50 flows, p99',
        value: stopP99,
        unit: 'ms',
        goal: '<= 20 ms',
        pass: stopP99 <= 20,
      });
      log(`  claim p99 ${claimP99.toFixed(1)} ms, reply stop p99 ${stopP99.toFixed(1)} ms`);
    }
    return rows;
  },
};
