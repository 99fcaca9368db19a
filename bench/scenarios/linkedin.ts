// Chromium seats against the local LinkedIn replica: memory per seat (proportional set size of all the
// Chromium processes the seats run in, divided by the seats) when idle and while acting, as seats per
// gigabyte, and the actions per minute the seats do when nothing paces them (for information: real
// pacing comes from the sender's limits). Two passes in the same run: the baseline as seats ran before
// (a Chromium process per seat, its page kept open) and as they run now (seats sharing processes as
// browser contexts, LEADFLOW_BROWSER_SEATS_PER_PROCESS; an idle seat's page closed).

import { secretBoxOf } from '../../src/deps.js';
import { createChromiumDriver } from '../../src/modules/browsers/chromium/chromium-driver.js';
import type { SeatBrowsersOptions } from '../../src/modules/browsers/chromium/seat-browsers.js';
import { createSeatBrowsers } from '../../src/modules/browsers/chromium/seat-browsers.js';
import { saveSession } from '../../src/modules/browsers/seat-session.js';
import type { ActionRequest, ActionType } from '../../src/modules/channels/driver.js';
import { makeSender } from '../../test/automation-factories.js';
import { type Replica, startReplica } from '../../test/linkedin-replica/replica.js';
import type { BenchRow, Scenario } from '../lib.js';
import { chromiumPss, sleep } from './chromium-memory.js';

const SEATS = Number(process.env.BENCH_LINKEDIN_SEATS ?? 5);
const ACTIVE_SECONDS = Number(process.env.BENCH_LINKEDIN_SECONDS ?? 20);
/** How long a seat's page stays open unused (SeatBrowsersOptions.pageIdleMs's default). */
const PAGE_IDLE_MS = 10_000;

type Pass = { name: string; seatsPerBrowserProcess: number; pageIdleMs: number };
type Measured = { idleMb: number; activeMb: number; perMinute: number; failures: number; startMs: number };

const request = (
  seat: { teamId: number; sender: string },
  type: ActionType,
  slug: string,
  text: string | null,
): ActionRequest => ({
  teamId: seat.teamId,
  taskUuid: `bench-${Math.random()}`,
  type,
  senderProfileUuid: seat.sender,
  lead: {
    uuid: slug,
    first_name: null,
    last_name: null,
    name: null,
    ln_member_id: null,
    ln_id: null,
    sn_id: null,
    linkedin: slug,
    work_email: null,
    personal_email: null,
  },
  text,
  subject: null,
  attachments: [],
  options: {},
  at: new Date(),
});

async function measure(
  pass: Pass,
  deps: Awaited<ReturnType<Parameters<Scenario['run']>[0]['newDatabase']>>,
  replica: Replica,
  log: (line: string) => void,
): Promise<Measured> {
  const { db } = deps.handle;
  const box = secretBoxOf(deps.config);
  const options: SeatBrowsersOptions = {
    config: {
      linkedin: {
        ...deps.config.linkedin,
        maxOpenBrowsers: SEATS,
        seatsPerBrowserProcess: pass.seatsPerBrowserProcess,
      },
    },
    db,
    secretBox: box,
    pageIdleMs: pass.pageIdleMs,
  };
  const browsers = createSeatBrowsers(options);
  try {
    const { team_id: teamId } = await deps.services.identity.createUserWithTeam({
      email: `linkedin-${Date.now()}@bench.test`,
      teamName: 'linkedin',
    });
    const seats: Array<{ teamId: number; seatId: number; sender: string }> = [];
    for (let i = 0; i < SEATS; i++) {
      const sender = await makeSender(db, teamId);
      const seat = await db
        .insertInto('linkedin_browsers')
        .values({ team_id: teamId, sender_profile_uuid: sender.uuid, driver: 'chromium', status: 'running' })
        .returningAll()
        .executeTakeFirstOrThrow();
      const session = replica.sessionOf(replica.signIn('sam-sender'));
      await saveSession(db, box, teamId, seat.id, session, new Date());
      seats.push({ teamId, seatId: seat.id, sender: sender.uuid });
    }

    // Idle seats: started, on the feed, then nothing for longer than a page stays open unused.
    const started = performance.now();
    for (const seat of seats) {
      await browsers.use(teamId, seat.seatId, ({ page }) => page.goto(`${replica.url}/feed/`));
    }
    const startMs = (performance.now() - started) / SEATS;
    await sleep(Math.min(pass.pageIdleMs, PAGE_IDLE_MS) + 2000);
    const idleMb = chromiumPss().mb / SEATS;

    // Active seats: every seat visits profiles and sends messages at once, unpaced; the memory is the
    // highest of the samples taken while they act.
    let actions = 0;
    let failures = 0;
    let activeMb = 0;
    const until = performance.now() + ACTIVE_SECONDS * 1000;
    const sampler = setInterval(() => {
      activeMb = Math.max(activeMb, chromiumPss().mb / SEATS);
    }, 2000);
    await Promise.all(
      seats.map(async (seat, i) => {
        const driver = createChromiumDriver(
          { teamId, seatId: seat.seatId },
          { browsers, baseUrl: replica.url },
        );
        for (let n = i; performance.now() < until; n++) {
          const slug = `person-${n % 9}`;
          const kind = n % 2 === 0 ? 'linkedin_visit_profile' : 'linkedin_send_message';
          const text = kind === 'linkedin_send_message' ? `Hello ${n}` : null;
          const outcome = await driver.perform(request(seat, kind, slug, text));
          if (!outcome.ok) failures += 1;
          actions += 1;
        }
      }),
    );
    clearInterval(sampler);
    activeMb = Math.max(activeMb, chromiumPss().mb / SEATS);
    const perMinute = (actions / ACTIVE_SECONDS) * 60;
    log(
      `${pass.name}: idle ${idleMb.toFixed(0)} MB, active ${activeMb.toFixed(0)} MB per seat, ` +
        `${perMinute.toFixed(0)} actions/min (${failures} failed), start ${startMs.toFixed(0)} ms per seat`,
    );
    return { idleMb, activeMb, perMinute, failures, startMs };
  } finally {
    await browsers.closeAll();
  }
}

export const linkedinScenario: Scenario = {
  name: 'linkedin',
  description: `chromium seats on the LinkedIn replica: memory per seat of ${SEATS} idle seats and of ${SEATS} seats acting at once (${ACTIVE_SECONDS} s), seats per GB; a process per seat (before) against shared processes`,
  async run(server, log) {
    const deps = await server.newDatabase('linkedin');
    const replica: Replica = await startReplica();
    for (const p of replica.state.people) {
      replica.state.relations['sam-sender'] = {
        ...replica.state.relations['sam-sender'],
        [p.slug]: 'connected',
      };
    }
    try {
      const before = await measure(
        { name: 'a process per seat, page kept (before)', seatsPerBrowserProcess: 1, pageIdleMs: 86_400_000 },
        deps,
        replica,
        log,
      );
      const perProcess = deps.config.linkedin.seatsPerBrowserProcess;
      const now = await measure(
        {
          name: `${perProcess} seats per process, idle page closed`,
          seatsPerBrowserProcess: perProcess,
          pageIdleMs: PAGE_IDLE_MS,
        },
        deps,
        replica,
        log,
      );
      const row = (metric: string, value: number, unit: string, extra: Partial<BenchRow> = {}): BenchRow => ({
        scenario: 'linkedin',
        metric,
        value,
        unit,
        ...extra,
      });
      const perGb = (mb: number) => Math.round((1024 / mb) * 10) / 10;
      return [
        row('seat start (shared process)', Math.round(now.startMs), 'ms', {
          baseline: Math.round(before.startMs),
        }),
        row('memory per idle seat (PSS)', Math.round(now.idleMb), 'MB', {
          baseline: Math.round(before.idleMb),
          goal: '<= 80 MB',
          pass: now.idleMb <= 80,
        }),
        row('memory per active seat (PSS)', Math.round(now.activeMb), 'MB', {
          baseline: Math.round(before.activeMb),
          goal: '<= 200 MB',
          pass: now.activeMb <= 200,
        }),
        row('idle seats per GB', perGb(now.idleMb), 'seats', { baseline: perGb(before.idleMb) }),
        row('active seats per GB', perGb(now.activeMb), 'seats', { baseline: perGb(before.activeMb) }),
        row(`actions per minute, ${SEATS} seats at once, unpaced`, Math.round(now.perMinute), '/min', {
          baseline: Math.round(before.perMinute),
        }),
        row('failed actions', now.failures, '', { baseline: before.failures }),
      ];
    } finally {
      await replica.close();
      await deps.handle.close();
    }
  },
};
