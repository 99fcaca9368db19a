// What a Chromium seat costs in memory under each way of running it, measured in one run against the
// LinkedIn replica (the options issue 26 asked to compare; seat-browsers.ts implements the one chosen).
// Each option opens SEATS seats, each logged in with its own replica session, on the feed: "idle" is
// the PSS of all their Chromium processes 3 s later, divided by the seats; "active" the same after each
// seat toured the pages the driver uses (profiles, composer, messaging, connections, search) ROUNDS
// times. The replica's pages are far lighter than linkedin.com's, so options that only trim page
// content (blocking images) show less here than they would there; process sharing shows in full.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { BROWSER_ARGS } from '../../src/modules/browsers/chromium/chromium-processes.js';
import { LAUNCH_IDENTITY, seatIdentity } from '../../src/modules/browsers/chromium/seat-identity.js';
import { type Replica, startReplica } from '../../test/linkedin-replica/replica.js';
import type { BenchRow, Scenario } from '../lib.js';
import { chromiumPss, sleep } from './chromium-memory.js';

const SEATS = Number(process.env.BENCH_LINKEDIN_OPTION_SEATS ?? 4);
const ROUNDS = Number(process.env.BENCH_LINKEDIN_OPTION_ROUNDS ?? 2);

type Option = {
  name: string;
  /** Seats in one browser process as contexts (else one persistent browser per seat). */
  shared?: boolean;
  args?: string[];
  /** Abort image, media and font requests (route interception). */
  block?: boolean;
  /** Close the page when the seat is idle (the context and its cookies stay). */
  closeIdlePage?: boolean;
};

const OPTIONS: Option[] = [
  { name: 'browser per seat (before)' },
  { name: 'browser per seat, images/media/fonts blocked', block: true },
  {
    name: 'browser per seat, renderer limits',
    args: [
      '--js-flags=--max-old-space-size=96',
      '--renderer-process-limit=1',
      '--disable-site-isolation-trials',
    ],
  },
  { name: 'browser per seat, idle page closed', closeIdlePage: true },
  { name: 'one browser, a context per seat', shared: true },
  { name: 'one browser, contexts, blocked', shared: true, block: true },
  { name: 'one browser, contexts, idle page closed', shared: true, closeIdlePage: true },
];

const TOUR = (n: number) => [
  '/feed/',
  `/in/person-${n % 9}/`,
  `/messaging/compose/?recipient=person-${n % 9}`,
  '/messaging/',
  '/mynetwork/invite-connect/connections/',
  '/search/results/people/?keywords=a',
  `/in/person-${(n + 3) % 9}/`,
  '/mynetwork/invitation-manager/sent/',
];

async function measure(option: Option, replica: Replica, executablePath: string, dir: string) {
  const { chromium } = await import('playwright-core');
  const identity = await seatIdentity(executablePath, null);
  const launchArgs = [...BROWSER_ARGS, ...(option.args ?? [])];
  const contextOptions: BrowserContextOptions = {
    viewport: { width: 1280, height: 800 },
    locale: identity.locale,
    ...(identity.userAgent ? { userAgent: identity.userAgent } : {}),
  };
  let shared: Browser | undefined;
  const seats: Array<{ context: BrowserContext; page?: Page }> = [];
  const started = performance.now();
  try {
    for (let i = 0; i < SEATS; i++) {
      let context: BrowserContext;
      if (option.shared) {
        shared ??= await chromium.launch({
          executablePath,
          headless: true,
          ignoreDefaultArgs: LAUNCH_IDENTITY.ignoreDefaultArgs,
          args: launchArgs,
        });
        context = await shared.newContext(contextOptions);
      } else {
        context = await chromium.launchPersistentContext(path.join(dir, `seat-${i}`), {
          executablePath,
          headless: true,
          ignoreDefaultArgs: LAUNCH_IDENTITY.ignoreDefaultArgs,
          args: launchArgs,
          ...contextOptions,
        });
      }
      if (option.block) {
        await context.route('**/*', (route) =>
          ['image', 'media', 'font'].includes(route.request().resourceType())
            ? route.abort('blockedbyclient')
            : route.fallback(),
        );
      }
      await context.addCookies(replica.sessionOf(replica.signIn('sam-sender')).cookies);
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${replica.url}/feed/`);
      seats.push({ context, page });
    }
    const startMs = (performance.now() - started) / SEATS;
    const idleSeat = async () => {
      if (option.closeIdlePage) {
        for (const seat of seats) {
          await seat.page?.close();
          seat.page = undefined;
        }
      }
      await sleep(3000);
      return chromiumPss();
    };
    const idle = await idleSeat();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, seat] of seats.entries()) {
        seat.page ??= await seat.context.newPage();
        for (const url of TOUR(i + round)) await seat.page.goto(`${replica.url}${url}`);
      }
    }
    await sleep(1000);
    const active = chromiumPss();
    const afterIdle = await idleSeat();
    return {
      startMs,
      idleMb: idle.mb / SEATS,
      activeMb: active.mb / SEATS,
      afterIdleMb: afterIdle.mb / SEATS,
      processes: active.processes,
    };
  } finally {
    for (const seat of seats) await seat.context.close().catch(() => {});
    await shared?.close();
  }
}

export const linkedinOptionsScenario: Scenario = {
  name: 'linkedin-options',
  description: `memory per chromium seat under each way of running seats (${SEATS} seats per option, ${ROUNDS} tours of 8 replica pages each)`,
  async run(_server, log) {
    const config = loadConfig();
    const replica = await startReplica();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadflow-bench-li-options-'));
    const rows: BenchRow[] = [];
    let before: number | undefined;
    try {
      for (const option of OPTIONS) {
        const m = await measure(option, replica, config.linkedin.chromiumPath, dir);
        log(
          `${option.name}: idle ${m.idleMb.toFixed(0)} MB, active ${m.activeMb.toFixed(0)} MB, ` +
            `idle again ${m.afterIdleMb.toFixed(0)} MB per seat (${m.processes} processes), start ${m.startMs.toFixed(0)} ms`,
        );
        before ??= m.activeMb;
        rows.push(
          {
            scenario: 'linkedin-options',
            metric: `${option.name}: idle`,
            value: Math.round(m.idleMb),
            unit: 'MB',
          },
          {
            scenario: 'linkedin-options',
            metric: `${option.name}: active`,
            value: Math.round(m.activeMb),
            unit: 'MB',
            baseline: Math.round(before),
          },
          {
            scenario: 'linkedin-options',
            metric: `${option.name}: idle after acting`,
            value: Math.round(m.afterIdleMb),
            unit: 'MB',
          },
        );
      }
    } finally {
      await replica.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
