// 300 requests a minute per API key (spec 8). Counters live in Redis when REDIS_URL is set, so every
// API process shares them; otherwise in this process's memory (one process is the default setup).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../lib/errors.js';

export type RateLimitOptions = { perMinute: number; redisUrl: string | undefined };

export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    // Runs after authentication (registered earlier on the same hook), so it counts per key (browser
    // sessions per user); requests
    // without a key (docs, health, metrics, 401s) are not counted.
    hook: 'onRequest',
    allowList: (request) => !request.auth,
    keyGenerator: (request) =>
      request.auth?.apiKeyId != null
        ? `key:${request.auth.apiKeyId}`
        : `user:${request.auth?.userId ?? request.ip}`,
    enableDraftSpec: true,
    // A Redis outage must not take the API down with it.
    skipOnError: true,
    nameSpace: 'leadflow-rl:',
    ...(redis ? { redis } : {}),
    // The plugin throws what this returns; the error handler renders it (headers are already set).
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`,
      ),
  });
}
