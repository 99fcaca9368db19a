import { Validator } from '@seriousme/openapi-schema-validator';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { dereference, shareComponents } from '../../src/http/openapi-components.js';
import { validationFailure, validatorCompiler } from '../../src/http/validation.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestContext, type TestContext } from '../harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('route schemas', () => {
  it('all compile (validators and serializers), though a running app compiles each on first use', async () => {
    const app = await buildApp({
      config: ctx.config,
      db: ctx.db,
      services: ctx.services,
      logger: createLogger('silent'),
      schemaCompilation: 'eager',
    });
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  }, 120_000);
});

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

  const PUBLIC = ['signIn', 'redeemPasswordLink', 'lookUpInvite', 'acceptInvite'];
  it('documents every API route with its error responses and security', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    expect(document.paths).toHaveProperty(['/leads/api/lists']);
    const operations = Object.entries(
      document.paths as Record<
        string,
        Record<string, { responses: Record<string, unknown>; security?: unknown; operationId?: string }>
      >,
    )
      .filter(([path]) => /^\/[a-z-]+\/(c1\/)?api\//.test(path))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(5);
    for (const { path, method, op } of operations) {
      for (const status of ['400', '401', '403', '429', '431', '500']) {
        expect(op.responses, `${method} ${path}`).toHaveProperty(status);
      }
      for (const response of Object.values(op.responses) as Array<{ headers?: object }>) {
        expect(Object.keys(response.headers ?? {})).toEqual(
          expect.arrayContaining([
            'x-request-id',
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
          ]),
        );
      }
      expect(op.responses['429']).toHaveProperty(['headers', 'Retry-After']);
      // Signing in and one-time links need no key (security: []); every other operation takes a key or a session.
      // The usual requirement is the document's default (security at the top), stated once.
      const security = op.security ?? document.security;
      if (op.operationId && PUBLIC.includes(op.operationId)) expect(op.security).toEqual([]);
      else expect(security, `${method} ${path}`).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
      expect(op.operationId, `${method} ${path}`).toBeTruthy();
    }
    expect(document.components.schemas.ErrorBody.properties.error.properties.reason.enum).toContain(
      'not_found',
    );
  });

  it('lists per operation only the errors its shape can produce', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    const statuses = (path: string, method: string) =>
      Object.keys(document.paths[path][method].responses).sort();
    expect(statuses('/id/api/users/current', 'get')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '429',
      '431',
      '500',
      '503',
    ]);
    expect(statuses('/leads/api/tags/{uuid}', 'put')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '414',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ]);
    expect(statuses('/leads/api/leads/search', 'post')).not.toContain('404');
    expect(statuses('/leads/api/leads/lookup-one', 'post')).toContain('404');
  });

  it('gives each error status a body whose reason is that status\u2019s reason', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    const reasonOf = (status: number) =>
      document.components.schemas[`Error${status}`].properties.error.properties.reason.enum;
    expect(reasonOf(404)).toEqual(['not_found']);
    expect(reasonOf(422)).toEqual(['validation_error']);
    expect(reasonOf(429)).toEqual(['rate_limited']);
    const response = document.paths['/leads/api/tags/{uuid}'].put.responses['404'];
    expect(response.content['application/json'].schema).toEqual(document.components.schemas.Error404);
    const real = await ctx.request(null, { method: 'GET', url: '/leads/api/tags' });
    expect(real.json().error.reason).toBe('auth_exception');
  });

  it('declares each list\u2019s sort fields as the order_field enum', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    const query = document.paths['/leads/api/tags'].get.parameters.find(
      (p: { name: string }) => p.name === 'order_field',
    );
    expect(query.schema.enum).toEqual(['created_at', 'updated_at', 'name', 'uuid']);
    const body =
      document.paths['/leads/api/leads/search'].post.requestBody.content['application/json'].schema;
    expect(body.properties.order_field.enum).toContain('company_name');
  });

  it('shows an example for every request body, and each example passes the body\u2019s validator', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    const invalid: string[] = [];
    let bodies = 0;
    type Content = { example?: unknown; examples?: Record<string, { value: unknown }>; schema?: unknown };
    type Operation = { requestBody?: { content?: Record<string, Content> } };
    for (const [path, methods] of Object.entries(
      document.paths as Record<string, Record<string, Operation>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [media, content] of Object.entries(op.requestBody?.content ?? {})) {
          bodies += 1;
          const examples =
            content.example !== undefined
              ? [content.example]
              : Object.values((content.examples ?? {}) as Record<string, { value: unknown }>).map(
                  (e) => e.value,
                );
          expect(examples.length, `${method} ${path} ${media}`).toBeGreaterThan(0);
          if (media !== 'application/json') continue;
          const validate = validatorCompiler({
            schema: content.schema,
            httpPart: 'body',
          } as never) as ValidateFunction;
          for (const example of examples) {
            if (!validate(structuredClone(example))) {
              invalid.push(`${method} ${path}: ${validationFailure(validate.errors ?? [], 'body').message}`);
            }
          }
        }
      }
    }
    expect(bodies).toBeGreaterThan(50);
    expect(invalid).toEqual([]);
  });

  it('shares what repeats through components: small, and the same document once inlined', async () => {
    const res = await ctx.request(null, { method: 'GET', url: '/openapi.json' });
    const operations = Object.values(res.json().paths as Record<string, object>).reduce<number>(
      (sum, methods) => sum + Object.keys(methods).length,
      0,
    );
    process.stdout.write(`/openapi.json: ${res.body.length} bytes, ${operations} operations\n`);
    // What is left per operation is its own: ~12 error statuses and 4 headers per answer as references,
    // its parameters, bodies and descriptions (inlined it was ~12 KB per operation).
    expect(res.body.length).toBeLessThanOrEqual(operations * 3 * 1024);
    const shared = res.json();
    expect(Object.keys(shared.components.schemas).length).toBeGreaterThan(50);
    expect(shared.paths['/leads/api/tags/{uuid}'].put.responses['404']).toEqual({
      $ref: '#/components/responses/404',
    });
    // Sharing again what the document says inline gives back the same content.
    const inline = dereference(shared);
    expect(JSON.stringify(inline).length).toBeGreaterThan(4 * res.body.length);
    const again = dereference(shareComponents({ ...structuredClone(inline), components: {} }));
    expect(again.paths).toEqual(inline.paths);
    expect(again.security).toEqual(inline.security);
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await ctx.request(null, { method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
