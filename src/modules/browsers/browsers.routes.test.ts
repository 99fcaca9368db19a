import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { hashAccessKey } from './access-keys.js';
import { chromiumStartProblem } from './chromium/chromium-probe.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
/** Where Chromium cannot start, browser seats say so instead of stopped (browsers.start-issues.test.ts). */
let chromiumHere = false;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LEADFLOW_PUBLIC_URL: 'https://leadflow.example.test/' } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  chromiumHere = (await chromiumStartProblem(ctx.config.linkedin.chromiumPath)) === undefined;
});
afterAll(() => ctx.close());

const base = '/browsers/api/linkedin-browsers';

async function createSeat(user: TestUser, body: Record<string, unknown> = {}) {
  const sender = await makeSender(ctx.db, user.teamId);
  const res = await ctx.request(user, {
    method: 'POST',
    url: base,
    payload: { sender_profile_uuid: sender.uuid, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { seat: res.json(), sender };
}

describe('seats', () => {
  it('creates a chromium seat stopped with the facts object, the proxy password never shown', async () => {
    const { seat, sender } = await createSeat(alice, {
      name: 'Anna',
      proxy_country_code: 'de',
      custom_proxy_config: {
        type: 'http',
        host: 'proxy.example.test',
        port: 8080,
        username: 'anna',
        password: 'pw-1',
      },
    });
    expect(seat).toMatchObject({
      team_id: alice.teamId,
      sender_profile_uuid: sender.uuid,
      driver: 'chromium',
      status: chromiumHere ? 'stopped' : 'start_issue',
      linkedin_account_uuid: null,
      name: 'Anna',
      shared_emails: [],
      proxy_country_code: 'DE',
      custom_proxy_config: [
        { type: 'http', host: 'proxy.example.test', port: 8080, username: 'anna', has_password: true },
      ],
      linkedin_login: null,
      linkedin_password: null,
      browser_owner: 'customer',
      user_id: alice.userId,
    });
    expect(seat.schedule).toMatchObject({ timezone: 'UTC' });
    expect(seat.external_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(seat)).not.toContain('pw-1');
    const row = await ctx.db
      .selectFrom('linkedin_browsers')
      .selectAll()
      .where('id', '=', seat.id)
      .executeTakeFirstOrThrow();
    expect(row.proxy_password_sealed).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain('pw-1');
    const senderRow = await ctx.db
      .selectFrom('sender_profiles')
      .select('linkedin_browser_id')
      .where('uuid', '=', sender.uuid)
      .executeTakeFirstOrThrow();
    expect(senderRow.linkedin_browser_id).toBe(seat.id);
  });

  it('refuses what it cannot use, naming the field', async () => {
    const sender = await makeSender(ctx.db, alice.teamId);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'sender_profile_uuid'],
      [{ sender_profile_uuid: '0190a5f2-6c1e-7a3b-9c2d-1e2f3a4b5c6d' }, 'sender_profile_uuid'],
      [{ sender_profile_uuid: sender.uuid, driver: 'firefox' }, 'driver'],
      [{ sender_profile_uuid: sender.uuid, proxy_country_code: 'Germany' }, 'proxy_country_code'],
      [
        { sender_profile_uuid: sender.uuid, custom_proxy_config: { type: 'ftp', host: 'x', port: 1 } },
        'custom_proxy_config',
      ],
      [
        { sender_profile_uuid: sender.uuid, custom_proxy_config: { type: 'http', host: 'x', port: 70000 } },
        'custom_proxy_config',
      ],
      [
        {
          sender_profile_uuid: sender.uuid,
          custom_proxy_config: { type: 'socks5', host: 'x', port: 1080, username: 'u', password: 'p' },
        },
        'custom_proxy_config.username',
      ],
      [{ sender_profile_uuid: sender.uuid, linkedin_password: 'x' }, 'linkedin_password'],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.request(alice, { method: 'POST', url: base, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().error.data).join(','), JSON.stringify(payload)).toContain(field);
    }
    const first = await ctx.request(alice, {
      method: 'POST',
      url: base,
      payload: { sender_profile_uuid: sender.uuid },
    });
    expect(first.statusCode).toBe(201);
    const second = await ctx.request(alice, {
      method: 'POST',
      url: base,
      payload: { sender_profile_uuid: sender.uuid },
    });
    expect(second.statusCode).toBe(409);
  });

  it('lists ascending by default, updates, sets the proxy and shares with members only', async () => {
    const { seat } = await createSeat(alice, { name: 'Listed' });
    const list = await ctx.request(alice, { method: 'POST', url: `${base}/list`, payload: { limit: 100 } });
    const ids = list.json().data.map((s: { id: number }) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toContain(seat.id);

    const updated = await ctx.request(alice, {
      method: 'PUT',
      url: `${base}/${seat.id}`,
      payload: { name: 'Renamed' },
    });
    expect(updated.json()).toMatchObject({
      name: 'Renamed',
      status: chromiumHere ? 'stopped' : 'start_issue',
    });

    const proxied = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/set-proxy`,
      payload: {
        proxy_country_code: 'US',
        custom_proxy_config: [{ type: 'socks5', host: '93.184.215.14', port: 1080 }],
      },
    });
    expect(proxied.statusCode, proxied.body).toBe(200);
    expect(proxied.json()).toMatchObject({
      proxy_country_code: 'US',
      custom_proxy_config: [
        { type: 'socks5', host: '93.184.215.14', port: 1080, username: null, has_password: false },
      ],
    });
    const cleared = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/set-proxy`,
      payload: { custom_proxy_config: null },
    });
    expect(cleared.json()).toMatchObject({ proxy_country_code: 'US', custom_proxy_config: [] });
    const empty = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/set-proxy`,
      payload: {},
    });
    expect(empty.statusCode).toBe(422);

    const shared = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/share`,
      payload: { recipients: [alice.email.toUpperCase()] },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().shared_emails).toEqual([alice.email]);
    const stranger = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/share`,
      payload: { recipients: [alice.email, bob.email] },
    });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().error.data).toHaveProperty(['recipients[1]']);
    const none = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/share`,
      payload: { recipients: [] },
    });
    expect(none.statusCode).toBe(422);
  });

  it('sets the invitation-note policy; counts notes of the last 30 days; refuses bad values by field', async () => {
    const { seat } = await createSeat(alice);
    expect(seat.invitations).toEqual({
      premium: false,
      note_quota: 'fail',
      free_notes_per_month: 5,
      note_max_chars: 200,
      notes_sent_30_days: 0,
      notes_left: 5,
      note_quota_refused_at: null,
    });
    const day = 86_400_000;
    const now = Date.now();
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ notes_sent_at: [new Date(now - 40 * day), new Date(now - 2 * day), new Date(now - day)] })
      .where('id', '=', seat.id)
      .execute();
    const put = (payload: Record<string, unknown>) =>
      ctx.request(alice, { method: 'PUT', url: `${base}/${seat.id}`, payload });
    const free = await put({ invitations: { note_quota: 'send_without_note', free_notes_per_month: 3 } });
    expect(free.statusCode, free.body).toBe(200);
    expect(free.json().invitations).toMatchObject({
      premium: false,
      note_quota: 'send_without_note',
      notes_sent_30_days: 2,
      notes_left: 1,
    });
    const premium = await put({ invitations: { premium: true } });
    expect(premium.json().invitations).toMatchObject({
      premium: true,
      note_quota: 'send_without_note',
      note_max_chars: 300,
      notes_left: null,
    });
    for (const [invitations, field] of [
      [{ note_quota: 'truncate' }, 'invitations.note_quota'],
      [{ free_notes_per_month: 101 }, 'invitations.free_notes_per_month'],
      [{ premium: 'yes' }, 'invitations.premium'],
      [{ note_max_chars: 300 }, 'invitations.note_max_chars'],
    ] as const) {
      const res = await put({ invitations });
      expect(res.statusCode, JSON.stringify(invitations)).toBe(422);
      expect(Object.keys(res.json().error.data).join(','), JSON.stringify(invitations)).toContain(field);
    }
  });

  it('runs a never-logged-in browser seat into login_issue, a sandbox seat at once; stop stops', async () => {
    const { seat } = await createSeat(alice);
    const run = await ctx.request(alice, { method: 'POST', url: `${base}/${seat.id}/run` });
    expect(run.statusCode).toBe(204);
    const after = (await ctx.request(alice, { method: 'GET', url: `${base}/${seat.id}` })).json();
    expect(after).toMatchObject(
      chromiumHere
        ? { status: 'login_issue', error_reason: expect.stringMatching(/never been logged in/) }
        : { status: 'start_issue', error_reason: expect.stringMatching(/LEADFLOW_CHROMIUM_PATH/) },
    );

    const { seat: sandbox } = await createSeat(alice, { driver: 'sandbox' });
    expect(sandbox.status).toBe('running');
    expect((await ctx.request(alice, { method: 'POST', url: `${base}/${sandbox.id}/stop` })).statusCode).toBe(
      204,
    );
    expect((await ctx.request(alice, { method: 'GET', url: `${base}/${sandbox.id}` })).json().status).toBe(
      'stopped',
    );
    await ctx.request(alice, { method: 'POST', url: `${base}/${sandbox.id}/run` });
    expect((await ctx.request(alice, { method: 'GET', url: `${base}/${sandbox.id}` })).json().status).toBe(
      'running',
    );
  });

  it('generates a public login key stored as a hash only; a new key replaces the old', async () => {
    const { seat } = await createSeat(alice);
    const first = await ctx.request(alice, {
      method: 'POST',
      url: `${base}/${seat.id}/generate-external-access-key`,
    });
    expect(first.statusCode).toBe(200);
    const key = first.json().external_access_key as string;
    expect(key).toMatch(/^lb_ak_[A-Za-z0-9_-]{43}$/);
    expect(first.json().cloud_browser_url).toBe(`https://leadflow.example.test/cloud-browser/public/${key}`);
    const expires = new Date(first.json().expires_at).getTime();
    expect(expires - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const row = await ctx.db
      .selectFrom('linkedin_browsers')
      .selectAll()
      .where('id', '=', seat.id)
      .executeTakeFirstOrThrow();
    expect(row.access_key_hash).toBe(hashAccessKey(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const second = (
      await ctx.request(alice, { method: 'POST', url: `${base}/${seat.id}/generate-external-access-key` })
    ).json();
    expect(second.external_access_key).not.toBe(key);
    const again = await ctx.db
      .selectFrom('linkedin_browsers')
      .select('access_key_hash')
      .where('id', '=', seat.id)
      .executeTakeFirstOrThrow();
    expect(again.access_key_hash).toBe(hashAccessKey(second.external_access_key));
    const shown = (await ctx.request(alice, { method: 'GET', url: `${base}/${seat.id}` })).json();
    expect(shown).not.toHaveProperty('external_access_key');
    expect(shown.external_access_key_expires_at).toBe(second.expires_at);
  });

  it('asks for a selector health check and shows its result and the action types it paused', async () => {
    const { seat } = await createSeat(alice);
    expect(seat.selector_health).toEqual({
      checked_at: null,
      requested_at: null,
      missed: [],
      error: null,
      paused_actions: [],
    });
    const asked = await ctx.request(alice, { method: 'POST', url: `${base}/${seat.id}/health-check` });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(Date.parse(asked.json().selector_health.requested_at)).toBeGreaterThan(Date.now() - 60_000);
    // What a health round leaves (seat-health.ts; the tour itself: chromium-health.test.ts).
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({
        health: JSON.stringify({ missed: ['profile.topCard', 'profile.topCard'], steps: [] }),
        health_checked_at: new Date('2026-05-01T10:00:00Z'),
        action_breakers: JSON.stringify({
          linkedin_visit_profile: {
            misses: 0,
            open_since: '2026-05-01T10:00:00.000Z',
            reason: 'no top card',
          },
          linkedin_like_latest_post: { misses: 1, open_since: null, reason: null },
        }),
      })
      .where('id', '=', seat.id)
      .execute();
    const shown = (await ctx.request(alice, { method: 'GET', url: `${base}/${seat.id}` })).json();
    expect(shown.selector_health).toMatchObject({
      checked_at: '2026-05-01T10:00:00.000Z',
      missed: ['profile.topCard'],
      paused_actions: [
        { type: 'linkedin_visit_profile', since: '2026-05-01T10:00:00.000Z', reason: 'no top card' },
      ],
    });
    const { seat: sandbox } = await createSeat(alice, { driver: 'sandbox' });
    const refused = await ctx.request(alice, { method: 'POST', url: `${base}/${sandbox.id}/health-check` });
    expect(refused.statusCode).toBe(422);
  });

  it('deletes: 204, gone, the sender loses it; other teams see nothing', async () => {
    const { seat, sender } = await createSeat(alice);
    for (const [method, url, payload] of [
      ['GET', `${base}/${seat.id}`, undefined],
      ['PUT', `${base}/${seat.id}`, { name: 'x' }],
      ['DELETE', `${base}/${seat.id}`, undefined],
      ['POST', `${base}/${seat.id}/run`, undefined],
      ['POST', `${base}/${seat.id}/stop`, undefined],
      ['POST', `${base}/${seat.id}/set-proxy`, { proxy_country_code: 'FR' }],
      ['POST', `${base}/${seat.id}/share`, { recipients: [bob.email] }],
      ['POST', `${base}/${seat.id}/generate-external-access-key`, undefined],
      ['POST', `${base}/${seat.id}/health-check`, undefined],
    ] as const) {
      const res = await ctx.request(bob, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await ctx.request(bob, { method: 'POST', url: `${base}/list`, payload: {} })).json().data,
    ).toEqual([]);

    expect((await ctx.request(alice, { method: 'DELETE', url: `${base}/${seat.id}` })).statusCode).toBe(204);
    expect((await ctx.request(alice, { method: 'GET', url: `${base}/${seat.id}` })).statusCode).toBe(404);
    const senderRow = await ctx.db
      .selectFrom('sender_profiles')
      .select('linkedin_browser_id')
      .where('uuid', '=', sender.uuid)
      .executeTakeFirstOrThrow();
    expect(senderRow.linkedin_browser_id).toBeNull();
  });
});
