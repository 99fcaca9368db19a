// Route matching comes first, and errors raised before any route runs use our envelope: 404 for unknown
// paths and 405 with Allow for a known path with another method (whoever asks, before authentication),
// 414 for an over-long path parameter, 400 for a malformed URL, 415 for a body type the route does not
// read, 431 for an oversized request head (over a real socket: Node answers it before Fastify sees it).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

function expectEnvelope(
  res: { statusCode: number; headers: Record<string, unknown>; json(): { message: string } },
  status: number,
  reason: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ error: { reason }, code: status });
  expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
}

describe('route matching first', () => {
  it('answers 405 with Allow for a known path and another method, with or without a key', async () => {
    for (const user of [null, alice]) {
      const res = await ctx.request(user, { method: 'GET', url: '/leads/api/leads?limit=2' });
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toBe('POST');
      expect(res.json().message).toBe('GET is not allowed on /leads/api/leads; use POST.');
    }
    const lists = await ctx.request(null, { method: 'DELETE', url: '/leads/api/lists' });
    expectEnvelope(lists, 405, 'method_not_allowed');
    expect(lists.headers.allow).toBe('GET, HEAD, POST');
    const one = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists/0190f000-0000-7000-8000-000000000001/',
    });
    expect(one.headers.allow).toBe('DELETE, GET, HEAD, PUT');
  });

  it('answers 404 for an unknown path, whatever its query string, with or without a key', async () => {
    for (const user of [null, alice]) {
      const res = await ctx.request(user, { method: 'GET', url: '/leads/api/contacts?limit=2&nope=1' });
      expectEnvelope(res, 404, 'not_found');
      expect(res.json().message).toBe('No route GET /leads/api/contacts');
    }
  });

  it('still authenticates known routes first and then checks their query', async () => {
    expect((await ctx.request(null, { method: 'GET', url: '/leads/api/lists?nope=1' })).statusCode).toBe(401);
    const unknown = await ctx.request(alice, { method: 'GET', url: '/leads/api/lists?nope=1' });
    expectEnvelope(unknown, 400, 'bad_request');
  });

  it('refuses a query parameter without a name like any unknown one', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/leads/api/lists?=0' });
    expectEnvelope(res, 400, 'bad_request');
    expect(res.json().message).toContain('A query parameter has no name ("=0")');
    expect((await ctx.request(alice, { method: 'GET', url: '/leads/api/lists?limit=1&=' })).statusCode).toBe(
      400,
    );
  });
});

describe('framework errors in our envelope', () => {
  it('answers an over-long path parameter with 414', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: `/leads/api/lists/${'a'.repeat(150)}` });
    expectEnvelope(res, 414, 'uri_too_long');
    expect(res.json().message).toContain('longer than 100 characters');
  });

  it('answers a malformed URL with 400', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/leads/api/lists/%E0%A4%A' });
    expectEnvelope(res, 400, 'bad_request');
    expect(res.json().message).toContain('The URL is not valid');
  });

  it('answers a text/plain body on a JSON route with 415', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      payload: 'name=Plain',
      headers: { 'content-type': 'text/plain' },
    });
    expectEnvelope(res, 415, 'unsupported_media_type');
    expect(res.json().message).toContain('application/json');
  });

  it('answers an oversized request head with 431 on the socket', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET /leads/api/lists?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw).toMatch(/x-request-id: [0-9a-f-]{36}/);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ error: { reason: 'headers_too_large' }, code: 431 });
  });
});
