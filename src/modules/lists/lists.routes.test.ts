import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function createList(user: TestUser, name: string) {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/lists', payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json() as { uuid: string; name: string };
}

describe('lists CRUD', () => {
  it('creates, reads, renames and deletes an empty list', async () => {
    const list = await createList(alice, 'CMO Germany');
    expect(list).toMatchObject({ name: 'CMO Germany', team_id: alice.teamId });

    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/lists/${list.uuid}` });
    expect(got.json()).toMatchObject({ uuid: list.uuid, name: 'CMO Germany' });

    const renamed = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/lists/${list.uuid}`,
      payload: { name: 'CMO DACH' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('CMO DACH');

    const deleted = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/lists/${list.uuid}` });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/lists/${list.uuid}` })).statusCode,
    ).toBe(404);
  });

  it('rejects a missing or empty name with 422 naming the field', async () => {
    const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/lists', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('name');
    const empty = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists',
      payload: { name: '' },
    });
    expect(empty.statusCode).toBe(422);
  });

  it('keeps teams apart: another team\u2019s list is 404 for every operation', async () => {
    const list = await createList(alice, 'Private');
    const url = `/leads/api/lists/${list.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'PUT', url, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    const listed = await ctx.request(bob, { method: 'GET', url: '/leads/api/lists?limit=1000' });
    expect(listed.json().data.map((l: { uuid: string }) => l.uuid)).not.toContain(list.uuid);
    const metrics = await ctx.request(bob, {
      method: 'POST',
      url: '/leads/api/lists/metrics',
      payload: { uuids: [list.uuid] },
    });
    expect(metrics.json()).toEqual({});
  });
});

describe('listing lists', () => {
  let carol: TestUser;
  beforeAll(async () => {
    carol = await ctx.createUser();
    for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) await createList(carol, name);
  });

  it('filters by free text, by name and sorts by name', async () => {
    const q = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/lists?filter[q]=ta&order_field=name&order_type=asc',
    });
    expect(q.json().data.map((l: { name: string }) => l.name)).toEqual(['Beta', 'Delta']);
    const inSet = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/lists?filter[name][]=Alpha&filter[name][]=Gamma&order_field=name&order_type=asc',
    });
    expect(inSet.json()).toMatchObject({ total: 2 });
    // A flat parameter naming a filterable field filters like filter[name].
    const flat = await ctx.request(carol, { method: 'GET', url: '/leads/api/lists?name=Alpha' });
    expect(flat.json().data.map((l: { name: string }) => l.name)).toEqual(['Alpha']);
  });

  it('pages with has_more and clamps large limits', async () => {
    const first = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/lists?limit=2&order_field=name&order_type=asc',
    });
    expect(first.json()).toMatchObject({ limit: 2, offset: 0, total: 5, has_more: true });
    const clamped = await ctx.request(carol, { method: 'GET', url: '/leads/api/lists?limit=5000' });
    expect(clamped.json()).toMatchObject({ limit: 1000, total: 5, has_more: false });
  });

  it('rejects an unknown sort field and unknown filter keys', async () => {
    const sort = await ctx.request(carol, { method: 'GET', url: '/leads/api/lists?order_field=color' });
    expect(sort.statusCode).toBe(422);
    expect(sort.json().error.data).toHaveProperty('order_field');
    const key = await ctx.request(carol, { method: 'GET', url: '/leads/api/lists?filter[color]=red' });
    expect(key.statusCode).toBe(422);
    expect(key.json().message).toContain('color');
  });
});

describe('deleting a list that holds contacts', () => {
  it('refuses with 409, moves contacts on request, or deletes them on request', async () => {
    const full = await createList(alice, 'Full');
    const target = await createList(alice, 'Target');
    await makeLeads(ctx.db, alice.teamId, full.uuid, [{ first_name: 'Ann' }, { first_name: 'Ben' }]);

    const refused = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/lists/${full.uuid}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ reason: 'conflict', data: { leads_count: 2 } });

    const metrics = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists/metrics',
      payload: { uuids: [full.uuid, target.uuid] },
    });
    expect(metrics.json()).toEqual({ [full.uuid]: { leads_count: 2 }, [target.uuid]: { leads_count: 0 } });

    const moved = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/lists/${full.uuid}`,
      payload: { move_to_list_uuid: target.uuid },
    });
    expect(moved.statusCode).toBe(204);
    const after = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/lists/metrics',
      payload: { uuids: [target.uuid] },
    });
    expect(after.json()[target.uuid].leads_count).toBe(2);

    const withContacts = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/lists/${target.uuid}?delete_contacts=true`,
    });
    expect(withContacts.statusCode).toBe(204);
    const left = await ctx.db
      .selectFrom('leads')
      .select('uuid')
      .where('team_id', '=', alice.teamId)
      .execute();
    expect(left).toEqual([]);
    // The purge job drains the tombstones of the deleted contacts.
    await ctx.startWorkers();
    await waitFor(async () => {
      const rows = await ctx.db
        .selectFrom('lead_tombstones')
        .select('uuid')
        .where('team_id', '=', alice.teamId)
        .execute();
      return rows.length === 0;
    });
  });

  it('moves or removes the list in companies\u2019 list sets', async () => {
    const old = await createList(alice, 'Old');
    const next = await createList(alice, 'Next');
    const gone = await createList(alice, 'Gone');
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: { companies: [{ name: 'Acme' }], list_uuids: [old.uuid, gone.uuid] },
    });
    expect(created.statusCode).toBe(200);
    const company = created.json()[0];
    const moved = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/lists/${old.uuid}`,
      payload: { move_to_list_uuid: next.uuid },
    });
    expect(moved.statusCode).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/leads/api/lists/${gone.uuid}` })).statusCode,
    ).toBe(204);
    const after = await ctx.request(alice, { method: 'GET', url: `/leads/api/companies/${company.uuid}` });
    expect(after.json().lists).toEqual([next.uuid]);
  });

  it('rejects moving to a list of another team', async () => {
    const list = await createList(alice, 'Mine');
    const theirs = await createList(bob, 'Theirs');
    await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Cy' }]);
    const res = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/lists/${list.uuid}`,
      payload: { move_to_list_uuid: theirs.uuid },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('move_to_list_uuid');
  });
});
