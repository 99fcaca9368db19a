// Chromium seats against the local LinkedIn replica: memory (proportional set size of each seat's
// Chromium process tree) of idle seats and of a seat that just acted, and how many actions per minute
// one seat does when nothing paces it (for information: real pacing comes from the sender's limits).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { secretBoxOf } from '../../src/deps.js';
import { createChromiumDriver } from '../../src/modules/browsers/chromium/chromium-driver.js';
import { createSeatBrowsers, seatProfileDir } from '../../src/modules/browsers/chromium/seat-browsers.js';
import { saveSession } from '../../src/modules/browsers/seat-session.js';
import type { ActionRequest, ActionType } from '../../src/modules/channels/driver.js';
import { makeSender } from '../../test/automation-factories.js';
import { type Replica, startReplica } from '../../test/linkedin-replica/replica.js';
import type { BenchRow, Scenario } from '../lib.js';

const IDLE_SEATS = Number(process.env.BENCH_LINKEDIN_IDLE_SEATS ?? 5);
const ACTIVE_SECONDS = Number(process.env.BENCH_LINKEDIN_SECONDS ?? 30);

/** PSS (kB) of a process and all its descendants, from /proc. */
function treePssKb(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {}
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** The main Chromium process of a seat (the one started with its profile directory). */
function seatBrowserPid(dir: string): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd.includes(`--user-data-dir=${dir}`) && !cmd.some((a) => a.startsWith('--type=')))
        return Number(entry);
    } catch {}
  }
  return null;
}

export const linkedinScenario: Scenario = {
  name: 'linkedin',
  description: `chromium seats on the LinkedIn replica: memory of ${IDLE_SEATS} idle seats and of an active one, actions per minute of one seat (${ACTIVE_SECONDS} s)`,
  async run(server, log) {
    const rows: BenchRow[] = [];
    const deps = await server.newDatabase('linkedin');
    const { db } = deps.handle;
    const box = secretBoxOf(deps.config);
    const replica: Replica = await startReplica();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadflow-bench-li-'));
    const browsers = createSeatBrowsers({
      config: { dataDir, linkedin: { ...deps.config.linkedin, maxOpenBrowsers: IDLE_SEATS + 1 } },
      db,
      secretBox: box,
    });
    try {
      const { team_id: teamId } = await deps.services.identity.createUserWithTeam({
        email: 'linkedin@bench.test',
        teamName: 'linkedin',
      });
      const seats: Array<{ seatId: number; sender: string }> = [];
      for (let i = 0; i <= IDLE_SEATS; i++) {
        const sender = await makeSender(db, teamId);
        const seat = await db
          .insertInto('linkedin_browsers')
          .values({
            team_id: teamId,
            sender_profile_uuid: sender.uuid,
            driver: 'chromium',
            status: 'running',
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await saveSession(
          db,
          box,
          teamId,
          seat.id,
          replica.sessionOf(replica.signIn('sam-sender')),
          new Date(),
        );
        seats.push({ seatId: seat.id, sender: sender.uuid });
      }

      // Idle seats: started, on the feed, doing nothing.
      const idle = seats.slice(0, IDLE_SEATS);
      const started = performance.now();
      for (const seat of idle) {
        const { page } = await browsers.open(teamId, seat.seatId);
        await page.goto(`${replica.url}/feed/`);
      }
      const startMs = (performance.now() - started) / idle.length;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const idleKb = idle.map((seat) =>
        treePssKb(seatBrowserPid(seatProfileDir(dataDir, teamId, seat.seatId)) ?? -1),
      );
      const idleMb = idleKb.reduce((a, b) => a + b, 0) / idle.length / 1024;
      log(`idle seat: ${idleMb.toFixed(0)} MB PSS (mean of ${idle.length}), start ${startMs.toFixed(0)} ms`);
      rows.push({
        scenario: 'linkedin',
        metric: 'seat browser start',
        value: Math.round(startMs),
        unit: 'ms',
      });
      rows.push({
        scenario: 'linkedin',
        metric: 'memory per idle seat (PSS)',
        value: Math.round(idleMb),
        unit: 'MB',
      });
      for (const seat of idle) await browsers.close(teamId, seat.seatId);

      // One active seat: visits, likes, messages and withdrawals in a loop, unpaced.
      const active = seats[IDLE_SEATS]!;
      const driver = createChromiumDriver(
        { teamId, seatId: active.seatId },
        { browsers, baseUrl: replica.url },
      );
      for (const p of replica.state.people) {
        replica.state.relations['sam-sender'] = {
          ...replica.state.relations['sam-sender'],
          [p.slug]: 'connected',
        };
      }
      const request = (type: ActionType, slug: string, text: string | null = null): ActionRequest => ({
        teamId,
        taskUuid: `bench-${Math.random()}`,
        type,
        senderProfileUuid: active.sender,
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
      await driver.perform(request('linkedin_visit_profile', 'person-0'));
      let actions = 0;
      let failures = 0;
      const until = performance.now() + ACTIVE_SECONDS * 1000;
      while (performance.now() < until) {
        const slug = `person-${actions % 9}`;
        const kind = actions % 2 === 0 ? 'linkedin_visit_profile' : 'linkedin_send_message';
        const outcome = await driver.perform(
          request(kind, slug, kind === 'linkedin_send_message' ? `Hello ${actions}` : null),
        );
        if (!outcome.ok) failures += 1;
        actions += 1;
      }
      const perMinute = (actions / ACTIVE_SECONDS) * 60;
      const activeMb = treePssKb(seatBrowserPid(seatProfileDir(dataDir, teamId, active.seatId)) ?? -1) / 1024;
      log(
        `active seat: ${perMinute.toFixed(0)} actions/min (${failures} failed), ${activeMb.toFixed(0)} MB PSS`,
      );
      rows.push({
        scenario: 'linkedin',
        metric: 'actions per minute, one seat, unpaced',
        value: Math.round(perMinute),
        unit: '/min',
      });
      rows.push({
        scenario: 'linkedin',
        metric: 'memory per active seat (PSS)',
        value: Math.round(activeMb),
        unit: 'MB',
      });
      rows.push({
        scenario: 'linkedin',
        metric: `20 seats open at once (x idle seat)`,
        value: Math.round(idleMb * 20),
        unit: 'MB',
        goal: `< ${Math.round(os.totalmem() / 1024 / 1024)} MB of this machine`,
        pass: idleMb * 20 < os.totalmem() / 1024 / 1024,
      });
    } finally {
      await browsers.closeAll();
      await replica.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await deps.handle.close();
    }
    return rows;
  },
};
