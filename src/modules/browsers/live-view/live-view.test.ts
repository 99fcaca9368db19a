/// <reference lib="dom" />
// The public login link end to end: the app and the LinkedIn replica on loopback, a chromium seat, its
// login link opened by a second Chromium (the account owner) that watches the live view, clicks and
// types the credentials, pastes the 2FA code, and sees the seat turn running. Plus the refusals: unknown,
// revoked and expired keys, a second viewer, navigation off LinkedIn, extra tabs.
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import { seatBrowsersOf } from '../../../deps.js';
import { systemClock } from '../../../lib/clock.js';
import { type SeatBrowsers, SeatBusyError } from '../chromium/seat-browsers.js';
import { guardLoopback } from '../chromium/test-guard.js';

const CHROMIUM = hasPrograms('the login link tests', ['chromium']);

describe('the public login link', { skip: !CHROMIUM, timeout: 120_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let user: TestUser;
  let origin: string;
  let dataDir: string;
  let pool: SeatBrowsers;
  let viewer: Browser;
  const seatGuard = guardLoopback();
  const viewerGuard = guardLoopback();

  beforeAll(async () => {
    replica = await startReplica();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-live-view-'));
    ctx = await createTestContext({
      env: { LEADFLOW_LINKEDIN_URL: replica.url, LEADFLOW_DATA_DIR: dataDir },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    user = await ctx.createUser();
    // The app's own pool of seat browsers (shared per database handle).
    pool = seatBrowsersOf({ db: ctx.db, config: ctx.config, clock: systemClock });
    viewer = await chromium.launch({
      executablePath: ctx.config.linkedin.chromiumPath,
      headless: true,
      args: ['--disable-dev-shm-usage', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await viewer?.close();
    await pool?.closeAll();
    await ctx?.close();
    await replica?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    seatGuard.assertNothingLeft();
    viewerGuard.assertNothingLeft();
  });

  async function createSeat() {
    const sender = await makeSender(ctx.db, user.teamId);
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/browsers/api/linkedin-browsers',
      payload: { sender_profile_uuid: sender.uuid, driver: 'chromium' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  }

  async function loginLink(seatId: number) {
    const res = await ctx.request(user, {
      method: 'POST',
      url: `/browsers/api/linkedin-browsers/${seatId}/generate-external-access-key`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { external_access_key: string; cloud_browser_url: string };
    expect(body.cloud_browser_url.endsWith(`/cloud-browser/public/${body.external_access_key}`)).toBe(true);
    // The configured public URL is not this test's port: same path, our origin.
    return `${origin}${new URL(body.cloud_browser_url).pathname}`;
  }

  const seatRow = (seatId: number) =>
    ctx.db
      .selectFrom('linkedin_browsers')
      .select(['status', 'linkedin_account_uuid', 'viewer_lease_until', 'session_sealed'])
      .where('id', '=', seatId)
      .executeTakeFirstOrThrow();

  async function viewerPage(): Promise<Page> {
    const context = await viewer.newContext({ viewport: { width: 1400, height: 1000 } });
    await viewerGuard.install(context);
    return context.newPage();
  }

  /** Where an element of the seat's page shows inside the live view image of the viewer. */
  async function clickInView(view: Page, seatPage: Page, selector: string) {
    const target = await seatPage.locator(selector).boundingBox();
    const image = await view.locator('#screen').boundingBox();
    if (!target || !image) throw new Error(`${selector} is not visible`);
    const scale = image.width / 1280;
    await view.mouse.click(
      image.x + (target.x + target.width / 2) * scale,
      image.y + (target.y + target.height / 2) * scale,
    );
  }

  it('shows the seat browser live; the owner types credentials and the 2FA code, and the seat runs', async () => {
    const seat = await createSeat();
    const url = await loginLink(seat.id);
    // Open the seat's browser first, so this test's loopback guard watches it too.
    const { page: seatPage, context: seatContext } = await pool.open(user.teamId, seat.id);
    await seatGuard.install(seatContext);

    const view = await viewerPage();
    const fetched: string[] = [];
    view.on('request', (request) => fetched.push(request.url()));
    const page = await view.goto(url);
    expect(page?.status()).toBe(200);
    expect(page?.headers()['content-security-policy']).toContain("default-src 'none'");
    await view.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    await waitFor(async () => (await view.getAttribute('#screen', 'src'))?.startsWith('data:image/jpeg'));
    expect(new URL(seatPage.url()).pathname).toBe('/login');
    // Everything the page loads comes from Leadflow itself (frames arrive as data: URLs).
    expect(fetched.filter((u) => !u.startsWith('data:')).every((u) => u.startsWith(origin))).toBe(true);

    // While someone watches: the lease is set and automation is refused.
    expect((await seatRow(seat.id)).viewer_lease_until).not.toBeNull();
    await expect(pool.use(user.teamId, seat.id, async () => 'ran')).rejects.toBeInstanceOf(SeatBusyError);

    // A second viewer is refused with a clear message.
    const second = await viewerPage();
    expect((await second.goto(url))?.status()).toBe(200);
    await second.waitForSelector('body[data-state="error"]');
    expect(await second.textContent('#status')).toMatch(/someone else/i);
    await second.context().close();

    // Off LinkedIn: the navigation is blocked; extra tabs are closed.
    await seatPage.evaluate(() => {
      window.location.href = 'http://localhost:9/elsewhere';
    });
    await view.waitForFunction(() => /only linkedin/i.test(document.getElementById('status')!.textContent!));
    expect(new URL(seatPage.url()).pathname).toBe('/login');
    await seatPage.evaluate((target) => window.open(target), `${replica.url}/login`);
    await waitFor(async () => seatContext.pages().length === 1);

    // The owner signs in through the live view.
    await clickInView(view, seatPage, '#username');
    await view.keyboard.type('owner@replica.test');
    await clickInView(view, seatPage, '#password');
    await view.keyboard.type('correct horse');
    await view.keyboard.press('Enter');
    await seatPage.waitForSelector('#input__email_verification_pin', { timeout: 15_000 });
    await clickInView(view, seatPage, '#input__email_verification_pin');
    // The 2FA code arrives by paste (the clipboard event of the viewer's page).
    await view.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', '123456');
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await waitFor(async () => (await seatPage.inputValue('#input__email_verification_pin')) === '123456');
    await view.keyboard.press('Enter');

    await view.waitForSelector('body[data-state="established"]', { timeout: 20_000 });
    expect(await view.textContent('#status')).toMatch(/signed in/i);
    const res = await ctx.request(user, { method: 'GET', url: `/browsers/api/linkedin-browsers/${seat.id}` });
    const shown = res.json() as { status: string; linkedin_account_uuid: string | null };
    expect(shown.status).toBe('running');
    expect(shown.linkedin_account_uuid).toMatch(/^[0-9a-f-]{36}$/);
    const row = await seatRow(seat.id);
    expect(row.viewer_lease_until).toBeNull();
    expect(row.session_sealed).not.toBeNull();
    expect(row.session_sealed).not.toContain('li_at');
    // The login is the replica's: the account really signed in, and automation may use the seat again.
    expect(Object.values(replica.state.sessions)).toContain('sam-sender');
    expect(await pool.use(user.teamId, seat.id, async () => 'ran')).toBe('ran');
    await view.context().close();
  });

  it('a session on a post-login step (add a phone) or an unknown signed-in page counts: the visit never stalls', async () => {
    for (const [path, kind] of [
      ['/check/add-phone?country_code=de', 'interstitial'],
      ['/welcome/new-experience/', 'an unknown page with the signed-in navigation, after a grace'],
    ] as const) {
      const seat = await createSeat();
      const url = await loginLink(seat.id);
      const { page: seatPage, context: seatContext } = await pool.open(user.teamId, seat.id);
      await seatGuard.install(seatContext);
      const view = await viewerPage();
      await view.goto(url);
      await view.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
      // What the person's login ends on (the password and 2FA steps are the first test's).
      await seatContext.addCookies(replica.sessionOf(replica.signIn('sam-sender')).cookies);
      await seatPage.goto(`${replica.url}${path}`);
      await view.waitForSelector('body[data-state="established"]', { timeout: 20_000 });
      expect((await seatRow(seat.id)).status, kind).toBe('running');
      await view.context().close();
    }
  });

  it('refuses unknown, revoked and expired keys, on the page and on its socket', async () => {
    const seat = await createSeat();
    const first = await loginLink(seat.id);
    const current = await loginLink(seat.id);
    const get = (url: string) => ctx.request(null, { method: 'GET', url: new URL(url).pathname });

    expect((await get(`${origin}/cloud-browser/public/not-a-key`)).statusCode).toBe(404);
    expect((await get(`${origin}/cloud-browser/public/lb_ak_${'A'.repeat(43)}`)).statusCode).toBe(404);
    const revoked = await get(first);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.body).toMatch(/not valid/i);
    expect((await get(current)).statusCode).toBe(200);

    // The socket checks the key itself (the page is not needed to reach it).
    const closeCode = (page: Page, wsUrl: string) =>
      page.evaluate(
        (target) =>
          new Promise<number>((resolve) => {
            const socket = new WebSocket(target);
            socket.onclose = (event) => resolve(event.code);
          }),
        wsUrl,
      );
    const socketOf = (url: string) => `${url.replace('http:', 'ws:')}/ws`;
    const view = await viewerPage();
    await view.goto(current);
    await view.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    expect(await closeCode(view, socketOf(first))).toBe(4404);

    // A new key ends the visit of the old link (at the next lease renewal) and frees the seat.
    const newest = await loginLink(seat.id);
    await view.waitForSelector('body[data-state="error"]', { timeout: 15_000 });
    expect(await view.textContent('#status')).toMatch(/replaced/i);
    await waitFor(async () => (await seatRow(seat.id)).viewer_lease_until === null);
    await view.context().close();

    // Stopping the seat closes its browser: the viewer is told and the lease is freed.
    const again = await viewerPage();
    await again.goto(newest);
    await again.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
    const stopped = await ctx.request(user, {
      method: 'POST',
      url: `/browsers/api/linkedin-browsers/${seat.id}/stop`,
    });
    expect(stopped.statusCode).toBe(204);
    await again.waitForSelector('body[data-state="error"]');
    expect(await again.textContent('#status')).toMatch(/browser closed/i);
    await waitFor(async () => (await seatRow(seat.id)).viewer_lease_until === null);

    // An expired key: 410 on the page, 4410 on the socket.
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ access_key_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', seat.id)
      .execute();
    const expired = await get(newest);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toMatch(/expired/i);
    expect(await closeCode(again, socketOf(newest))).toBe(4410);
    await again.context().close();
    await pool.release(user.teamId, seat.id);
  });
});
