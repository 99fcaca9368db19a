import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

type Tag = { uuid: string; name: string; color: string | null; team_id: number };

async function createTag(user: TestUser, payload: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/tags', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Tag;
}

async function makeCompany(teamId: number, values: { name: string; tags?: string[] }) {
  return ctx.db
    .insertInto('companies')
    .values({ team_id: teamId, uuid: newId(), custom_fields: '{}', ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function tagLeads(teamId: number, uuids: string[], tags: string[]) {
  await ctx.db
    .updateTable('leads')
    .set({ tags })
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
}

describe('tags CRUD', () => {
  it('creates a tag with a colour, reads, renames, recolours and deletes it', async () => {
    const tag = await createTag(alice, { name: '  Hot Lead ', color: '#FF5733' });
    expect(tag).toMatchObject({ name: 'Hot Lead', color: '#ff5733', team_id: alice.teamId });

    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/tags/${tag.uuid}` });
    expect(got.json()).toMatchObject({ uuid: tag.uuid, name: 'Hot Lead' });

    const renamed = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/tags/${tag.uuid}`,
      payload: { name: 'Warm Lead', color: '#abc' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Warm Lead', color: '#aabbcc' });

    const cleared = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/tags/${tag.uuid}`,
      payload: { color: null },
    });
    expect(cleared.json()).toMatchObject({ name: 'Warm Lead', color: null });

    const deleted = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/tags/${tag.uuid}` });
    expect(deleted.statusCode).toBe(204);
    expect((await ctx.request(alice, { method: 'GET', url: `/leads/api/tags/${tag.uuid}` })).statusCode).toBe(
      404,
    );
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/leads/api/tags/${tag.uuid}` })).statusCode,
    ).toBe(404);
  });

  it('refuses a second tag of the same name in any case with 409, but another team may use it', async () => {
    const first = await createTag(alice, { name: 'VIP' });
    const again = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/tags',
      payload: { name: 'vip' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('A tag named "VIP" already exists');
    expect(again.json().error.data).toMatchObject({ uuid: first.uuid });

    const other = await createTag(alice, { name: 'Other' });
    const rename = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/tags/${other.uuid}`,
      payload: { name: 'Vip' },
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().message).toContain('"VIP"');

    await createTag(bob, { name: 'VIP' });
  });

  it('validates the name and the colour, naming the field', async () => {
    const missing = await ctx.request(alice, { method: 'POST', url: '/leads/api/tags', payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty('name');
    const blank = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/tags',
      payload: { name: '   ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().error.data).toHaveProperty('name');
    for (const color of ['red', '#12345', 'ff5733', '#gggggg']) {
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/tags',
        payload: { name: 'C', color },
      });
      expect(res.statusCode, color).toBe(422);
      expect(res.json().error.data).toHaveProperty('color');
    }
    const tag = await createTag(alice, { name: 'Empty update' });
    const empty = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/tags/${tag.uuid}`,
      payload: {},
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toContain('name');
  });

  it('keeps teams apart: another team\u2019s tag is 404 for every operation and left out of lists and metrics', async () => {
    const tag = await createTag(alice, { name: 'Private tag' });
    const url = `/leads/api/tags/${tag.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'PUT', url, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    const listed = await ctx.request(bob, { method: 'GET', url: '/leads/api/tags?limit=1000' });
    expect(listed.json().data.map((t: Tag) => t.uuid)).not.toContain(tag.uuid);
    const metrics = await ctx.request(bob, {
      method: 'POST',
      url: '/leads/api/tags/metrics',
      payload: { uuids: [tag.uuid] },
    });
    expect(metrics.json()).toEqual({});
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('listing tags', () => {
  let carol: TestUser;
  beforeAll(async () => {
    carol = await ctx.createUser();
    for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta'])
      await createTag(carol, { name, color: '#000000' });
  });

  it('filters by free text, by name in any case and by uuid, and sorts by name', async () => {
    const q = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/tags?filter[q]=TA&order_field=name&order_type=asc',
    });
    expect(q.json().data.map((t: Tag) => t.name)).toEqual(['Beta', 'Delta']);
    const byName = await ctx.request(carol, { method: 'GET', url: '/leads/api/tags?name=gamma' });
    expect(byName.json()).toMatchObject({ total: 1, data: [{ name: 'Gamma' }] });
    const gamma = byName.json().data[0] as Tag;
    const byUuid = await ctx.request(carol, {
      method: 'GET',
      url: `/leads/api/tags?filter[uuid][]=${gamma.uuid}`,
    });
    expect(byUuid.json().data.map((t: Tag) => t.name)).toEqual(['Gamma']);
    const desc = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/tags?order_field=name&order_type=desc',
    });
    expect(desc.json().data.map((t: Tag) => t.name)).toEqual(['Gamma', 'Delta', 'Beta', 'Alpha']);
  });

  it('pages with the envelope and filters by created_at', async () => {
    const page = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/tags?limit=3&order_field=updated_at',
    });
    expect(page.json()).toMatchObject({ limit: 3, offset: 0, total: 4, has_more: true });
    const future = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/tags?filter[created_at][>]=2999-01-01',
    });
    expect(future.json().total).toBe(0);
  });

  it('rejects unknown sort fields and filter keys', async () => {
    const sort = await ctx.request(carol, { method: 'GET', url: '/leads/api/tags?order_field=size' });
    expect(sort.statusCode).toBe(422);
    expect(sort.json().error.data).toHaveProperty('order_field');
    const key = await ctx.request(carol, { method: 'GET', url: '/leads/api/tags?filter[size]=1' });
    expect(key.statusCode).toBe(422);
    expect(key.json().message).toContain('size');
  });
});

describe('tags on contacts and companies', () => {
  it('counts contacts and companies per tag, and deleting a tag takes it off every record', async () => {
    const dave = await ctx.createUser();
    const hot = await createTag(dave, { name: 'Hot' });
    const cold = await createTag(dave, { name: 'Cold' });
    const unused = await createTag(dave, { name: 'Unused' });
    const list = await makeList(ctx.db, dave.teamId);
    const leads = await makeLeads(ctx.db, dave.teamId, list.uuid, [
      { first_name: 'Ann' },
      { first_name: 'Ben' },
      { first_name: 'Cy' },
    ]);
    await tagLeads(dave.teamId, [leads[0]!.uuid, leads[1]!.uuid], [hot.uuid, cold.uuid]);
    await tagLeads(dave.teamId, [leads[2]!.uuid], [cold.uuid]);
    const acme = await makeCompany(dave.teamId, { name: 'Acme', tags: [hot.uuid] });
    await makeCompany(dave.teamId, { name: 'Globex', tags: [] });

    const metrics = await ctx.request(dave, {
      method: 'POST',
      url: '/leads/api/tags/metrics',
      payload: { uuids: [hot.uuid, cold.uuid, unused.uuid, newId()] },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.json()).toEqual({
      [hot.uuid]: { leads_count: 2, companies_count: 1 },
      [cold.uuid]: { leads_count: 3, companies_count: 0 },
      [unused.uuid]: { leads_count: 0, companies_count: 0 },
    });
    const onlyLeads = await ctx.request(dave, {
      method: 'POST',
      url: '/leads/api/tags/metrics',
      payload: { uuids: [hot.uuid], metrics: ['leads_count'] },
    });
    expect(onlyLeads.json()).toEqual({ [hot.uuid]: { leads_count: 2 } });
    const badMetric = await ctx.request(dave, {
      method: 'POST',
      url: '/leads/api/tags/metrics',
      payload: { uuids: [hot.uuid], metrics: ['deals_count'] },
    });
    expect(badMetric.statusCode).toBe(422);

    const before = await ctx.db
      .selectFrom('leads')
      .select('updated_at')
      .where('uuid', '=', leads[0]!.uuid)
      .executeTakeFirstOrThrow();
    expect(
      (await ctx.request(dave, { method: 'DELETE', url: `/leads/api/tags/${hot.uuid}` })).statusCode,
    ).toBe(204);
    // The tag row is gone at once; a background job takes its uuid off the records.
    await ctx.startWorkers();
    // The job strips contacts first, then companies: wait until neither carries the tag.
    await waitFor(async () => {
      for (const table of ['leads', 'companies'] as const) {
        const tagged = await ctx.db
          .selectFrom(table)
          .select('uuid')
          .where('team_id', '=', dave.teamId)
          .where(sql<boolean>`tags @> array[${hot.uuid}::uuid]`)
          .execute();
        if (tagged.length > 0) return false;
      }
      return true;
    });
    const rows = await ctx.db
      .selectFrom('leads')
      .select(['uuid', 'tags', 'updated_at'])
      .where('team_id', '=', dave.teamId)
      .orderBy('uuid')
      .execute();
    for (const row of rows) expect(row.tags).toEqual([cold.uuid]);
    expect(rows.find((row) => row.uuid === leads[0]!.uuid)!.updated_at.getTime()).toBeGreaterThan(
      before.updated_at.getTime(),
    );
    const company = await ctx.db
      .selectFrom('companies')
      .select('tags')
      .where('team_id', '=', dave.teamId)
      .where('uuid', '=', acme.uuid)
      .executeTakeFirstOrThrow();
    expect(company.tags).toEqual([]);
  });
});
