// Route matching comes first, and errors raised before any route runs use our envelope: 404 for unknown
// paths and 405 with Allow for a known path with another method (whoever asks, before authentication),
// 414 for an over-long path parameter, 400 for a malformed URL, 415 for a body type the route does not
// read, 431 for an oversized request head (over a real socket: Node answers it before Fastify sees it).
import { type AddressInfo, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../harness.js';

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
      expect(res.json().message).toMatch(/^GET is not allowed on \/leads\/api\/leads; it answers POST /);
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
});

describe('an oversized request head (over a real socket: Node answers it before Fastify sees it)', () => {
  let app: FastifyInstance;
  let port: number;
  const log: string[] = [];

  beforeAll(async () => {
    // The app as a server runs it: logging at info, here into `log` instead of stdout.
    app = await buildApp({
      config: ctx.config,
      db: ctx.db,
      services: ctx.services,
      logger: createLogger('info', { write: (line: string) => log.push(line) }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  /** Sends `head` on a raw socket and returns what came back before the server closed it. */
  function send(head: string): Promise<string> {
    return new Promise((resolve) => {
      let data = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(head));
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      // The server closes while a large head is still arriving: the client may see a reset.
      socket.on('error', () => resolve(data));
      socket.on('close', () => resolve(data));
    });
  }

  function answer(raw: string) {
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw).toMatch(/x-request-id: [0-9a-f-]{36}/);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ error: { reason: 'headers_too_large' }, code: 431 });
    return body.message as string;
  }

  it('says the URL is too long when the URL is', async () => {
    const message = answer(
      await send(`GET /leads/api/lists?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`),
    );
    expect(message).toMatch(/^The URL is too long/);
  });

  it('says a header is too large when one is, not the URL', async () => {
    const head = `GET /leads/api/lists HTTP/1.1\r\nHost: a\r\nCookie: c=${'y'.repeat(20_000)}\r\n\r\n`;
    const message = answer(await send(head));
    expect(message).toMatch(/^The request headers are too large/);
    expect(message).toContain('request line is only 29 bytes');
    expect(message).not.toContain('URL');
  });

  it('logs the code and sizes of a 64 KB head, never its bytes (the bearer token stays out)', async () => {
    log.length = 0;
    const token = alice.apiKey;
    const head =
      `GET /leads/api/lists HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${token}\r\n` +
      `X-Padding: ${'z'.repeat(64 * 1024)}\r\n\r\n`;
    await send(head);
    await waitFor(async () => log.length > 0, 5000);
    const written = log.join('');
    expect(written.length).toBeLessThan(1024);
    expect(written).not.toContain(token);
    expect(written).not.toContain('zzzz');
    expect(written).not.toContain('rawPacket');
    const line = JSON.parse(log[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, code: 'HPE_HEADER_OVERFLOW', status: 431 });
    expect(line.bytesReceived).toBeGreaterThan(16 * 1024);
    expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
