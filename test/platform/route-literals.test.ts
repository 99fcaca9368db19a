// Routing tells the truth about literal path segments: a literal a route owns (`/leads/api/leads/search`,
// `/tasks/mass-skip`, `/file-exports/download`...) is never taken for the `{uuid}` or `{id}` of a sibling
// route. The sweep covers every literal segment of the document that sits where a sibling has a parameter:
// each other method on the literal's path is a 405 whose Allow lists exactly that path's methods, and a
// deeper path under the literal that no route has is a 404 - never a 422 about a malformed id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../../src/http/openapi-components.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

type Paths = Record<string, Record<string, { summary?: string }>>;

let ctx: TestContext;
let alice: TestUser;
let paths: Paths;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY'] as const;
const UUID = '0190f000-0000-7000-8000-0000000000ff';

const segmentsOf = (path: string) => path.split('/');
const isParam = (segment: string) => /^\{\w+\}$/.test(segment);
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'id' ? '9' : UUID));

/** Every [literal path, index] whose segment at index is a literal where a sibling path has a parameter. */
function shadowingLiterals(all: string[]): Array<{ path: string; index: number }> {
  const found: Array<{ path: string; index: number }> = [];
  for (const path of all) {
    const parts = segmentsOf(path);
    parts.forEach((segment, index) => {
      if (isParam(segment) || index < 3) return;
      const prefix = parts.slice(0, index).map((s) => (isParam(s) ? '{}' : s));
      const sibling = all.some((other) => {
        const o = segmentsOf(other);
        return (
          o.length > index &&
          isParam(o[index]!) &&
          o.slice(0, index).every((s, i) => (isParam(s) ? '{}' : s) === prefix[i])
        );
      });
      if (sibling) found.push({ path, index });
    });
  }
  return found;
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  paths = (
    dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json()) as { paths: Paths }
  ).paths;
});
afterAll(() => ctx.close());

/** The methods the document lists for exactly this path (Allow adds HEAD beside GET). */
function allowOf(path: string): string {
  const methods = Object.keys(paths[path] ?? {}).map((m) => m.toUpperCase());
  if (methods.includes('GET')) methods.push('HEAD');
  return methods.sort().join(', ');
}

describe('literal path segments', () => {
  it('are found in numbers worth sweeping', () => {
    const literals = shadowingLiterals(Object.keys(paths));
    const names = new Set(literals.map(({ path, index }) => segmentsOf(path)[index]));
    for (const expected of ['search', 'mass-action', 'count', 'metrics', 'group-counts', 'list', 'clone'])
      expect(names).toContain(expected);
    for (const expected of ['mass-skip', 'mass-cancel', 'download', 'leads', 'companies'])
      expect(names).toContain(expected);
    expect(literals.length).toBeGreaterThan(30);
  });

  it('answer 405 with their own Allow for every other method, and 404 below them, never 422', async () => {
    const wrong: string[] = [];
    const literalPaths = new Set(
      shadowingLiterals(Object.keys(paths)).map(({ path, index }) =>
        segmentsOf(path)
          .slice(0, index + 1)
          .join('/'),
      ),
    );
    for (const literalPath of literalPaths) {
      const url = fill(literalPath);
      const ownMethods = Object.keys(paths[literalPath] ?? {}).map((m) => m.toUpperCase());
      for (const method of METHODS) {
        if (ownMethods.includes(method)) continue;
        const res = await ctx.request(alice, { method: method as 'GET', url });
        const allow = ownMethods.length > 0 ? allowOf(literalPath) : undefined;
        const expected = allow ? 405 : 404;
        if (res.statusCode !== expected || res.headers.allow !== allow) {
          wrong.push(
            `${method} ${url} -> ${res.statusCode} allow=${res.headers.allow} ${res.body.slice(0, 100)}`,
          );
          continue;
        }
        if (expected === 405) {
          const message = (res.json() as { message: string }).message;
          // The hint names this path's own operations, or a listing operation below it - nothing else.
          const named = [...message.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/\S+?)[\s.(]/g)];
          for (const [, m, p] of named) {
            const documented = Object.keys(paths).find((d) => d.replace(/\{\w+\}/g, '{}') === p);
            if (!documented || !paths[documented]?.[m!.toLowerCase()] || !/\/(search|list)$/.test(p!))
              wrong.push(`${method} ${url}: the hint names ${m} ${p}`);
          }
        }
      }
      // One segment deeper than any route under the literal: nothing answers there.
      const deeper = `${url}/${UUID}/nothing-here`;
      const res = await ctx.request(alice, { method: 'GET', url: deeper });
      if (res.statusCode !== 404) wrong.push(`GET ${deeper} -> ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe('405 hints', () => {
  it('say what the allowed method does and where listing is, not "use POST" to create', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/leads/api/leads' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().message).toBe(
      'GET is not allowed on /leads/api/leads; it answers POST (Create contacts). ' +
        'To list, use POST /leads/api/leads/search (Search contacts).',
    );
    const seats = await ctx.request(alice, { method: 'GET', url: '/browsers/api/linkedin-browsers' });
    expect(seats.statusCode).toBe(405);
    expect(seats.json().message).toContain('To list, use POST /browsers/api/linkedin-browsers/list');
  });

  it('answer GET on the search path with 405 naming POST, not a 422 about a contact uuid', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/leads/api/leads/search' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().message).toBe(
      'GET is not allowed on /leads/api/leads/search; it answers POST (Search contacts).',
    );
  });

  it('answer an unknown method (QUERY) with 405, with or without a body', async () => {
    for (const payload of [undefined, '{"filter":{}}', 'not json']) {
      const res = await ctx.request(alice, {
        method: 'QUERY' as 'GET',
        url: '/leads/api/leads/search',
        ...(payload ? { payload, headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(res.statusCode, String(payload)).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });
});
