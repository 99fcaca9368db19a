import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';

let ctx: TestContext;
let owner: TestUser;
const PASSWORD = 'correct horse battery';

type Browser = { cookie: string; csrf: string };

/** Redeems a password link the way the web application does; answers the session's cookie and token. */
async function setPassword(email: string, password = PASSWORD): Promise<Browser> {
  const link = await ctx.services.accounts.issuePasswordLink(email);
  const token = new URL(link.url).hash.replace('#token=', '');
  const res = await ctx.request(null, {
    method: 'POST',
    url: '/id/api/password-links/redeem',
    payload: { token, password },
  });
  expect(res.statusCode).toBe(201);
  const cookie = res.cookies.find((c) => c.name === 'lf_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  return { cookie: `lf_session=${cookie?.value}`, csrf: res.json().csrf_token };
}

async function signIn(email: string, password = PASSWORD) {
  return ctx.request(null, { method: 'POST', url: '/id/api/sessions', payload: { email, password } });
}

function as(browser: Browser, withCsrf = true) {
  return { cookie: browser.cookie, ...(withCsrf ? { 'x-csrf-token': browser.csrf } : {}) };
}

beforeAll(async () => {
  ctx = await createTestContext({ env: { LEADFLOW_SIGN_IN_ATTEMPTS_PER_MINUTE: '8' } });
  owner = await ctx.createUser('Owner team');
});
afterAll(() => ctx.close());

describe('sign-in and sessions', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await setPassword(owner.email);
  });

  it('a password link works once and signs in', async () => {
    const link = await ctx.services.accounts.issuePasswordLink(owner.email);
    const token = new URL(link.url).hash.replace('#token=', '');
    expect(link.url).toMatch(/\/welcome#token=/);
    const payload = { token, password: PASSWORD };
    const first = await ctx.request(null, { method: 'POST', url: '/id/api/password-links/redeem', payload });
    expect(first.statusCode).toBe(201);
    const again = await ctx.request(null, { method: 'POST', url: '/id/api/password-links/redeem', payload });
    expect(again.statusCode).toBe(404);
    browser = { cookie: `lf_session=${first.cookies[0]?.value}`, csrf: first.json().csrf_token };
  });

  it('answers one generic 401 for an unknown e-mail and a wrong password', async () => {
    const unknown = await signIn('nobody@example.test');
    const wrong = await signIn(owner.email, 'not the password');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json().message).toBe(wrong.json().message);
    expect(wrong.cookies).toHaveLength(0);
  });

  it('signs in and reads the session with the cookie, never an API key', async () => {
    const res = await signIn(owner.email.toUpperCase());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      user: { id: owner.userId, email: owner.email },
      teams: [{ id: owner.teamId, name: 'Owner team', role: 'owner' }],
    });
    expect(JSON.stringify(res.json())).not.toMatch(/lf_[A-Za-z0-9_-]{20}/);
    const current = await ctx.request(null, {
      method: 'GET',
      url: '/id/api/sessions/current',
      headers: as(browser, false),
    });
    expect(current.statusCode).toBe(200);
    expect(current.json().csrf_token).toBe(browser.csrf);
    const withKey = await ctx.request(owner, { method: 'GET', url: '/id/api/sessions/current' });
    expect(withKey.statusCode).toBe(404);
  });

  it('reads with the cookie alone and writes only with the CSRF token', async () => {
    const read = await ctx.request(null, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: as(browser, false),
    });
    expect(read.statusCode).toBe(200);
    const payload = { name: 'From the browser' };
    const noToken = await ctx.request(null, {
      method: 'POST',
      url: '/leads/api/lists',
      payload,
      headers: as(browser, false),
    });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().message).toMatch(/x-csrf-token/);
    const badToken = await ctx.request(null, {
      method: 'POST',
      url: '/leads/api/lists',
      payload,
      headers: { ...as(browser), 'x-csrf-token': `${browser.csrf.slice(0, -2)}xx` },
    });
    expect(badToken.statusCode).toBe(403);
    const ok = await ctx.request(null, {
      method: 'POST',
      url: '/leads/api/lists',
      payload,
      headers: as(browser),
    });
    expect(ok.statusCode).toBe(201);
    // An API key wins over a stray cookie and needs no CSRF token.
    const keyed = await ctx.request(owner, {
      method: 'POST',
      url: '/leads/api/lists',
      payload: { name: 'From a script' },
      headers: { cookie: browser.cookie },
    });
    expect(keyed.statusCode).toBe(201);
  });

  it('signs out one session, then every session', async () => {
    const second = await signIn(owner.email);
    const other: Browser = {
      cookie: `lf_session=${second.cookies[0]?.value}`,
      csrf: second.json().csrf_token,
    };
    const out = await ctx.request(null, {
      method: 'DELETE',
      url: '/id/api/sessions/current',
      headers: as(other),
    });
    expect(out.statusCode).toBe(204);
    const after = await ctx.request(null, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: as(other, false),
    });
    expect(after.statusCode).toBe(401);

    const third = await signIn(owner.email);
    const everywhere = await ctx.request(null, {
      method: 'POST',
      url: '/id/api/sessions/sign-out-everywhere',
      headers: as(browser),
    });
    expect(everywhere.statusCode).toBe(200);
    expect(everywhere.json().ended).toBeGreaterThanOrEqual(2);
    for (const cookie of [browser.cookie, `lf_session=${third.cookies[0]?.value}`]) {
      const res = await ctx.request(null, { method: 'GET', url: '/leads/api/lists', headers: { cookie } });
      expect(res.statusCode).toBe(401);
    }
    // API keys keep working.
    expect((await ctx.request(owner, { method: 'GET', url: '/leads/api/lists' })).statusCode).toBe(200);
  });

  it('refuses a short password naming the field', async () => {
    const link = await ctx.services.accounts.issuePasswordLink(owner.email);
    const token = new URL(link.url).hash.replace('#token=', '');
    const res = await ctx.request(null, {
      method: 'POST',
      url: '/id/api/password-links/redeem',
      payload: { token, password: 'short' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.data)).toEqual(['password']);
  });
});

describe('members, invites and roles', () => {
  let ownerBrowser: Browser;
  let memberBrowser: Browser;
  let memberId: number;

  beforeAll(async () => {
    ownerBrowser = await setPassword(owner.email);
  });

  it('an owner invites; the link is shown once and makes a new member', async () => {
    const created = await ctx.request(null, {
      method: 'POST',
      url: `/id/api/teams/${owner.teamId}/invites`,
      payload: { email: 'rep@example.test', role: 'member' },
      headers: as(ownerBrowser),
    });
    expect(created.statusCode).toBe(201);
    const token = new URL(created.json().invite_url).hash.replace('#token=', '');
    const listed = await ctx.request(owner, { method: 'GET', url: `/id/api/teams/${owner.teamId}/invites` });
    expect(listed.json().data).toHaveLength(1);
    expect(JSON.stringify(listed.json())).not.toContain(token);

    const info = await ctx.request(null, {
      method: 'POST',
      url: '/id/api/invites/lookup',
      payload: { token },
    });
    expect(info.json()).toEqual({
      team_name: 'Owner team',
      email: 'rep@example.test',
      role: 'member',
      has_account: false,
    });
    const accepted = await ctx.request(null, {
      method: 'POST',
      url: '/id/api/invites/accept',
      payload: { token, password: PASSWORD, first_name: 'Rep' },
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().teams).toEqual([{ id: owner.teamId, name: 'Owner team', role: 'member' }]);
    memberId = accepted.json().user.id;
    memberBrowser = { cookie: `lf_session=${accepted.cookies[0]?.value}`, csrf: accepted.json().csrf_token };
    const reused = await ctx.request(null, {
      method: 'POST',
      url: '/id/api/invites/lookup',
      payload: { token },
    });
    expect(reused.statusCode).toBe(404);

    const members = await ctx.request(null, {
      method: 'GET',
      url: `/id/api/teams/${owner.teamId}/members`,
      headers: as(memberBrowser, false),
    });
    expect(members.json().data.map((m: { role: string }) => m.role)).toEqual(['owner', 'member']);
  });

  it('a member works in the team but manages no keys, webhooks or members', async () => {
    const contact = await ctx.request(null, {
      method: 'POST',
      url: '/leads/api/lists',
      payload: { name: 'A member list' },
      headers: as(memberBrowser),
    });
    expect(contact.statusCode).toBe(201);
    const refused = [
      { method: 'POST', url: '/id/api/jwt-tokens/create-api-key', payload: { name: 'mine' } },
      {
        method: 'POST',
        url: '/integrations/api/webhooks',
        payload: { name: 'w', event: 'contact_created', target_url: 'https://example.com/hook' },
      },
      { method: 'POST', url: `/id/api/teams/${owner.teamId}/invites`, payload: { email: 'x@example.test' } },
      { method: 'DELETE', url: `/id/api/teams/${owner.teamId}/members/${owner.userId}` },
      { method: 'PUT', url: `/id/api/teams/${owner.teamId}`, payload: { name: 'Mine now' } },
    ] as const;
    for (const request of refused) {
      const res = await ctx.request(null, { ...request, headers: as(memberBrowser) });
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
    }
  });

  it('an owner renames the team, removes the member, and the last owner stays', async () => {
    const renamed = await ctx.request(null, {
      method: 'PUT',
      url: `/id/api/teams/${owner.teamId}`,
      payload: { name: 'Renamed', timezone: 'Europe/Berlin' },
      headers: as(ownerBrowser),
    });
    expect(renamed.statusCode).toBe(204);
    const badZone = await ctx.request(owner, {
      method: 'PUT',
      url: `/id/api/teams/${owner.teamId}`,
      payload: { timezone: 'Mars/Olympus' },
    });
    expect(badZone.statusCode).toBe(422);
    const lastOwner = await ctx.request(owner, {
      method: 'DELETE',
      url: `/id/api/teams/${owner.teamId}/members/${owner.userId}`,
    });
    expect(lastOwner.statusCode).toBe(422);
    const removed = await ctx.request(null, {
      method: 'DELETE',
      url: `/id/api/teams/${owner.teamId}/members/${memberId}`,
      headers: as(ownerBrowser),
    });
    expect(removed.statusCode).toBe(204);
    const after = await ctx.request(null, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: { ...as(memberBrowser, false), 'team-id': String(owner.teamId) },
    });
    expect(after.statusCode).toBe(403);
  });

  it('another team\u2019s members and invites answer 404', async () => {
    const other = await ctx.createUser('Other team');
    const res = await ctx.request(other, { method: 'GET', url: `/id/api/teams/${owner.teamId}/members` });
    expect(res.statusCode).toBe(404);
    const invites = await ctx.request(other, { method: 'GET', url: `/id/api/teams/${owner.teamId}/invites` });
    expect(invites.statusCode).toBe(404);
  });
});

describe('rate limit of public routes', () => {
  it('refuses sign-in attempts past the limit per address with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn('nobody@example.test', 'guess')).statusCode);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(8);
  });
});
