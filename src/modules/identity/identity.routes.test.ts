import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { MAX_ACTIVE_API_KEYS } from './identity.service.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
});
afterAll(() => ctx.close());

describe('GET /id/api/users/current', () => {
  it('returns the key owner', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/id/api/users/current' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: alice.userId, email: alice.email, timezone: 'UTC' });
    expect(body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
  });
});

describe('GET /id/api/teams', () => {
  it('lists only the caller\u2019s teams in the envelope', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/id/api/teams' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ limit: 20, offset: 0, total: 1, has_more: false });
    expect(res.json().data.map((t: { id: number }) => t.id)).toEqual([alice.teamId]);
    expect(res.json().data[0]).toMatchObject({
      name: 'Alice team',
      status: 'active',
      credits: { advanced_enrichment: 0 },
    });
  });

  it('pages through several teams', async () => {
    const carol = await ctx.createUser('Carol 1');
    for (const n of [2, 3]) {
      const { team_id } = await ctx.services.identity.createUserWithTeam({
        email: carol.email,
        teamName: `Carol ${n}`,
        existingUser: true,
      });
      expect(team_id).toBeGreaterThan(0);
    }
    const page = await ctx.request(carol, {
      method: 'GET',
      url: '/id/api/teams?limit=2&offset=0&order_type=asc',
    });
    expect(page.json()).toMatchObject({ limit: 2, offset: 0, total: 3, has_more: true });
    expect(page.json().data.map((t: { name: string }) => t.name)).toEqual(['Carol 1', 'Carol 2']);
    const last = await ctx.request(carol, {
      method: 'GET',
      url: '/id/api/teams?limit=2&offset=2&order_type=asc',
    });
    expect(last.json()).toMatchObject({ total: 3, has_more: false });
    expect(last.json().data.map((t: { name: string }) => t.name)).toEqual(['Carol 3']);
  });
});

describe('GET /id/api/teams/:id', () => {
  it('returns a team the caller belongs to', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: `/id/api/teams/${alice.teamId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: alice.teamId, user_id: alice.userId });
  });

  it('answers 404 for another team and for a team that does not exist', async () => {
    for (const id of [bob.teamId, 999999]) {
      const res = await ctx.request(alice, { method: 'GET', url: `/id/api/teams/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.reason).toBe('not_found');
    }
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists it without the secret, and revokes it', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/id/api/jwt-tokens/create-api-key',
      payload: { name: 'zapier' },
    });
    expect(created.statusCode).toBe(200);
    const { last_token: secret, id } = created.json();
    expect(secret).toMatch(/^lf_/);
    const asNewKey = { ...alice, headers: { authorization: `Bearer ${secret}` } };
    expect((await ctx.request(asNewKey, { method: 'GET', url: '/id/api/users/current' })).statusCode).toBe(
      200,
    );

    const list = await ctx.request(alice, { method: 'GET', url: '/id/api/api-keys' });
    const listed = list.json().data.find((k: { id: number }) => k.id === id);
    expect(listed).toMatchObject({ name: 'zapier', key_prefix: secret.slice(0, 8), revoked_at: null });
    expect(JSON.stringify(list.json())).not.toContain(secret);

    const revoked = await ctx.request(alice, { method: 'DELETE', url: `/id/api/api-keys/${id}` });
    expect(revoked.statusCode).toBe(204);
    // Bob cannot revoke Alice's keys.
    expect((await ctx.request(bob, { method: 'DELETE', url: `/id/api/api-keys/${id}` })).statusCode).toBe(
      404,
    );
  });

  it('lists keys in the list envelope, newest first, with paging', async () => {
    const carol = await ctx.createUser('Carol keys');
    for (const name of ['one', 'two']) {
      await ctx.request(carol, {
        method: 'POST',
        url: '/id/api/jwt-tokens/create-api-key',
        payload: { name },
      });
    }
    const page = await ctx.request(carol, { method: 'GET', url: '/id/api/api-keys?limit=2' });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ limit: 2, offset: 0, total: 3, has_more: true });
    expect(page.json().data.map((k: { name: string }) => k.name)).toEqual(['two', 'one']);
    const byName = await ctx.request(carol, {
      method: 'GET',
      url: '/id/api/api-keys?order_field=name&order_type=asc&offset=1',
    });
    expect(byName.json().data.map((k: { name: string }) => k.name)).toEqual(['one', 'two']);
    const bad = await ctx.request(carol, { method: 'GET', url: '/id/api/api-keys?order_field=key_hash' });
    expect(bad.statusCode).toBe(422);
  });

  it('caps the active keys a user can create, and counts revoked ones out', async () => {
    const dave = await ctx.createUser('Dave keys');
    // The user has one key; add active ones directly up to the cap.
    await ctx.database.pool.query(
      `insert into api_keys (user_id, name, key_hash, key_prefix)
       select $1, 'filler ' || n, md5(random()::text || n), 'lf_fill' from generate_series(2, $2) n`,
      [dave.userId, MAX_ACTIVE_API_KEYS],
    );
    const create = () =>
      ctx.request(dave, {
        method: 'POST',
        url: '/id/api/jwt-tokens/create-api-key',
        payload: { name: 'more' },
      });
    const refused = await create();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`the most a user may hold (${MAX_ACTIVE_API_KEYS})`);
    const list = await ctx.request(dave, {
      method: 'GET',
      url: '/id/api/api-keys?order_field=id&order_type=desc&limit=1',
    });
    expect(list.json().total).toBe(MAX_ACTIVE_API_KEYS);
    const last = list.json().data[0].id;
    expect((await ctx.request(dave, { method: 'DELETE', url: `/id/api/api-keys/${last}` })).statusCode).toBe(
      204,
    );
    expect((await create()).statusCode).toBe(200);
  });

  it('stops accepting a revoked key at once', async () => {
    const { api_key, id } = await ctx.services.identity.createApiKeyForEmail(alice.email, 'short-lived');
    const user = { ...alice, headers: { authorization: `Bearer ${api_key}` } };
    expect((await ctx.request(user, { method: 'GET', url: '/id/api/users/current' })).statusCode).toBe(200);
    await ctx.services.identity.revokeApiKeyById(id);
    const res = await ctx.request(user, { method: 'GET', url: '/id/api/users/current' });
    expect(res.statusCode).toBe(401);
  });
});
