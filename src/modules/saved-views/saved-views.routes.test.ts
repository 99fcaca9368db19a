// /id/api/saved-views: a user's saved views of the web application's tables - create, list by page, rename,
// update, delete; names unique per user and page; closed bodies with 422s naming the field; another user's
// view (same team) and another team's view are 404s and never listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let colleague: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  // A colleague in Alice's team (their own team first), asking in Alice's team.
  const other = await ctx.createUser('Colleague team');
  await ctx.db.insertInto('team_members').values({ team_id: alice.teamId, user_id: other.userId }).execute();
  colleague = { ...other, headers: { ...other.headers, 'team-id': String(alice.teamId) } };
  stranger = await ctx.createUser('Stranger team');
});
afterAll(() => ctx?.close());

const view = {
  name: 'CTOs',
  page: 'contacts',
  filter: { conditions: [{ id: 1, field: 'position', op: 'is', value: 'CTO' }] },
  sort: { field: 'name', direction: 'asc' },
  columns: ['name', 'position'],
};

describe('saved views', () => {
  let uuid: string;

  it('saves, lists by page and gets a view', async () => {
    const created = await ctx.request(alice, { method: 'POST', url: '/id/api/saved-views', payload: view });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ ...view, team_id: alice.teamId, user_id: alice.userId });
    uuid = created.json().uuid;
    const tasks = await ctx.request(alice, {
      method: 'POST',
      url: '/id/api/saved-views',
      payload: { name: 'ctos', page: 'tasks' },
    });
    expect(tasks.statusCode).toBe(201);
    expect(tasks.json()).toMatchObject({ filter: {}, sort: null, columns: [] });

    const listed = await ctx.request(alice, {
      method: 'GET',
      url: '/id/api/saved-views?filter[page]=contacts',
    });
    expect(listed.json()).toMatchObject({ total: 1, data: [{ uuid, name: 'CTOs' }] });
    const all = await ctx.request(alice, {
      method: 'GET',
      url: '/id/api/saved-views?order_field=page&order_type=asc',
    });
    expect(all.json().data.map((v: { page: string }) => v.page)).toEqual(['contacts', 'tasks']);
    const got = await ctx.request(alice, { method: 'GET', url: `/id/api/saved-views/${uuid}` });
    expect(got.json().filter).toEqual(view.filter);
  });

  it('refuses a taken name (any case), a blank name, an unknown page and unknown keys, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...view, name: ' ctos ' }, 'name'],
      [{ ...view, name: '   ' }, 'name'],
      [{ ...view, page: 'flows' }, 'page'],
      [{ ...view, sort: { field: 'name', direction: 'up' } }, 'sort'],
      [{ ...view, columns: ['name', 'name'] }, 'columns'],
      [{ ...view, filter: { q: 'x'.repeat(20_001) } }, 'filter'],
      [{ ...view, user_id: colleague.userId }, 'user_id'],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.request(alice, { method: 'POST', url: '/id/api/saved-views', payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(JSON.stringify(res.json().error.data), field).toContain(field);
    }
    const count = await ctx.db
      .selectFrom('saved_views')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(2);
  });

  it('renames and updates; a rename onto another view of the page is refused', async () => {
    const renamed = await ctx.request(alice, {
      method: 'PUT',
      url: `/id/api/saved-views/${uuid}`,
      payload: { name: 'CTOs in Europe', columns: ['name'] },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'CTOs in Europe', columns: ['name'], filter: view.filter });
    const other = await ctx.request(alice, {
      method: 'POST',
      url: '/id/api/saved-views',
      payload: { name: 'Founders', page: 'contacts' },
    });
    const clash = await ctx.request(alice, {
      method: 'PUT',
      url: `/id/api/saved-views/${other.json().uuid}`,
      payload: { name: 'ctos in europe' },
    });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().error.data).toHaveProperty('name');
    // The same name on another page is fine (the tasks view is "ctos").
    const sameName = await ctx.request(alice, {
      method: 'PUT',
      url: `/id/api/saved-views/${other.json().uuid}`,
      payload: { name: 'CTOS', sort: null },
    });
    expect(sameName.statusCode).toBe(200);
    expect(sameName.json()).toMatchObject({ name: 'CTOS', sort: null });
  });

  it('is the owner’s alone: a colleague and another team get 404s and empty lists', async () => {
    for (const user of [colleague, stranger]) {
      const list = await ctx.request(user, { method: 'GET', url: '/id/api/saved-views' });
      expect(list.statusCode).toBe(200);
      expect(list.json().total).toBe(0);
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { name: 'Mine now' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await ctx.request(user, { method, url: `/id/api/saved-views/${uuid}`, payload });
        expect(res.statusCode, `${method} by another user`).toBe(404);
      }
    }
    // The colleague may use the same name in the same team.
    const theirs = await ctx.request(colleague, {
      method: 'POST',
      url: '/id/api/saved-views',
      payload: view,
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json()).toMatchObject({ team_id: alice.teamId, user_id: colleague.userId });
    const aliceView = await ctx.request(alice, { method: 'GET', url: `/id/api/saved-views/${uuid}` });
    expect(aliceView.json().name).toBe('CTOs in Europe');
  });

  it('deletes (204, then 404)', async () => {
    const deleted = await ctx.request(alice, { method: 'DELETE', url: `/id/api/saved-views/${uuid}` });
    expect(deleted.statusCode).toBe(204);
    const again = await ctx.request(alice, { method: 'DELETE', url: `/id/api/saved-views/${uuid}` });
    expect(again.statusCode).toBe(404);
  });
});
