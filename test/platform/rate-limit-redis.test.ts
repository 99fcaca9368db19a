// With REDIS_URL, API processes share their rate-limit counters: two app instances (as two processes
// would) against one real Redis server enforce one budget per key. `.ci/run` installs redis-server.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';
import { stopChild, waitForOutput } from '../processes.js';
import { hasPrograms, onPath } from '../system-programs.js';

const REDIS = hasPrograms('the Redis rate-limit test', ['redis-server']) ? onPath('redis-server') : undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!REDIS)('rate limit shared through Redis (needs redis-server; .ci/run installs it)', () => {
  let redis: ChildProcess;
  let ctx: TestContext;
  let apps: FastifyInstance[];
  let alice: TestUser;

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn(REDIS!, [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    await waitForOutput(redis, /Ready to accept/);
    ctx = await createTestContext();
    alice = await ctx.createUser();
    const config = { ...ctx.config, redisUrl: `redis://127.0.0.1:${port}`, rateLimitPerMinute: 4 };
    apps = await Promise.all(
      [1, 2].map(async () => {
        const app = await buildApp({
          config,
          db: ctx.db,
          services: ctx.services,
          logger: createLogger('silent'),
        });
        await app.ready();
        return app;
      }),
    );
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await ctx?.close();
    await stopChild(redis);
  });

  it('counts one key\u2019s requests across both API instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = apps[i % 2]!;
      const res = await app.inject({ method: 'GET', url: '/id/api/users/current', headers: alice.headers });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
