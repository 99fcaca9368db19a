import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../test/automation-factories.js';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let list: string;
let sender: string;

const SEARCH = 'https://www.linkedin.com/sales/search/people?query=(keywords%3ACTO)';
const url = '/leads/api/data-sources';

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  list = (await makeList(ctx.db, alice.teamId, 'CTOs')).uuid;
  sender = (await makeSender(ctx.db, alice.teamId)).uuid;
});
afterAll(() => ctx.close());

async function create(user: TestUser, payload: Record<string, unknown>) {
  return ctx.request(user, { method: 'POST', url, payload });
}

async function pendingRuns(uuid: string) {
  const jobs = await ctx.db
    .selectFrom('graphile_worker.jobs' as never)
    .select('key' as never)
    .where('key' as never, '=', `data-sources.run:${alice.teamId}:${uuid}` as never)
    .execute();
  return jobs.length;
}

describe('data sources CRUD', () => {
  it('creates a search source that starts at once, with tags by name or UUID and its sender', async () => {
    const tag = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/tags',
      payload: { name: 'Known' },
    });
    const res = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { search_url: SEARCH, contacts_limit: 100 },
      tags: ['From search', tag.json().uuid],
      sender_profile_uuid: sender,
    });
    expect(res.statusCode).toBe(201);
    const source = res.json();
    expect(source).toMatchObject({
      team_id: alice.teamId,
      user_id: alice.userId,
      type: 'sn_leads_search',
      status: 'in_progress',
      list_uuid: list,
      sender_profile_uuid: sender,
      payload: { url: SEARCH, contacts_limit: 100 },
      errors: [],
      next_page: 1,
      total_results: null,
    });
    expect(source.tags).toHaveLength(2);
    expect(source.tags).toContain(tag.json().uuid);
    expect(source.started_at).toBeTruthy();
    expect(await pendingRuns(source.uuid)).toBe(1);

    const got = await ctx.request(alice, { method: 'GET', url: `${url}/${source.uuid}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(source);
  });

  it('creates every search type with its URL, the URL-less ones without, and csv_leads as a record that does not run', async () => {
    for (const type of ['ln_my_network', 'ln_my_messenger']) {
      const res = await create(alice, { type, list_uuid: list, status: 'not_started' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ type, status: 'not_started', payload: { url: null } });
    }
    const post = await create(alice, {
      type: 'post_engagement',
      list_uuid: list,
      payload: { post_url: 'https://www.linkedin.com/posts/someone_activity-1' },
      status: 'not_started',
    });
    expect(post.json().payload.url).toBe('https://www.linkedin.com/posts/someone_activity-1');
    const csv = await create(alice, { type: 'csv_leads', list_uuid: list });
    expect(csv.statusCode).toBe(201);
    expect(csv.json()).toMatchObject({ status: 'not_started', payload: { url: null } });
    expect(await pendingRuns(csv.json().uuid)).toBe(0);
    const running = await ctx.request(alice, {
      method: 'PUT',
      url: `${url}/${csv.json().uuid}`,
      payload: { status: 'in_progress' },
    });
    expect(running.statusCode).toBe(422);
    expect(running.json().error.data).toHaveProperty('status');
  });

  it('refuses bad input with 422 naming each field', async () => {
    const empty = await create(alice, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.data).toHaveProperty('type');
    expect(empty.json().error.data).toHaveProperty('list_uuid');

    const badType = await create(alice, { type: 'xing_search', list_uuid: list });
    expect(badType.statusCode).toBe(422);
    expect(badType.json().error.data).toHaveProperty('type');

    const noUrl = await create(alice, { type: 'sn_leads_search', list_uuid: list });
    expect(noUrl.statusCode).toBe(422);
    expect(noUrl.json().error.message).toContain('needs payload.url');

    const notUrl = await create(alice, {
      type: 'ln_leads_search',
      list_uuid: list,
      payload: { url: 'cto berlin' },
    });
    expect(notUrl.statusCode).toBe(422);
    expect(notUrl.json().error.data).toHaveProperty(['payload.url']);

    const twoUrls = await create(alice, {
      type: 'sn_leads_list',
      list_uuid: list,
      payload: { url: SEARCH, list_url: `${SEARCH}&x=1` },
    });
    expect(twoUrls.statusCode).toBe(422);
    expect(twoUrls.json().error.data.payload).toEqual([
      'payload gives the URL more than once: send one of url, search_url, saved_search_url, list_url, post_url.',
    ]);

    const badLimit = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH, contacts_limit: 0 },
    });
    expect(badLimit.statusCode).toBe(422);
    expect(JSON.stringify(badLimit.json().error.data)).toContain('contacts_limit');

    const unknownKey = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH, keywords: 'cto' },
    });
    expect(unknownKey.statusCode).toBe(422);

    const serverOwned = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH },
      saved_records: 5,
    });
    expect(serverOwned.statusCode).toBe(422);

    const noList = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: '0190f000-0000-7000-8000-0000000000aa',
      payload: { url: SEARCH },
    });
    expect(noList.statusCode).toBe(422);
    expect(noList.json().error.data).toHaveProperty('list_uuid');

    const noSender = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH },
      sender_profile_uuid: '0190f000-0000-7000-8000-0000000000ab',
    });
    expect(noSender.statusCode).toBe(422);
    expect(noSender.json().error.data).toHaveProperty('sender_profile_uuid');

    const badTag = await create(alice, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH },
      tags: ['0190f000-0000-7000-8000-0000000000ac'],
    });
    expect(badTag.statusCode).toBe(422);
    expect(badTag.json().error.data).toHaveProperty(['tags.0']);
  });

  it('updates fields, pauses and resumes, and refuses what cannot change', async () => {
    const source = (
      await create(alice, {
        type: 'sn_leads_search',
        list_uuid: list,
        payload: { url: SEARCH },
        status: 'not_started',
      })
    ).json();
    const other = (await makeList(ctx.db, alice.teamId, 'Other')).uuid;
    const put = (payload: Record<string, unknown>) =>
      ctx.request(alice, { method: 'PUT', url: `${url}/${source.uuid}`, payload });

    const held = await put({ status: 'on_hold' });
    expect(held.statusCode).toBe(422);
    expect(held.json().error.data).toHaveProperty('status');

    const changed = await put({
      list_uuid: other,
      tags: ['Later'],
      payload: { url: `${SEARCH}&v=2`, contacts_limit: 10 },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      list_uuid: other,
      status: 'not_started',
      payload: { url: `${SEARCH}&v=2`, contacts_limit: 10 },
    });
    expect(changed.json().tags).toHaveLength(1);
    expect(await pendingRuns(source.uuid)).toBe(0);

    const started = await put({ status: 'in_progress' });
    expect(started.json()).toMatchObject({ status: 'in_progress' });
    expect(await pendingRuns(source.uuid)).toBe(1);
    const paused = await put({ status: 'on_hold' });
    expect(paused.json()).toMatchObject({ status: 'on_hold' });

    expect((await put({ type: 'sn_leads_search', payload: null })).statusCode).toBe(422);
    expect(
      (await put({ list_uuid: '0190f000-0000-7000-8000-0000000000aa' })).json().error.data,
    ).toHaveProperty('list_uuid');
    expect((await put({ status: 'completed' })).statusCode).toBe(422);
    expect((await put({ sender_profile_uuid: sender })).json().sender_profile_uuid).toBe(sender);
    expect((await put({ sender_profile_uuid: null })).json().sender_profile_uuid).toBeNull();
  });

  it('lists with filters and paging, and deletes with 200', async () => {
    const carol = await ctx.createUser();
    const carolList = (await makeList(ctx.db, carol.teamId)).uuid;
    for (const type of ['sn_leads_search', 'ln_leads_search', 'sn_accounts_search']) {
      await create(carol, { type, list_uuid: carolList, payload: { url: SEARCH }, status: 'not_started' });
    }
    const all = await ctx.request(carol, { method: 'GET', url: `${url}?limit=2` });
    expect(all.json()).toMatchObject({ total: 3, limit: 2, has_more: true });
    const byType = await ctx.request(carol, { method: 'GET', url: `${url}?filter[type]=ln_leads_search` });
    expect(byType.json().data.map((s: { type: string }) => s.type)).toEqual(['ln_leads_search']);
    const flat = await ctx.request(carol, {
      method: 'GET',
      url: `${url}?status=not_started&list_uuid=${carolList}`,
    });
    expect(flat.json().total).toBe(3);
    const badFilter = await ctx.request(carol, { method: 'GET', url: `${url}?filter[status]=running` });
    expect(badFilter.statusCode).toBe(422);

    const victim = byType.json().data[0].uuid;
    const deleted = await ctx.request(carol, { method: 'DELETE', url: `${url}/${victim}` });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().uuid).toBe(victim);
    expect((await ctx.request(carol, { method: 'GET', url: `${url}/${victim}` })).statusCode).toBe(404);
    expect((await ctx.request(carol, { method: 'DELETE', url: `${url}/${victim}` })).statusCode).toBe(404);
  });

  it('answers metrics per uuid, and refuses a body without uuids', async () => {
    const source = (
      await create(alice, {
        type: 'ln_leads_search',
        list_uuid: list,
        payload: { url: SEARCH },
        status: 'not_started',
      })
    ).json();
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: `${url}/metrics`,
      payload: { uuids: [source.uuid, '0190f000-0000-7000-8000-0000000000ad'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      [source.uuid]: {
        queued_records: 0,
        saved_records: 0,
        duplicate_records: 0,
        blacklisted_records: 0,
        error_records: 0,
        child_queued_records: 0,
        child_saved_records: 0,
        child_duplicate_records: 0,
      },
    });
    const missing = await ctx.request(alice, { method: 'PUT', url: `${url}/metrics`, payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty('uuids');
  });

  it('keeps teams apart: another team\u2019s source is 404 everywhere, its list and sender are unknown', async () => {
    const source = (
      await create(alice, {
        type: 'sn_leads_search',
        list_uuid: list,
        payload: { url: SEARCH },
        status: 'not_started',
      })
    ).json();
    const one = `${url}/${source.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url: one })).statusCode).toBe(404);
    expect(
      (await ctx.request(bob, { method: 'PUT', url: one, payload: { status: 'on_hold' } })).statusCode,
    ).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url: one })).statusCode).toBe(404);
    const listed = await ctx.request(bob, { method: 'GET', url });
    expect(listed.json().total).toBe(0);
    const metrics = await ctx.request(bob, {
      method: 'PUT',
      url: `${url}/metrics`,
      payload: { uuids: [source.uuid] },
    });
    expect(metrics.json()).toEqual({});
    const withAlicesList = await create(bob, {
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH },
    });
    expect(withAlicesList.statusCode).toBe(422);
    expect(withAlicesList.json().error.data).toHaveProperty('list_uuid');
    const bobList = (await makeList(ctx.db, bob.teamId)).uuid;
    const withAlicesSender = await create(bob, {
      type: 'sn_leads_search',
      list_uuid: bobList,
      payload: { url: SEARCH },
      sender_profile_uuid: sender,
    });
    expect(withAlicesSender.statusCode).toBe(422);
    expect(withAlicesSender.json().error.data).toHaveProperty('sender_profile_uuid');
    expect((await ctx.request(alice, { method: 'GET', url: one })).statusCode).toBe(200);
  });
});
