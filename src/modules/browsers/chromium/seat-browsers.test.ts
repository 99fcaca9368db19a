import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import { secretBoxOf } from '../../../deps.js';
import { loadSession } from '../seat-session.js';
import { createSeatBrowsers, type SeatBrowsers, SeatBusyError, seatProfileDir } from './seat-browsers.js';
import { guardLoopback } from './test-guard.js';

const CHROMIUM = hasPrograms('the seat browser tests', ['chromium']);

describe('seat browsers', { skip: !CHROMIUM, timeout: 120_000 }, () => {
  let ctx: TestContext;
  let server: http.Server;
  let base: string;
  let browsers: SeatBrowsers;
  let dataDir: string;
  const guard = guardLoopback();
  const seenHeaders: http.IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    server = http.createServer((req, res) => {
      seenHeaders.push(req.headers);
      if (req.url === '/set')
        res.setHeader('set-cookie', 'li_at=secret-token; Path=/; Max-Age=3600; HttpOnly');
      res.setHeader('content-type', 'text/html');
      res.end(`<p id="cookie">${req.headers.cookie ?? ''}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'leadflow-seats-'));
    browsers = createSeatBrowsers({
      config: {
        dataDir,
        linkedin: { ...ctx.config.linkedin, maxOpenBrowsers: 2, browserIdleMs: 60_000 },
      },
      db: ctx.db,
      secretBox: secretBoxOf(ctx.config),
      onContext: guard.install,
    });
  });
  afterAll(async () => {
    await browsers?.closeAll();
    server?.closeAllConnections();
    server?.close();
    await ctx?.close();
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
    guard.assertNothingLeft();
  });

  async function seat() {
    const user = await ctx.createUser();
    const sender = await makeSender(ctx.db, user.teamId);
    const row = await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'chromium',
        status: 'stopped',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { teamId: user.teamId, seatId: row.id };
  }

  it('shows no automation marker: no HeadlessChrome in the user agent or client hints, webdriver false', async () => {
    const { teamId, seatId } = await seat();
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ proxy_country_code: 'DE' })
      .where('id', '=', seatId)
      .execute();
    const { page } = await browsers.open(teamId, seatId);
    await page.goto(`${base}/probe`);
    const probe = await page.evaluate(() => {
      const nav = navigator as Navigator & { userAgentData?: { brands: Array<{ brand: string }> } };
      return {
        ua: nav.userAgent,
        webdriver: nav.webdriver,
        brands: (nav.userAgentData?.brands ?? []).map((b) => b.brand),
        plugins: nav.plugins.length,
        chrome: typeof (window as unknown as { chrome?: unknown }).chrome,
        language: nav.language,
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      };
    });
    const sent = seenHeaders.at(-1)!;
    expect(probe.ua).toMatch(/ Chrome\/\d+\.0\.0\.0 /);
    expect(`${probe.ua} ${probe.brands.join(' ')} ${sent['user-agent']} ${sent['sec-ch-ua']}`).not.toMatch(
      /headless/i,
    );
    expect(probe.webdriver).toBe(false);
    expect(probe.brands).toContain('Chromium');
    expect(probe.plugins).toBeGreaterThan(0);
    expect(probe.chrome).toBe('object');
    // The proxy's country (DE) decides the locale and time zone.
    expect(probe).toMatchObject({ language: 'de-DE', zone: 'Europe/Berlin' });
    await browsers.close(teamId, seatId);
  });

  it('keeps the session sealed in the row across a restart and wipes the profile when closed', async () => {
    const { teamId, seatId } = await seat();
    const { page } = await browsers.open(teamId, seatId);
    await page.goto(`${base}/set`);
    expect(fs.existsSync(seatProfileDir(dataDir, teamId, seatId))).toBe(true);
    await browsers.close(teamId, seatId);
    expect(fs.existsSync(seatProfileDir(dataDir, teamId, seatId))).toBe(false);
    const raw = await ctx.db
      .selectFrom('linkedin_browsers')
      .select('session_sealed')
      .where('id', '=', seatId)
      .executeTakeFirstOrThrow();
    expect(raw.session_sealed).not.toContain('secret-token');
    const stored = await loadSession(ctx.db, secretBoxOf(ctx.config), teamId, seatId);
    expect(stored?.session?.cookies.map((c) => c.name)).toContain('li_at');

    const again = await browsers.open(teamId, seatId);
    await again.page.goto(`${base}/read`);
    expect(await again.page.textContent('#cookie')).toBe('li_at=secret-token');
    await browsers.release(teamId, seatId);
  });

  it('never opens more than the cap: the least recently used idle browser closes (saving its session)', async () => {
    const a = await seat();
    const b = await seat();
    const c = await seat();
    const pageA = (await browsers.open(a.teamId, a.seatId)).page;
    await pageA.goto(`${base}/set`);
    await browsers.open(b.teamId, b.seatId);
    await browsers.open(c.teamId, c.seatId);
    const open = browsers.openSeats().map((s) => s.seatId);
    expect(open).toHaveLength(2);
    expect(open).not.toContain(a.seatId);
    const stored = await loadSession(ctx.db, secretBoxOf(ctx.config), a.teamId, a.seatId);
    expect(stored?.session?.cookies.map((cookie) => cookie.name)).toContain('li_at');
    await browsers.closeAll();
    expect(browsers.openSeats()).toEqual([]);
  });

  it('restarts a browser whose stored session changed meanwhile (a login from another process)', async () => {
    const { teamId, seatId } = await seat();
    const first = await browsers.open(teamId, seatId);
    await ctx.db
      .updateTable('linkedin_browsers')
      .set((eb) => ({ session_version: eb('session_version', '+', 1) }))
      .where('id', '=', seatId)
      .execute();
    const second = await browsers.open(teamId, seatId);
    expect(second.context).not.toBe(first.context);
    // While the live view holds it, automation is refused (and the browser is not restarted).
    const held = await browsers.acquire(teamId, seatId);
    await expect(browsers.use(teamId, seatId, async () => 'ran')).rejects.toBeInstanceOf(SeatBusyError);
    held.release();
    expect(await browsers.use(teamId, seatId, async () => 'ran')).toBe('ran');
    expect((await browsers.open(teamId, seatId)).context).toBe(second.context);
    // The live view waits for an action in progress before it takes the browser.
    let finished = false;
    const action = browsers.use(teamId, seatId, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
    });
    const viewer = await browsers.acquire(teamId, seatId);
    expect(finished).toBe(true);
    await action;
    viewer.release();
    await browsers.release(teamId, seatId);
  });
});
