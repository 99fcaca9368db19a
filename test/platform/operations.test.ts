import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

describe('operations', () => {
  it('reports health 200 while the database answers', async () => {
    const res = await ctx.request(null, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'up' });
  });

  it('reports 503 when the database does not answer', async () => {
    const { buildApp } = await import('../../src/app.js');
    const { createLogger } = await import('../../src/lib/logger.js');
    // A pool pointing at a port where nothing listens.
    const dead = createDatabase('postgres://x:y@127.0.0.1:1/none', 1);
    const app = await buildApp({
      config: ctx.config,
      db: dead.db,
      services: ctx.services,
      logger: createLogger('silent'),
    });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().status).toBe('unavailable');
    await app.close();
    await dead.close();
  });

  it('exposes Prometheus metrics including request durations', async () => {
    await ctx.request(alice, { method: 'GET', url: '/id/api/users/current' });
    const res = await ctx.request(null, { method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('route="/id/api/users/current"');
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });

  it('answers every request with a request id, echoing a sane incoming one', async () => {
    const own = await ctx.request(alice, {
      method: 'GET',
      url: '/id/api/users/current',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(own.headers['x-request-id']).toBe('abc-123');
    const generated = await ctx.request(alice, { method: 'GET', url: '/id/api/users/current' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shapes every error the same way, including unknown routes and bad JSON', async () => {
    const missing = await ctx.request(alice, { method: 'GET', url: '/leads/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { reason: 'not_found', message: expect.any(String), data: {} },
      message: expect.any(String),
      code: 404,
    });
    const badJson = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error.reason).toBe('bad_request');
    const wrongType = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      headers: { 'content-type': 'application/xml' },
      payload: '<name/>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error.reason).toBe('unsupported_media_type');
  });

  it('keeps database errors a client can cause out of the 5xx range', async () => {
    await sql`select 1`.execute(ctx.db);
    const badUuid = await ctx.request(alice, { method: 'GET', url: '/leads/api/lists/not-a-uuid' });
    expect(badUuid.statusCode).toBe(422);
    expect(badUuid.json().error.data).toHaveProperty('uuid');
  });
});

describe('request bodies', () => {
  it('treats an empty body sent as application/json as no body', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      payload: { name: 'Empty body' },
    });
    const res = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/lists/${created.json().uuid}`,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(204);
  });

  it('still rejects prototype poisoning', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"x","__proto__":{"admin":true}}',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('text the database cannot store', () => {
  it('answers 422 for a NUL character instead of a 500', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"bad\\u0000name"}',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.reason).toBe('validation_error');
  });
});
