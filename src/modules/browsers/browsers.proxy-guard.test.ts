// A seat's proxy is where the user points its browser's connections, so the outbound guard checks it:
// a loopback, private, link-local or metadata proxy host is a 422 naming custom_proxy_config.host on
// create, update and set-proxy (LEADFLOW_OUTBOUND_* open private ones), and a stored one the guard now
// refuses stops the browser from starting with the reason on the seat. Chromium is handed the checked
// address, not the name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { secretBoxOf } from '../../deps.js';
import { outboundGuard } from '../../lib/net/outbound.js';
import { chromiumStartProblem } from './chromium/chromium-probe.js';
import { createSeatBrowsers } from './chromium/seat-browsers.js';
import { browserProxy } from './seat-proxy.js';

const base = '/browsers/api/linkedin-browsers';
const proxy = (host: string) => ({ type: 'http', host, port: 3128 });

async function createSeat(ctx: TestContext, user: TestUser, body: Record<string, unknown>) {
  const sender = await makeSender(ctx.db, user.teamId);
  return ctx.request(user, {
    method: 'POST',
    url: base,
    payload: { sender_profile_uuid: sender.uuid, driver: 'sandbox', ...body },
  });
}

describe('seat proxies without private targets allowed', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext();
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it.each([
    ['127.0.0.1', 'is a loopback address'],
    ['localhost', 'localhost resolves to'],
    ['10.20.30.40', 'is a private address'],
    ['169.254.169.254', 'link-local'],
    ['metadata.google.internal', 'is a cloud metadata host'],
  ])('refuses %s on create, update and set-proxy', async (host, reason) => {
    const created = await createSeat(ctx, user, { custom_proxy_config: proxy(host) });
    expect(created.statusCode).toBe(422);
    const message = created.json().error.data['custom_proxy_config.host'][0] as string;
    expect(message).toContain(reason);
    expect(message).toContain('proxies may only reach public addresses');

    const seat = await createSeat(ctx, user, {});
    expect(seat.statusCode).toBe(201);
    const id = seat.json().id;
    const updated = await ctx.request(user, {
      method: 'PUT',
      url: `${base}/${id}`,
      payload: { custom_proxy_config: [proxy(host)] },
    });
    expect(updated.statusCode).toBe(422);
    expect(updated.json().error.data).toHaveProperty(['custom_proxy_config.host']);
    const set = await ctx.request(user, {
      method: 'POST',
      url: `${base}/${id}/set-proxy`,
      payload: { custom_proxy_config: proxy(host) },
    });
    expect(set.statusCode).toBe(422);
    const stored = await ctx.db
      .selectFrom('linkedin_browsers')
      .select('custom_proxy_config')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.custom_proxy_config).toEqual([]);
  });

  it('hands Chromium the checked address of a proxy (an https proxy keeps its name for its certificate)', async () => {
    const guard = outboundGuard({ allowPrivate: true });
    const box = secretBoxOf(ctx.config);
    const row = (type: 'http' | 'https' | 'socks5', host: string) => ({
      custom_proxy_config: [{ type, host, port: 8080, username: null }],
      proxy_password_sealed: null,
    });
    expect(await browserProxy(row('http', 'localhost'), box, guard)).toMatchObject({
      server: expect.stringMatching(/^http:\/\/(127\.0\.0\.1|\[::1\]):8080$/),
    });
    expect(await browserProxy(row('socks5', '10.0.0.1'), box, guard)).toEqual({
      server: 'socks5://10.0.0.1:8080',
    });
    expect(await browserProxy(row('https', 'localhost'), box, guard)).toEqual({
      server: 'https://localhost:8080',
    });
    await expect(
      browserProxy(row('http', '127.0.0.1'), box, outboundGuard({ allowPrivate: false })),
    ).rejects.toThrow('loopback');
  });

  it('does not start a browser through a proxy refused since it was stored: the seat shows why', async ({
    skip,
  }) => {
    // The Chromium check comes first; without Chromium the seat shows that reason instead.
    if (await chromiumStartProblem(ctx.config.linkedin.chromiumPath)) skip();
    const sender = await makeSender(ctx.db, user.teamId);
    const seat = await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'chromium',
        status: 'running',
        custom_proxy_config: JSON.stringify([
          { type: 'http', host: '127.0.0.1', port: 3128, username: null },
        ]),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const browsers = createSeatBrowsers({
      config: { linkedin: ctx.config.linkedin },
      db: ctx.db,
      secretBox: secretBoxOf(ctx.config),
    });
    try {
      await expect(browsers.open(user.teamId, seat.id)).rejects.toThrow("The seat's proxy is refused");
      const after = await ctx.db
        .selectFrom('linkedin_browsers')
        .select(['status', 'error_reason'])
        .where('id', '=', seat.id)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe('start_issue');
      expect(after.error_reason).toContain('127.0.0.1 is a loopback address');
      expect(browsers.openSeats()).toEqual([]);
    } finally {
      await browsers.closeAll();
    }
  });
});

describe('seat proxies with LEADFLOW_OUTBOUND_ALLOW_PRIVATE=true', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { LEADFLOW_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('takes a proxy on this machine or the private network; link-local stays closed', async () => {
    for (const host of ['127.0.0.1', '10.20.30.40', 'localhost']) {
      const res = await createSeat(ctx, user, { custom_proxy_config: proxy(host) });
      expect(res.statusCode, host).toBe(201);
      expect(res.json().custom_proxy_config[0].host).toBe(host);
    }
    const metadata = await createSeat(ctx, user, { custom_proxy_config: proxy('169.254.169.254') });
    expect(metadata.statusCode).toBe(422);
    expect(metadata.json().message).toContain('unless LEADFLOW_OUTBOUND_ALLOWLIST names them');
  });
});
