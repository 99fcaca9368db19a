import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ config: { rateLimitPerMinute: 5 } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

describe('rate limit per API key', () => {
  it('answers 429 with Retry-After and RateLimit headers once a key exceeds its budget', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestContext['request']>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await ctx.request(alice, { method: 'GET', url: '/id/api/users/current' });
      statuses.push(last.statusCode);
      if (i === 0) {
        expect(last.headers['ratelimit-limit']).toBe('5');
        expect(last.headers['ratelimit-remaining']).toBe('4');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.json()).toMatchObject({ error: { reason: 'rate_limited' }, code: 429 });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.headers['ratelimit-remaining']).toBe('0');
  });

  it('does not limit another key', async () => {
    const res = await ctx.request(bob, { method: 'GET', url: '/id/api/users/current' });
    expect(res.statusCode).toBe(200);
  });

  it('does not count unauthenticated operational routes', async () => {
    for (let i = 0; i < 8; i++)
      expect((await ctx.request(null, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
