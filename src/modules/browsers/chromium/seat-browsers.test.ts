import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import { secretBoxOf } from '../../../deps.js';
import { outboundGuard } from '../../../lib/net/outbound.js';
import { loadSession } from '../seat-session.js';
import { createSeatBrowsers, type SeatBrowsers, SeatBusyError } from './seat-browsers.js';
import { guardLoopback } from './test-guard.js';

const CHROMIUM = hasPrograms('the seat browser tests', ['chromium']);

describe('seat browsers', { skip: !CHROMIUM, timeout: 120_000 }, () => {
  let ctx: TestContext;
  let server: http.Server;
  let base: string;
  let browsers: SeatBrowsers;
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
    browsers = createSeatBrowsers({
      config: {
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
    guard.assertNothingLeft();
  });

  async function seat(columns: { custom_proxy_config?: string; proxy_password_sealed?: string } = {}) {
    const user = await ctx.createUser();
    const sender = await makeSender(ctx.db, user.teamId);
    const row = await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'chromium',
        status: 'stopped',
        ...columns,
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

  it('keeps the session sealed in the row across a restart', async () => {
    const { teamId, seatId } = await seat();
    const { page } = await browsers.open(teamId, seatId);
    await page.goto(`${base}/set`);
    await browsers.close(teamId, seatId);
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

  it('puts seats side by side in one Chromium process, each with its own cookies, storage and proxy', async () => {
    // Two proxies on this machine, each answering as the site itself and noting what reached it; the
    // second one asks for credentials. Requests to *.test go to them only (nothing leaves loopback).
    const seen: Record<'a' | 'b', Array<{ url: string; cookie: string; auth: string }>> = { a: [], b: [] };
    const proxies = (['a', 'b'] as const).map((name) =>
      http.createServer((req, res) => {
        if (name === 'b' && !req.headers['proxy-authorization']) {
          res.writeHead(407, { 'proxy-authenticate': 'Basic realm="seats"' });
          return res.end();
        }
        seen[name].push({
          url: req.url ?? '',
          cookie: req.headers.cookie ?? '',
          auth: req.headers['proxy-authorization'] ?? '',
        });
        if (req.url?.endsWith('/set'))
          res.setHeader('set-cookie', `li_at=token-${name}; Path=/; Max-Age=3600; HttpOnly`);
        res.setHeader('content-type', 'text/html');
        res.end(`<p id="cookie">${req.headers.cookie ?? ''}</p>`);
      }),
    );
    const ports: number[] = [];
    for (const proxy of proxies) {
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      ports.push((proxy.address() as AddressInfo).port);
    }
    const box = secretBoxOf(ctx.config);
    const shared = createSeatBrowsers({
      config: { linkedin: { ...ctx.config.linkedin, maxOpenBrowsers: 3, seatsPerBrowserProcess: 2 } },
      db: ctx.db,
      secretBox: box,
      proxyGuard: outboundGuard({ allowPrivate: true, subject: 'proxies' }),
      pageIdleMs: 500,
    });
    const proxied = (port: number, username: string | null) =>
      JSON.stringify([{ type: 'http', host: '127.0.0.1', port, username }]);
    try {
      const a = await seat({ custom_proxy_config: proxied(ports[0]!, null) });
      const b = await seat({
        custom_proxy_config: proxied(ports[1]!, 'seat-b'),
        proxy_password_sealed: box.seal('secret-b'),
      });
      const c = await seat();
      const visit = (s: { teamId: number; seatId: number }, url: string) =>
        shared.use(s.teamId, s.seatId, async ({ page }) => {
          await page.goto(url);
          await page.evaluate(() => localStorage.setItem('mine', `${localStorage.getItem('mine') ?? ''}x`));
          return {
            cookie: await page.textContent('#cookie'),
            storage: await page.evaluate(() => localStorage.getItem('mine')),
          };
        });
      await visit(a, 'http://seats.test/set');
      expect(await visit(a, 'http://seats.test/read')).toEqual({ cookie: 'li_at=token-a', storage: 'xx' });
      // Same site, same process: seat b sees none of a's cookies or storage, and goes through its own proxy.
      expect(await visit(b, 'http://seats.test/read')).toEqual({ cookie: '', storage: 'x' });
      expect(shared.processCount()).toBe(1);
      const pages = (name: 'a' | 'b') => seen[name].filter((r) => !r.url.endsWith('/favicon.ico'));
      expect(pages('a').map((r) => r.url)).toEqual(['http://seats.test/set', 'http://seats.test/read']);
      expect(pages('b').map((r) => r.url)).toEqual(['http://seats.test/read']);
      expect(seen.b[0]!.auth).toBe(`Basic ${Buffer.from('seat-b:secret-b').toString('base64')}`);
      expect(seen.a.every((r) => r.auth === '')).toBe(true);
      // A third seat finds no room in that process (2 per process): a second one starts.
      await shared.use(c.teamId, c.seatId, async ({ page }) => page.goto(`${base}/read`));
      expect(shared.processCount()).toBe(2);

      // Idle, a seat's page closes (its renderer goes); the next use opens a page in the same context:
      // same cookies, same storage.
      const idlePage = (await shared.open(a.teamId, a.seatId)).page;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(idlePage.isClosed()).toBe(true);
      expect(await visit(a, 'http://seats.test/read')).toEqual({ cookie: 'li_at=token-a', storage: 'xxx' });

      // The last seat of a process leaving ends the process.
      await shared.release(c.teamId, c.seatId);
      expect(shared.processCount()).toBe(1);
    } finally {
      await shared.closeAll();
      for (const proxy of proxies) {
        proxy.closeAllConnections();
        proxy.close();
      }
    }
    expect(shared.processCount()).toBe(0);
  });
});
