import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await ctx.request(null, { method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every API route with its error responses and security', async () => {
    const document = (await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json();
    const apiRoutes = ctx.app.printRoutes({ commonPrefix: false });
    expect(apiRoutes).toContain('/leads/api/lists');
    const operations = Object.entries(
      document.paths as Record<
        string,
        Record<string, { responses: Record<string, unknown>; security?: unknown; operationId?: string }>
      >,
    )
      .filter(([path]) => /^\/[a-z-]+\/api\//.test(path))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(5);
    for (const { path, method, op } of operations) {
      expect(op.responses, `${method} ${path}`).toHaveProperty('401');
      expect(op.responses, `${method} ${path}`).toHaveProperty('422');
      expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
      expect(op.operationId, `${method} ${path}`).toBeTruthy();
    }
    expect(document.components.schemas.ErrorBody).toBeDefined();
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await ctx.request(null, { method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
