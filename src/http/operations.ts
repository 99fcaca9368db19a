// Unauthenticated operational endpoints: /healthz for load balancers and /metrics for Prometheus.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export function registerOperations(app: FastifyInstance, deps: { db: Database; metrics: Registry }): void {
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [deps.metrics],
  });
  app.addHook('onResponse', async (request, reply) => {
    httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await Promise.race([
        sql`select 1`.execute(deps.db),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database timeout')), 2000).unref()),
      ]);
      return { status: 'ok', database: 'up' };
    } catch (error) {
      reply.code(503);
      return { status: 'unavailable', database: 'down', error: (error as Error).message };
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(deps.metrics.contentType);
    return deps.metrics.metrics();
  });
}
