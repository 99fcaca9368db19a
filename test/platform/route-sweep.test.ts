// Route-wide checks over every API operation of the OpenAPI document: each one refuses a missing key with
// 401, and no malformed or unexpected input - wrong body types, unknown records, junk query strings -
// ever produces a 5xx. (Happy paths and team isolation are tested per module.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../../src/http/openapi-components.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

type Operation = { method: string; path: string; hasBody: boolean; statuses: string[]; public: boolean };

/** Operations anyone may call (documented with `security: []`): signing in and one-time links. */
const PUBLIC_OPERATIONS = [
  'POST /id/api/sessions',
  'POST /id/api/password-links/redeem',
  'POST /id/api/invites/lookup',
  'POST /id/api/invites/accept',
];

let ctx: TestContext;
let alice: TestUser;
let operations: Operation[];

const UNKNOWN_UUID = '0190f000-0000-7000-8000-0000000000ff';

function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => value(name));
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody?: unknown; responses: Record<string, unknown>; security?: unknown[] }>
    >;
  };
  operations = Object.entries(document.paths)
    .filter(([path]) => /^\/[a-z-]+\/(c1\/)?api\//.test(path))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        hasBody: Boolean(op.requestBody),
        statuses: Object.keys(op.responses),
        public: op.security?.length === 0,
      })),
    );
});
afterAll(() => ctx.close());

const idFor = (name: string) => (name === 'id' ? '999999' : UNKNOWN_UUID);

describe('every API operation', () => {
  it('is documented in numbers worth checking', () => {
    expect(operations.length).toBeGreaterThan(80);
  });

  it('answers 401 without a key, except the documented public operations', async () => {
    const publicOps = operations.filter((op) => op.public).map((op) => `${op.method} ${op.path}`);
    expect(publicOps.sort()).toEqual([...PUBLIC_OPERATIONS].sort());
    for (const op of operations.filter((o) => !o.public)) {
      const res = await ctx.request(null, { method: op.method as 'GET', url: fillPath(op.path, idFor) });
      expect(res.statusCode, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it('never answers 5xx to unknown records or malformed input', async () => {
    const bodies: unknown[] = [
      undefined,
      {},
      [],
      'text',
      42,
      { filter: 'x', limit: -1 },
      { uuids: ['nope'], ids: {} },
      { offset: 1e20, limit: 1e21 },
    ];
    const failures: string[] = [];
    const undocumented: string[] = [];
    for (const op of operations) {
      const paths = [fillPath(op.path, idFor), fillPath(op.path, () => 'not-an-id')];
      if (op.path.includes('{id}')) paths.push(fillPath(op.path, () => '9223372036854775808'));
      for (const path of paths) {
        for (const payload of op.hasBody ? bodies : [undefined]) {
          for (const query of [
            '',
            '?limit=abc&offset=-3&filter[nope]=1',
            '?unknown_param=1',
            '?offset=99999999999999999999&limit=1e21',
          ]) {
            const res = await ctx.request(alice, {
              method: op.method as 'GET',
              url: `${path}${query}`,
              ...(payload === undefined ? {} : { payload: payload as object }),
            });
            if (!op.statuses.includes(String(res.statusCode)))
              undocumented.push(`${op.method} ${op.path} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
            if (res.statusCode >= 500)
              failures.push(
                `${op.method} ${path}${query} ${JSON.stringify(payload)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
              );
            else if (res.statusCode >= 400)
              expect(res.json(), `${op.method} ${path}`).toHaveProperty('error.reason');
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect([...new Set(undocumented)]).toEqual([]);
  }, 180_000);
});
