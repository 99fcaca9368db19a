// The flow builder in Debian's Chromium with a 100-node flow (20 blocks of invitation, acceptance trigger,
// message, visit, end): time from navigation until all 100 steps are laid out and drawn (cold: first
// visit, warm: reloads with the chunks cached), how long a keystroke in the side panel takes to render
// (keydown to the next frame, 40 keys typed into a step's Text) beside an empty page's keystroke in the
// same run (a bare <input>: the browser's own floor on this machine), and how long the graph takes to
// follow once typing pauses (the panel hands the edit to the draft after 250 ms: that render is the
// whole graph's). BENCH_BUILDER_BASELINE_WEB=<dir of another build of dist/web> measures that build in
// the same run, alternating with this one (the before/after of a change); BENCH_BUILDER_PROFILE=<dir>
// writes Chromium CPU profiles of a reload and of the typing, and logs their top functions.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { defaultSchedule } from '../../src/lib/schedule.js';
import { buildNodes, makeSender, type NodeSpec } from '../../test/automation-factories.js';
import { chromiumPath } from '../../test/system-programs.js';
import { type BenchRow, listen, median, percentile, type Scenario } from '../lib.js';
import { profileTop, startProfile } from './cpu-profile.js';

const BLOCKS = 20;

/** 20 blocks of 5 steps: each accepted branch goes on to the next block, the other ends. */
export function hundredNodes(): NodeSpec[] {
  const nodes: NodeSpec[] = [];
  for (let b = 0; b < BLOCKS; b += 1) {
    const id = b * 5 + 1;
    const next = b + 1 < BLOCKS ? id + 5 : id + 4;
    nodes.push(
      {
        id,
        type: 'linkedin_send_connection_request',
        payload: { template: `Hi {{first_name}} (${b})` },
        next: { 1: id + 1 },
      },
      {
        id: id + 1,
        type: 'trigger_linkedin_connection_request_accepted',
        payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 7 * 86_400 } }] },
        next: { 1: id + 2, 2: id + 3 },
      },
      {
        id: id + 2,
        type: 'linkedin_send_message',
        payload: { template: 'Thanks, {{first_name}}!' },
        next: { 1: next },
      },
      { id: id + 3, type: 'linkedin_visit_profile', payload: {}, next: { 1: id + 4 } },
      { id: id + 4, type: 'end', payload: {} },
    );
  }
  return nodes;
}

/** In the page: per keydown, the time until the frame after it (the render the user sees). */
const KEY_PROBE = `window.__keys = []; document.addEventListener('keydown', () => {
  const t0 = performance.now();
  requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - t0), 0));
}, true);`;

/**
 * In the page: per keydown, the time from the end of the panel's 250 ms pause until the frame after the
 * graph's box shows the typed text (the draft's render of the whole graph).
 */
const FOLLOW_PROBE = `window.__follow = []; document.addEventListener('keydown', (event) => {
  const t0 = performance.now();
  const box = document.querySelector('[aria-label="Step 3: LinkedIn message"]');
  const seen = () => box.textContent.includes(window.__typed);
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => window.__follow.push(performance.now() - t0 - 250), 0));
  });
  window.__typed += event.key;
  observer.observe(box, { subtree: true, characterData: true, childList: true });
}, true);`;

type Build = { label: string; url: string; context: BrowserContext; page: Page };
type Figures = { cold: number; warm: number[]; keys: number[]; follow: number[] };

const PASSWORD = 'a long enough password';

/** A browser context signed in: the first through the password link, the others with that password. */
async function signIn(
  browser: Browser,
  url: string,
  label: string,
  how: { link: string } | { email: string },
): Promise<Build> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  if ('link' in how) {
    await page.goto(how.link);
    await page.getByLabel('New password', { exact: false }).first().fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
  } else {
    await page.goto(`${url}/sign-in`);
    await page.getByLabel('E-mail').fill(how.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { name: 'Contacts' }).waitFor();
  return { label, url, context, page };
}

/**
 * Navigation start to the frame with every step drawn: the 100 boxes in the page and visible (React
 * Flow hides a box until it measured it) and the edges between them drawn (they wait for the boxes).
 */
async function open(build: Build, flowUuid: string): Promise<number> {
  await build.page.goto(`${build.url}/flows/${flowUuid}`);
  await build.page
    .waitForFunction(
      () => {
        if (document.querySelectorAll('[aria-label^="Step "]').length < 100) return false;
        const boxes = Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node'));
        return (
          boxes.every((box) => box.style.visibility !== 'hidden') &&
          document.querySelectorAll('.react-flow__edge').length >= 100
        );
      },
      undefined,
      { timeout: 60_000, polling: 'raf' },
    )
    .catch(async (error) => {
      throw new Error(
        `${build.label}: ${error}; the page says ${await build.page.locator('body').textContent()}`,
      );
    });
  return build.page.evaluate(
    () => new Promise<number>((done) => requestAnimationFrame(() => done(performance.now()))),
  );
}

/** What the last load waited on: scripts and API calls, start and end since navigation. */
async function waterfall(page: Page): Promise<string> {
  const entries = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => ({ name: e.name, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd }))
      .filter((e) => /\/api\/|\.js$/.test(e.name)),
  );
  return entries
    .map(
      (e) => `${new URL(e.name).pathname.replace(/^.*\//, '')} ${Math.round(e.start)}-${Math.round(e.end)}`,
    )
    .join(', ');
}

/** Opens step 3's panel and types: quick keys (panel only), then slow keys (each reaches the graph). */
async function typeInPanel(page: Page): Promise<{ keys: number[]; follow: number[] }> {
  // The step may lie outside the fitted view of 100 steps: a keyboard user's Enter opens it as well.
  await page.getByRole('button', { name: 'Step 3: LinkedIn message', exact: true }).focus();
  await page.keyboard.press('Enter');
  const text = page
    .getByRole('region', { name: 'Step 3: LinkedIn message' })
    .getByRole('textbox', { name: 'Text' });
  await text.click();
  await page.keyboard.press('End');
  await page.evaluate(KEY_PROBE);
  await page.keyboard.type(' see you at the conference next week', { delay: 60 });
  await page.waitForTimeout(400);
  const keys = (await page.evaluate('window.__keys')) as number[];
  await page.evaluate(`window.__typed = ${JSON.stringify(((await text.textContent()) ?? '').trim())}`);
  await page.evaluate(FOLLOW_PROBE);
  await page.keyboard.type('abcdefghijkl', { delay: 450 });
  await page.waitForTimeout(600);
  const follow = (await page.evaluate('window.__follow')) as number[];
  return { keys, follow };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export const builderScenario: Scenario = {
  name: 'builder',
  description:
    'flow builder with 100 steps: open (goal < 1 s) and keystroke render in the side panel (goal < 50 ms)',
  async run(server, log) {
    const deps = await server.newDatabase('builder');
    const { app, url } = await listen(deps);
    const baselineDir = process.env.BENCH_BUILDER_BASELINE_WEB;
    const before = baselineDir ? await listen(deps, undefined, path.resolve(baselineDir)) : null;
    const profileDir = process.env.BENCH_BUILDER_PROFILE;
    const { services, handle } = deps;
    const email = `bench-web-${Date.now()}@example.test`;
    const owner = await services.identity.createUserWithTeam({ email, teamName: 'Bench web' });
    const sender = await makeSender(handle.db, owner.team_id);
    // Through the API, as the builder saves: the flow, then its 100-step version.
    const call = async (url: string, payload: object) => {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${owner.api_key}` },
        payload,
      });
      if (res.statusCode >= 300) throw new Error(`${url} -> ${res.statusCode}: ${res.body}`);
      return res.json() as { uuid: string };
    };
    const flow = await call('/flows/api/flows', { name: 'Hundred steps', schedule: defaultSchedule('UTC') });
    await call(`/flows/api/flows/${flow.uuid}/flow-versions`, {
      nodes: buildNodes(hundredNodes()),
      contact_sources: [
        { id: 1, name: null, rotation_strategy: 'fair', sender_profiles: [sender.uuid], after_id: 1 },
      ],
    });
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
    });
    const rows: BenchRow[] = [];
    try {
      const builds: Build[] = [];
      for (const [label, base] of [
        ['this build', url],
        ...(before ? [['baseline build', before.url]] : []),
      ]) {
        const link = builds.length === 0 ? await services.accounts.issuePasswordLink(email) : null;
        builds.push(
          await signIn(
            browser,
            base!,
            label!,
            link ? { link: link.url.replace(deps.config.publicUrl, base!) } : { email },
          ),
        );
      }
      const figures = new Map<Build, Figures>();
      for (const build of builds)
        figures.set(build, { cold: await open(build, flow.uuid), warm: [], keys: [], follow: [] });
      // Reloads alternate between the builds, so both see the same load.
      for (let i = 0; i < 5; i += 1) {
        for (const build of builds) figures.get(build)!.warm.push(await open(build, flow.uuid));
      }
      const current = builds[0]!;
      log(`  waterfall of a reload: ${await waterfall(current.page)}`);
      if (profileDir) {
        mkdirSync(profileDir, { recursive: true });
        const profile = await startProfile(current.page);
        await open(current, flow.uuid);
        const file = path.join(profileDir, 'builder-reload.cpuprofile');
        const result = await profile.stop();
        writeFileSync(file, JSON.stringify(result.profile));
        log(`  reload: ${result.phases}; profile ${file}: ${profileTop(file)}`);
      }
      for (const build of builds) {
        const profile = profileDir && build === current ? await startProfile(build.page) : null;
        Object.assign(figures.get(build)!, await typeInPanel(build.page));
        if (profile) {
          const file = path.join(profileDir!, 'builder-typing.cpuprofile');
          const result = await profile.stop();
          writeFileSync(file, JSON.stringify(result.profile));
          log(`  typing: ${result.phases}; profile ${file}: ${profileTop(file)}`);
        }
      }

      // The floor: the same probe on a bare input in the same browser.
      const page = current.page;
      await page.setContent('<input aria-label="bare">');
      await page.evaluate(KEY_PROBE);
      await page.getByLabel('bare').click();
      await page.keyboard.type(' see you at the conference next week', { delay: 60 });
      await page.waitForTimeout(300);
      const bare = (await page.evaluate('window.__keys')) as number[];
      for (const build of builds) {
        const f = figures.get(build)!;
        log(
          `  ${build.label}: open cold ${Math.round(f.cold)} ms, reloads ${f.warm.map(Math.round).join(', ')} ms; ` +
            `keystroke p50 ${median(f.keys).toFixed(1)} / p95 ${percentile(f.keys, 95).toFixed(1)} ms; ` +
            `graph follows p50 ${median(f.follow).toFixed(1)} / p95 ${percentile(f.follow, 95).toFixed(1)} ms`,
        );
      }
      log(`  bare input: p50 ${median(bare).toFixed(1)} ms, p95 ${percentile(bare, 95).toFixed(1)} ms`);

      const now = figures.get(current)!;
      const then = before ? figures.get(builds[1]!)! : undefined;
      const row = (metric: string, value: number, baseline: number | undefined, goal?: number): BenchRow => ({
        scenario: 'builder',
        metric,
        value: round(value),
        unit: 'ms',
        ...(baseline !== undefined ? { baseline: round(baseline) } : {}),
        ...(goal !== undefined ? { goal: `< ${goal} ms`, pass: value < goal } : {}),
      });
      const vs = then ? ' (baseline: the other build)' : '';
      rows.push(
        row(`builder opens 100 steps, first visit${vs}`, now.cold, then?.cold),
        row(
          `builder opens 100 steps, reload (median of 5)${vs}`,
          median(now.warm),
          then && median(then.warm),
          1000,
        ),
        row(
          `keystroke in the side panel to next frame, p95${then ? vs : ' (baseline: bare input)'}`,
          percentile(now.keys, 95),
          then ? percentile(then.keys, 95) : percentile(bare, 95),
          50,
        ),
        row(
          `keystroke in the side panel to next frame, p50${then ? vs : ' (baseline: bare input)'}`,
          median(now.keys),
          then ? median(then.keys) : median(bare),
        ),
        row(
          `graph follows the panel after the pause, p95${vs}`,
          percentile(now.follow, 95),
          then && percentile(then.follow, 95),
        ),
        row(
          `graph follows the panel after the pause, p50${vs}`,
          median(now.follow),
          then && median(then.follow),
        ),
      );
    } finally {
      await browser.close();
      await app.close();
      await before?.app.close();
    }
    return rows;
  },
};
