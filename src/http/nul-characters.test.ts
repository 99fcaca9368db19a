// A JSON body with U+0000 anywhere (a value, a nested value, a key) is a 422 naming where, before any
// statement runs; the same text without it is taken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../test/harness.js';

let ctx: TestContext;
let user: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  user = await ctx.createUser();
});
afterAll(() => ctx.close());

const post = (url: string, body: string) =>
  ctx.request(user, { method: 'POST', url, payload: body, headers: { 'content-type': 'application/json' } });

describe('NUL characters in a JSON body', () => {
  it('refuses one in a value, a nested value or a key, naming the field', async () => {
    const flat = await post('/leads/api/lists', '{"name":"CMO\\u0000 Germany"}');
    expect(flat.statusCode).toBe(422);
    expect(flat.json().error).toMatchObject({
      reason: 'validation_error',
      data: { name: [expect.any(String)] },
    });
    expect(flat.json().message).toContain('name contains a NUL character');

    const nested = await post(
      '/leads/api/leads',
      '{"leads":[{"first_name":"Ann"},{"first_name":"B\\u0000b"}]}',
    );
    expect(nested.statusCode).toBe(422);
    expect(Object.keys(nested.json().error.data)).toEqual(['leads.1.first_name']);

    const key = await post('/leads/api/lists', '{"na\\u0000me":"x"}');
    expect(key.statusCode).toBe(422);
    expect(Object.keys(key.json().error.data)).toEqual(['na\u0000me']);

    const lists = await ctx.request(user, { method: 'GET', url: '/leads/api/lists' });
    expect(lists.json().total).toBe(0);
  });

  it('takes the same text without it, and other escapes', async () => {
    const ok = await post('/leads/api/lists', '{"name":"CMO\\u0001 Germany \\u00e9"}');
    expect(ok.statusCode).toBe(201);
    expect(ok.json().name).toBe('CMO\u0001 Germany \u00e9');
  });
});
