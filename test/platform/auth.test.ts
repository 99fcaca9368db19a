import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ config: { authCacheTtlMs: 200 } });
  alice = await ctx.createUser('Alice');
  bob = await ctx.createUser('Bob');
});
afterAll(() => ctx.close());

const current = (headers: Record<string, string>) =>
  ctx.request(null, { method: 'GET', url: '/id/api/users/current', headers });

describe('authentication', () => {
  it('requires a bearer key on every API route', async () => {
    for (const url of ['/id/api/users/current', '/id/api/teams', '/leads/api/lists', '/nope/api/anything']) {
      const res = await ctx.request(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ error: { reason: 'auth_exception' }, code: 401 });
    }
  });

  it('rejects malformed and unknown keys', async () => {
    expect((await current({ authorization: 'Basic abc' })).statusCode).toBe(401);
    expect((await current({ authorization: 'Bearer' })).statusCode).toBe(401);
    expect((await current({ authorization: 'Bearer lf_not-a-real-key-0000000000' })).statusCode).toBe(401);
    expect((await current({ authorization: `bearer ${alice.apiKey}` })).statusCode).toBe(200);
  });

  it('leaves docs, health and metrics open', async () => {
    for (const url of ['/healthz', '/openapi.json', '/metrics']) {
      expect((await ctx.request(null, { method: 'GET', url })).statusCode, url).toBe(200);
    }
  });
});

describe('Team-ID header', () => {
  it('defaults to the first team and switches to another team the user belongs to', async () => {
    const second = await ctx.services.identity.createUserWithTeam({
      email: alice.email,
      teamName: 'Alice second',
    });
    // Memberships are cached with the key for authCacheTtlMs.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const lists = async (teamHeader?: string) =>
      ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/lists',
        payload: { name: `in ${teamHeader ?? 'default'}` },
        headers: teamHeader ? { 'team-id': teamHeader } : {},
      });
    expect((await lists()).json().team_id).toBe(alice.teamId);
    expect((await lists(String(second.team_id))).json().team_id).toBe(second.team_id);
    const inSecond = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: { 'Team-ID': String(second.team_id) },
    });
    expect(inSecond.json().data.map((l: { name: string }) => l.name)).toEqual([`in ${second.team_id}`]);
  });

  it('answers 403 for a team the user is not a member of and 400 for a non-integer', async () => {
    const forbidden = await ctx.request(alice, {
      method: 'GET',
      url: '/id/api/teams',
      headers: { 'team-id': String(bob.teamId) },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.reason).toBe('access_denied');
    const bad = await ctx.request(alice, {
      method: 'GET',
      url: '/id/api/teams',
      headers: { 'team-id': 'abc' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      reason: 'bad_request',
      data: { 'Team-ID': ['must be an integer'] },
    });
  });

  it('lets an added member act in the other team', async () => {
    await ctx.services.identity.addMember(bob.email, alice.teamId);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const res = await ctx.request(bob, { method: 'GET', url: `/id/api/teams/${alice.teamId}` });
    expect(res.statusCode).toBe(200);
    const scoped = await ctx.request(bob, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: { 'team-id': String(alice.teamId) },
    });
    expect(scoped.statusCode).toBe(200);
  });
});

describe('revocation', () => {
  it('takes effect within the auth cache lifetime', async () => {
    const { api_key, id } = await ctx.services.identity.createApiKeyForEmail(alice.email);
    expect((await current({ authorization: `Bearer ${api_key}` })).statusCode).toBe(200);
    await ctx.services.identity.revokeApiKeyById(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await current({ authorization: `Bearer ${api_key}` })).statusCode).toBe(401);
  });
});
