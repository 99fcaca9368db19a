// GET /ai/api/variables: the variables list paged and searched as the hosted MCP server asks for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  [alice, bob] = [await ctx.createUser(), await ctx.createUser()];
  const res = await ctx.request(bob, {
    method: 'POST',
    url: '/leads/api/custom-fields',
    payload: { name: 'BobsField', object: 'lead' },
  });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(() => ctx.close());

const get = async (query: string, user = alice) => {
  const res = await ctx.request(user, { method: 'GET', url: `/ai/api/variables${query}` });
  return { status: res.statusCode, body: res.json() };
};

describe('GET /ai/api/variables', () => {
  it('pages in name order, searches with filter[q] (or flat q) and filters by group', async () => {
    const all = await get('?limit=1000');
    expect(all.status).toBe(200);
    const names = all.body.data.map((v: { name: string }) => v.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(names).not.toContain('custom_fields.BobsField');
    const page = await get('?limit=2&offset=1');
    expect(page.body).toMatchObject({ limit: 2, offset: 1, total: all.body.total, has_more: true });
    expect(page.body.data.map((v: { name: string }) => v.name)).toEqual(names.slice(1, 3));
    const search = await get('?filter[q]=first');
    expect(search.body.data.length).toBeGreaterThan(0);
    for (const v of search.body.data) expect(`${v.name} ${v.description}`.toLowerCase()).toContain('first');
    expect((await get('?q=first')).body.total).toBe(search.body.total);
    const senders = await get('?filter[group]=sender&order_type=desc');
    expect(senders.body.data.every((v: { group: string }) => v.group === 'sender')).toBe(true);
    expect(senders.body.data[0].name > senders.body.data.at(-1).name).toBe(true);
    expect((await get('?limit=1000', bob)).body.data.map((v: { name: string }) => v.name)).toContain(
      'custom_fields.BobsField',
    );
  });

  it('names a bad parameter', async () => {
    expect((await get('?filter[colour]=red')).body.error.data).toHaveProperty(['filter.colour']);
    const order = await get('?order_field=example');
    expect(order.status).toBe(422);
    expect(order.body.error.data).toHaveProperty('order_field');
    expect((await get('?limit=0')).status).toBeGreaterThanOrEqual(400);
  });
});
