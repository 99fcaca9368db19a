// `filter.all` is one rule for contacts and companies: `all: true` means every record in search, count,
// metrics, exports and mass actions (other keys still narrow); `all: false` adds nothing; a value other
// than a boolean is a 422 naming filter.all everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeads, listOf } from '../../src/modules/leads/leads.fixtures.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
let main: { uuid: string };
let side: { uuid: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  main = await listOf(ctx, alice, 'Main');
  side = await listOf(ctx, alice, 'Side');
  await createLeads(ctx, alice, main.uuid, [{ first_name: 'Ann' }, { first_name: 'Ben' }]);
  await createLeads(ctx, alice, side.uuid, [{ first_name: 'Cat' }]);
  // Someone else's contacts never count.
  const bob = await ctx.createUser();
  await createLeads(ctx, bob, (await listOf(ctx, bob, 'Bob')).uuid, [{ first_name: 'Bob' }]);
});
afterAll(() => ctx.close());

const post = (url: string, payload: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST') =>
  ctx.request(alice, { method, url, payload });

/** How many contacts each operation selects for `filter`. */
const selected = {
  async search(filter: unknown) {
    const res = await post('/leads/api/leads/search', { filter });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().total as number;
  },
  async count(filter: unknown) {
    const res = await post('/leads/api/leads/count', { filter });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().total as number;
  },
  async metrics(filter: unknown) {
    const res = await post('/leads/api/leads/metrics', {
      filter,
      metrics: ['leads_count'],
      period_from: '2000-01-01',
      period_to: '2100-01-01',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().total.leads_count as number;
  },
  async export(filter: unknown) {
    const res = await post('/leads/api/file-exports/leads', { filter });
    expect(res.statusCode, res.body).toBe(200);
    // The export stores the filter it runs; count what that filter selects the way the job does.
    return selected.count(res.json().filter);
  },
  async massAction(filter: unknown) {
    // A fresh tag: every selected (not blacklisted) contact changes, so affected counts the selection.
    const tag = await post('/leads/api/tags', { name: `t-${Math.random()}` });
    const res = await post(
      '/leads/api/leads/mass-action',
      { type: 'contact_add_tags', payload: { tag_uuid: tag.json().uuid }, filter },
      'PUT',
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().affected as number;
  },
};

describe('filter.all', () => {
  it.each(Object.keys(selected))('%s: {all: true} selects every contact of the team', async (name) => {
    const select = selected[name as keyof typeof selected];
    expect(await select({ all: true })).toBe(3);
    expect(await select({ all: true, list_uuid: side.uuid })).toBe(1);
    expect(await select({ all: false, list_uuid: main.uuid })).toBe(2);
  });

  it('search and metrics read an empty selection as every contact; count, export and mass actions refuse it', async () => {
    expect(await selected.search({ all: false })).toBe(3);
    expect(await selected.metrics({})).toBe(3);
    for (const [url, extra, method] of [
      ['/leads/api/leads/count', {}, 'POST'],
      ['/leads/api/file-exports/leads', {}, 'POST'],
      ['/leads/api/leads/mass-action', { type: 'contact_delete' }, 'PUT'],
    ] as const) {
      const res = await post(url, { ...extra, filter: { all: false } }, method);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().message, url).toContain('all: true');
    }
  });

  it('is a 422 naming filter.all when it is not a boolean, everywhere', async () => {
    for (const [url, extra, method] of [
      ['/leads/api/leads/search', {}, 'POST'],
      ['/leads/api/leads/count', {}, 'POST'],
      [
        '/leads/api/leads/metrics',
        { metrics: ['leads_count'], period_from: '2000-01-01', period_to: '2100-01-01' },
        'POST',
      ],
      ['/leads/api/file-exports/leads', {}, 'POST'],
      ['/leads/api/leads/mass-action', { type: 'contact_delete' }, 'PUT'],
      ['/leads/api/companies/list', {}, 'POST'],
    ] as const) {
      const res = await post(url, { ...extra, filter: { all: 'yes' } }, method);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.data, url).toHaveProperty(['filter.all']);
    }
  });

  it('lists every company with {all: true}, in the body and in a GET query', async () => {
    for (const name of ['Acme', 'Globex']) {
      expect((await post('/leads/api/companies', { companies: [{ name }] })).statusCode).toBeLessThan(300);
    }
    const listed = await post('/leads/api/companies/list', { filter: { all: true } });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().total).toBe(2);
    const got = await ctx.request(alice, { method: 'GET', url: '/leads/api/companies?filter[all]=true' });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().total).toBe(2);
  });
});
