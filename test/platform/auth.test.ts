import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../../src/http/openapi-components.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  // A cache lifetime far longer than any wait below: only change notifications can explain a change
  // being seen.
  ctx = await createTestContext({ config: { authCacheTtlMs: 60_000 } });
  alice = await ctx.createUser('Alice');
  bob = await ctx.createUser('Bob');
});
afterAll(() => ctx.close());

const current = (headers: Record<string, string>) =>
  ctx.request(null, { method: 'GET', url: '/id/api/users/current', headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** SQL on a connection of its own, as another process (`leadflow admin`, a second API) would run it. */
async function elsewhere(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe('authentication', () => {
  it('requires a bearer key on every API route', async () => {
    for (const url of ['/id/api/users/current', '/id/api/teams', '/leads/api/lists']) {
      const res = await ctx.request(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ error: { reason: 'auth_exception' }, code: 401 });
    }
    // The public route table says what exists; an unknown path is a 404 whoever asks.
    expect((await ctx.request(null, { method: 'GET', url: '/nope/api/anything' })).statusCode).toBe(404);
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
  const teams = (user: TestUser, teamHeader: string) =>
    ctx.request(user, { method: 'GET', url: '/id/api/teams', headers: { 'team-id': teamHeader } });

  it('defaults to the first team (also when empty) and switches to another team of the user', async () => {
    const second = await ctx.services.identity.createUserWithTeam({
      email: alice.email,
      teamName: 'Alice second',
      existingUser: true,
    });
    const lists = async (teamHeader?: string) =>
      ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/lists',
        payload: { name: `in ${teamHeader ?? 'default'}` },
        headers: teamHeader !== undefined ? { 'team-id': teamHeader } : {},
      });
    expect((await lists()).json().team_id).toBe(alice.teamId);
    expect((await lists('')).json().team_id).toBe(alice.teamId);
    expect((await lists(' ')).json().team_id).toBe(alice.teamId);
    expect((await lists(String(second.team_id))).json().team_id).toBe(second.team_id);
    const inSecond = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: { 'Team-ID': String(second.team_id) },
    });
    expect(inSecond.json().data.map((l: { name: string }) => l.name)).toEqual([`in ${second.team_id}`]);
  });

  it('answers 403 for a team the user is not a member of', async () => {
    const forbidden = await teams(alice, String(bob.teamId));
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.reason).toBe('access_denied');
    // Digits are read exactly: a huge id is named as sent, never as 1e+23.
    const huge = await teams(alice, '100000000000000000000000'.slice(0, 19));
    expect(huge.statusCode).toBe(403);
    expect(huge.json().error.message).toBe('You are not a member of team 1000000000000000000.');
  });

  it.each([['abc'], ['-1'], ['0'], ['1.5'], ['1e3'], ['+3'], ['1, 2']])(
    'answers 400 "must be a positive integer team id" for %j',
    async (value) => {
      const res = await teams(alice, value);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        reason: 'bad_request',
        data: { 'Team-ID': ['must be a positive integer team id'] },
      });
      expect(res.json().error.message).toContain(`(got "${value}")`);
    },
  );

  it('is documented on every API operation: a positive integer, absent or empty for the default team', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    const operation = document.paths['/leads/api/lists'].get;
    const header = operation.parameters.find(
      (p: { in: string; name: string }) => p.in === 'header' && p.name === 'Team-ID',
    );
    expect(header.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 9007199254740991 });
    expect(header.schema.description ?? header.description).toContain('Absent or empty: your default team');
  });

  it('refuses ids beyond the bigint range and prints them as sent', async () => {
    const value = '100000000000000000000000';
    const res = await teams(alice, value);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.data['Team-ID']).toEqual([
      'must be a positive integer team id no larger than 9223372036854775807',
    ]);
    expect(res.json().error.message).toContain(`(got "${value}")`);
    expect(res.body).not.toContain('e+');
  });
});

describe('auth changes apply at once', () => {
  it('refuses a key revoked through the API on its next request', async () => {
    const { api_key, id } = await ctx.services.identity.createApiKeyForEmail(alice.email);
    const headers = bearer(api_key);
    expect((await current(headers)).statusCode).toBe(200);
    const revoked = await ctx.request(alice, { method: 'DELETE', url: `/id/api/api-keys/${id}` });
    expect(revoked.statusCode).toBe(204);
    expect((await current(headers)).statusCode).toBe(401);
  });

  it('hears a revocation committed by another connection within a second', async () => {
    const { api_key, id } = await ctx.services.identity.createApiKeyForEmail(alice.email);
    const headers = bearer(api_key);
    expect((await current(headers)).statusCode).toBe(200);
    expect(ctx.services.identity.authCache.live).toBe(true);
    const started = Date.now();
    await elsewhere('update api_keys set revoked_at = now() where id = $1', [id]);
    await waitFor(async () => (await current(headers)).statusCode === 401, 1_000, 10);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('ends a browser session deleted by another connection within a second, and at once on sign-out', async () => {
    const signedIn = async () => {
      const link = await ctx.services.accounts.issuePasswordLink(alice.email);
      const res = await ctx.request(null, {
        method: 'POST',
        url: '/id/api/password-links/redeem',
        payload: { token: new URL(link.url).hash.replace('#token=', ''), password: 'a long enough password' },
      });
      expect(res.statusCode).toBe(201);
      return {
        cookie: `lf_session=${res.cookies.find((c) => c.name === 'lf_session')?.value}`,
        'x-csrf-token': res.json().csrf_token as string,
      };
    };
    const session = await signedIn();
    expect((await current(session)).statusCode).toBe(200);
    // Cached now (the cache lifetime is a minute): only the trigger's notification can end it.
    const started = Date.now();
    await elsewhere('delete from user_sessions where user_id = $1', [alice.userId]);
    await waitFor(async () => (await current(session)).statusCode === 401, 1_000, 10);
    expect(Date.now() - started).toBeLessThan(1_000);

    const next = await signedIn();
    expect((await current(next)).statusCode).toBe(200);
    const out = await ctx.request(null, { method: 'DELETE', url: '/id/api/sessions/current', headers: next });
    expect(out.statusCode).toBe(204);
    expect((await current(next)).statusCode).toBe(401);
  });

  it('shows a membership added elsewhere to every key of the user at once', async () => {
    const dave = await ctx.createUser('Dave');
    const second = await ctx.services.identity.createApiKeyForEmail(dave.email);
    const keys = [dave.headers, bearer(second.api_key)];
    const inAlicesTeam = (headers: Record<string, string>) =>
      ctx.request(null, {
        method: 'GET',
        url: '/leads/api/lists',
        headers: { ...headers, 'team-id': String(alice.teamId) },
      });
    // Both keys are cached with the old memberships.
    for (const headers of keys) expect((await inAlicesTeam(headers)).statusCode).toBe(403);
    await elsewhere(`insert into team_members (team_id, user_id, role) values ($1, $2, 'member')`, [
      alice.teamId,
      dave.userId,
    ]);
    await waitFor(async () => (await inAlicesTeam(keys[0]!)).statusCode === 200, 1_000, 10);
    // The other key agrees immediately: the change dropped every key of that user.
    expect((await inAlicesTeam(keys[1]!)).statusCode).toBe(200);
  });

  it('lets an added member act in the other team on the next request', async () => {
    await ctx.services.identity.addMember(bob.email, alice.teamId);
    const res = await ctx.request(bob, { method: 'GET', url: `/id/api/teams/${alice.teamId}` });
    expect(res.statusCode).toBe(200);
    const scoped = await ctx.request(bob, {
      method: 'GET',
      url: '/leads/api/lists',
      headers: { 'team-id': String(alice.teamId) },
    });
    expect(scoped.statusCode).toBe(200);
  });

  it('refuses unknown roles', async () => {
    await expect(ctx.services.identity.addMember(bob.email, alice.teamId, 'superuser')).rejects.toThrow(
      'role must be one of owner, member (got "superuser")',
    );
  });

  it('keeps nothing while the LISTEN connection is lost, and starts from nothing when it is back', async () => {
    const { api_key, id } = await ctx.services.identity.createApiKeyForEmail(alice.email);
    const headers = bearer(api_key);
    expect((await current(headers)).statusCode).toBe(200);
    const cache = ctx.services.identity.authCache;
    expect(cache.live).toBe(true);
    // Cut the listener's connection from the server side, as a database restart or a network cut would.
    await elsewhere(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'leadflow-auth-listener' and datname = current_database()`,
    );
    await waitFor(async () => !cache.live, 5_000, 5);
    // A revocation while nobody listens is seen on the very next request: nothing is served from memory.
    await elsewhere('update api_keys set revoked_at = now() where id = $1', [id]);
    expect((await current(headers)).statusCode).toBe(401);
    // The listener comes back by itself and the cache works again, from a clean slate.
    await waitFor(async () => cache.live, 10_000, 20);
    expect((await current(headers)).statusCode).toBe(401);
    expect((await current(alice.headers)).statusCode).toBe(200);
  });
});
