// The deterministic simulation: weeks of automation on a manual clock, senders in several time zones,
// the sandbox LinkedIn network, and workers "killed" at random points (including between a send and
// its record). It then checks the engine's promises on what really happened: what the sandbox was asked
// to do is the remote truth, the database is what the engine believes. `npm run simulate` runs the full
// scenario; a short one runs in the test suite (src/modules/engine/engine.simulation.test.ts). A scenario
// and its checks (simulation-invariants.ts), not product code: it drives the engine through the composition root like a worker does.
import { sql } from 'kysely';
import type { Config } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { createAutomationEngine, createServices } from '../src/deps.js';
import { manualClock, systemClock } from '../src/lib/clock.js';
import { newId } from '../src/lib/ids.js';
import { createLogger } from '../src/lib/logger.js';
import { uniform } from '../src/lib/rng.js';
import type { Schedule } from '../src/lib/schedule.js';
import { type CrashPoint, SimulatedCrash } from '../src/modules/engine/index.js';
import { selectInitialStageUuid } from '../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { buildNodes, type NodeSpec } from '../test/node-specs.js';
import { checkInvariants, type Invariant } from './simulation-invariants.js';

export type SimulationOptions = {
  seed: number;
  days: number;
  senders: number;
  enrollments: number;
  /** Probability that a worker dies at each crash point it passes. */
  crashRate: number;
  start?: Date;
  log?: (line: string) => void;
};

export type SimulationReport = {
  wallMs: number;
  simulatedDays: number;
  ticks: number;
  steps: number;
  actions: number;
  crashes: number;
  enrollments: Record<string, number>;
  sends: Record<string, number>;
  abShare: { branch1: number; total: number };
  invariants: Invariant[];
};

export const SIM_ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/Santiago',
];

export const officeHours = (timezone: string): Schedule => ({
  timezone,
  use_lead_timezone: false,
  timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
});

export function simulationNodes(warmTag: string, engagedTag: string) {
  const specs: NodeSpec[] = [
    {
      id: 1,
      type: 'linkedin_send_connection_request',
      payload: { template: 'Hi {{first_name}}, let us connect.' },
      next: { 1: 2 },
    },
    {
      id: 2,
      type: 'trigger_linkedin_connection_request_accepted',
      payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 7 * 86_400 } }] },
      next: { 1: 3, 2: 10 },
    },
    {
      id: 3,
      type: 'linkedin_send_message',
      payload: { template: 'Thanks for connecting, {{first_name}}!' },
      delay_in_seconds: 3600,
      next: { 1: 4 },
    },
    {
      id: 4,
      type: 'rule_ab_test',
      payload: {
        branches: [
          { branch_id: 1, value: 50, is_enabled: true },
          { branch_id: 2, value: 50, is_enabled: true },
        ],
      },
      next: { 1: 5, 2: 7 },
    },
    {
      id: 5,
      type: 'rule_filter',
      payload: {
        branches: [{ branch_id: 1, filters: { mass_actions_filter: { tags: [warmTag] } } }, { branch_id: 0 }],
      },
      next: { 1: 6, 0: 10 },
    },
    { id: 6, type: 'gs_add_tag', payload: { tag_uuid: engagedTag }, next: { 1: 10 } },
    { id: 7, type: 'util_timer', payload: { wait_time: 2 * 86_400 }, next: { 1: 8 } },
    {
      id: 8,
      type: 'trigger_message_replied',
      payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 3 * 86_400 } }] },
      next: { 1: 10, 2: 9 },
    },
    {
      id: 9,
      type: 'linkedin_send_message',
      payload: { template: 'Just following up, {{first_name}}.' },
      next: { 1: 10 },
    },
    { id: 10, type: 'end' },
  ];
  return buildNodes(specs);
}

/**
 * Builds the scenario set-based: a team, senders with sandbox seats, contacts, a running flow and (unless
 * `enroll` is false: the preview benchmark) the contacts' enrollments.
 */
export async function setupScenario(
  db: Database,
  config: Config,
  options: Pick<SimulationOptions, 'senders' | 'enrollments'>,
  start: Date,
  enroll = true,
) {
  const { identity } = createServices({ db, config, clock: systemClock });
  const { team_id: teamId } = await identity.createUserWithTeam({
    email: `sim-${newId()}@leadflow.local`,
    teamName: 'Simulation',
  });
  const list = newId();
  const [warm, engaged] = [newId(), newId()];
  await db.insertInto('lists').values({ team_id: teamId, uuid: list, name: 'Simulation' }).execute();
  await db
    .insertInto('tags')
    .values([
      { team_id: teamId, uuid: warm, name: 'Warm' },
      { team_id: teamId, uuid: engaged, name: 'Engaged' },
    ])
    .execute();
  const stage = await selectInitialStageUuid(db, teamId, 'lead');
  await sql`
    insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, first_name, last_name, name, linkedin, tags, custom_fields)
    select ${teamId}, leadflow_uuid_v7(), ${list}, ${stage}, 'Sim' || i, 'Contact', 'Sim' || i || ' Contact',
      'sim-contact-' || i, case when i % 3 = 0 then array[${warm}::uuid] else '{}'::uuid[] end, '{}'
    from generate_series(1, ${options.enrollments}) i
  `.execute(db);
  const senders = Array.from({ length: options.senders }, (_, i) => ({
    team_id: teamId,
    uuid: newId(),
    first_name: `Sender${i}`,
    schedule: JSON.stringify(officeHours(SIM_ZONES[i % SIM_ZONES.length] as string)),
    limits: '{}',
    weekly_limits: '{}',
    created_at: new Date(start.getTime() - 60 * 86_400_000),
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
  const flow = newId();
  const version = newId();
  await db
    .insertInto('flows')
    .values({
      team_id: teamId,
      uuid: flow,
      name: 'Simulated outreach',
      flow_version_uuid: version,
      schedule: JSON.stringify(officeHours('UTC')),
      use_sender_schedule: true,
      status: 'on',
      settings: '{}',
    })
    .execute();
  await db
    .insertInto('flow_versions')
    .values({
      team_id: teamId,
      uuid: version,
      flow_uuid: flow,
      nodes: JSON.stringify(simulationNodes(warm, engaged)),
      contact_sources: JSON.stringify([
        {
          id: 1,
          name: null,
          rotation_strategy: 'fair',
          sender_profiles: senders.map((s) => s.uuid),
          after_id: 1,
          mass_actions_filter: null,
          filter_tree_format: null,
        },
      ]),
      first_common_node_id: 10,
    })
    .execute();
  if (enroll)
    await sql`
    insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, contact_source_id, status,
      flow_node_id, next_run_at, flow_active, started_at)
    select ${teamId}, leadflow_uuid_v7(), ${flow}, ${version}, l.uuid, 1, 'in_progress', 1, ${start}, true, ${start}
    from leads l where l.team_id = ${teamId}
  `.execute(db);
  return { teamId, flow };
}

export async function runSimulation(
  db: Database,
  config: Config,
  options: SimulationOptions,
): Promise<SimulationReport> {
  const log = options.log ?? (() => {});
  const start = options.start ?? new Date('2026-03-02T00:00:00Z'); // a Monday; spans a DST change
  const end = new Date(start.getTime() + options.days * 86_400_000);
  const clock = manualClock(start);
  const { teamId, flow } = await setupScenario(db, config, options, start);
  log(
    `  setup: ${options.enrollments} contacts enrolled, ${options.senders} senders in ${SIM_ZONES.length} zones`,
  );

  let crashes = 0;
  let draws = 0;
  const crashPoint = (point: CrashPoint) => {
    draws += 1;
    if (options.crashRate > 0 && uniform('crash', options.seed, draws) < options.crashRate) {
      crashes += 1;
      throw new SimulatedCrash(point);
    }
  };
  const engine = createAutomationEngine({ db, config, clock }, createLogger('silent'), {
    crashPoint,
    sleep: async () => {},
  });
  const started = performance.now();
  let ticks = 0;
  let steps = 0;
  let actions = 0;
  let lastDay = -1;
  while (clock.now() < end) {
    ticks += 1;
    let idle = true;
    try {
      const result = await engine.tick();
      steps += result.steps;
      actions += result.actions;
      idle = result.claimed + result.actions + result.answers + result.reconciled === 0;
    } catch (error) {
      // A "killed" worker: its in-memory state is gone; the next tick is a fresh start.
      if (!(error instanceof SimulatedCrash)) throw error;
      idle = false;
    }
    if (idle) {
      const next = await engine.nextWakeAt();
      const now = clock.now().getTime();
      clock.set(new Date(Math.min(end.getTime(), Math.max(now + 1000, next?.getTime() ?? end.getTime()))));
    }
    const day = Math.floor((clock.now().getTime() - start.getTime()) / 86_400_000);
    if (day !== lastDay) {
      lastDay = day;
      log(`  day ${day}: ${ticks} ticks, ${steps} steps, ${actions} actions, ${crashes} crashes`);
    }
  }
  const wallMs = performance.now() - started;
  const statuses = await sql<{ key: string; n: number }>`
    select status || coalesce(':' || reason, '') as key, count(*)::int as n from flow_leads
    where team_id = ${teamId} group by 1 order by 2 desc`.execute(db);
  const sends = await sql<{ key: string; n: number }>`
    select action as key, count(*)::int as n from sandbox_linkedin_actions where team_id = ${teamId} group by 1`.execute(
    db,
  );
  const ab = await sql<{ b1: number; total: number }>`
    select count(*) filter (where fork_result = 1)::int as b1, count(*)::int as total from tasks
    where team_id = ${teamId} and type = 'rule_ab_test'`.execute(db);
  const b1 = ab.rows[0]?.b1 ?? 0;
  const total = ab.rows[0]?.total ?? 0;
  const invariants = await checkInvariants(db, teamId, flow);
  // Within 1% of 50/50 once the sample makes 1% meaningful (3.5 standard deviations at 30,000);
  // smaller samples are held to 3.5 standard deviations.
  const tolerance = Math.max(0.01, 3.5 * Math.sqrt(0.25 / Math.max(total, 1)));
  invariants.push({
    name: 'A/B split on target',
    violations: total > 0 && Math.abs(b1 / total - 0.5) > tolerance ? 1 : 0,
    detail: `${b1} of ${total} took branch 1 (target 50%, tolerance ${(tolerance * 100).toFixed(1)}%)`,
  });
  return {
    wallMs,
    simulatedDays: options.days,
    ticks,
    steps,
    actions,
    crashes,
    enrollments: Object.fromEntries(statuses.rows.map((r) => [r.key, r.n])),
    sends: Object.fromEntries(sends.rows.map((r) => [r.key, r.n])),
    abShare: { branch1: b1, total },
    invariants,
  };
}
