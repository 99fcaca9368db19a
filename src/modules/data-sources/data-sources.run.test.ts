import { beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import type { TestContext, TestUser } from '../../../test/harness.js';
import type { ReaderRegistry } from '../channels/reader.js';
import {
  createSource,
  leadsOfList,
  metrics,
  put,
  runToEnd,
  SEARCH,
  sandboxPage,
  setUpDataSourceRun,
  source,
  wrapReaders,
} from './data-sources.run.test-support.js';
import { type DataSourceRunnerDeps, runDataSource } from './data-sources.runner.js';

const run = setUpDataSourceRun();
let ctx: TestContext;
let alice: TestUser;
let sender: string;
let deps: DataSourceRunnerDeps;
beforeAll(() => {
  ({ ctx, alice, sender, deps } = run);
});

describe('running a data source', () => {
  it('pages through a search into the list with its tags, counting duplicates and blacklisted people', async () => {
    const url = `${SEARCH}&sandbox_results=60`;
    const list = (await makeList(ctx.db, alice.teamId, 'Sales heads')).uuid;
    const elsewhere = (await makeList(ctx.db, alice.teamId, 'Known people')).uuid;
    const first = await sandboxPage(url, 1);
    // Two people of page 1 are already contacts (in another list), one is blacklisted by name.
    const known = first.people.slice(0, 2);
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: {
        list_uuid: elsewhere,
        leads: known.map((p) => ({ sn_id: p.sn_id, first_name: p.first_name, last_name: p.last_name })),
      },
    });
    expect(created.statusCode).toBeLessThan(300);
    const banned = first.people[5]!;
    const blacklisted = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { name: banned.name },
    });
    expect(blacklisted.statusCode).toBe(201);

    const ds = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url },
      tags: ['Sales heads search'],
      sender_profile_uuid: sender,
    });
    expect(await runToEnd(ds.uuid)).toBe(3);

    const after = await source(ds.uuid);
    expect(after).toMatchObject({ status: 'completed', total_results: 60, next_page: 4, errors: [] });
    expect(after.finished_at).toBeTruthy();
    expect(await metrics(ds.uuid)).toMatchObject({
      queued_records: 0,
      saved_records: 57,
      duplicate_records: 2,
      blacklisted_records: 1,
      error_records: 0,
    });
    const saved = await leadsOfList(list);
    expect(saved).toHaveLength(57);
    expect(new Set(saved.map((lead) => lead.sn_id)).size).toBe(57);
    expect(saved.every((lead) => lead.data_source_uuid === ds.uuid && lead.tags.includes(ds.tags[0]!))).toBe(
      true,
    );
    expect(saved.map((lead) => lead.name)).not.toContain(banned.name);
    // The known contacts stay where they were.
    expect((await leadsOfList(elsewhere)).map((lead) => lead.sn_id).sort()).toEqual(
      known.map((p) => p.sn_id).sort(),
    );

    // Running the finished search again saves no one twice: everybody is a duplicate now.
    await put(ds.uuid, { status: 'in_progress' });
    await runToEnd(ds.uuid);
    expect(await metrics(ds.uuid)).toMatchObject({
      saved_records: 57,
      duplicate_records: 2 + 59,
      blacklisted_records: 2,
    });
    expect(await leadsOfList(list)).toHaveLength(57);
  });

  it('is paused and resumed mid-search without saving anyone twice', async () => {
    const url = `${SEARCH}&sandbox_results=100&pause=1`;
    const list = (await makeList(ctx.db, alice.teamId, 'Paused')).uuid;
    const ds = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url },
      sender_profile_uuid: sender,
    });
    expect(await runDataSource(deps, alice.teamId, ds.uuid)).not.toBeNull();
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 25, queued_records: 75 });

    await put(ds.uuid, { status: 'on_hold' });
    expect(await runDataSource(deps, alice.teamId, ds.uuid)).toBeNull();
    expect(await source(ds.uuid)).toMatchObject({ status: 'on_hold', next_page: 2 });
    expect(await leadsOfList(list)).toHaveLength(25);

    // Paused while a page is being read: the page is dropped, the cursor stays.
    const pausing: ReaderRegistry = wrapReaders(deps.readers, async (read) => {
      const outcome = await read();
      await put(ds.uuid, { status: 'on_hold' });
      return outcome;
    });
    await put(ds.uuid, { status: 'in_progress' });
    expect(await runDataSource({ ...deps, readers: pausing }, alice.teamId, ds.uuid)).not.toBeNull();
    expect(await runDataSource(deps, alice.teamId, ds.uuid)).toBeNull();
    expect(await source(ds.uuid)).toMatchObject({ status: 'on_hold', next_page: 2 });
    expect(await leadsOfList(list)).toHaveLength(25);

    await put(ds.uuid, { status: 'in_progress' });
    await runToEnd(ds.uuid);
    const saved = await leadsOfList(list);
    expect(saved).toHaveLength(100);
    expect(new Set(saved.map((lead) => lead.sn_id)).size).toBe(100);
    expect(await metrics(ds.uuid)).toMatchObject({
      saved_records: 100,
      duplicate_records: 0,
      queued_records: 0,
    });
    expect((await source(ds.uuid)).status).toBe('completed');
  });

  it('stops at contacts_limit mid-page and goes on from that result when the limit is raised', async () => {
    const url = `${SEARCH}&sandbox_results=70&limit=1`;
    const list = (await makeList(ctx.db, alice.teamId, 'Limited')).uuid;
    const ds = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url, contacts_limit: 30 },
      sender_profile_uuid: sender,
    });
    // Three pages per run: two are read, saved together, and the second is cut after 5 results.
    await runToEnd(ds.uuid, { ...deps, pagesPerRun: 3 });
    expect(await source(ds.uuid)).toMatchObject({ status: 'contacts_limit_achieved', next_page: 2 });
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 30, duplicate_records: 0 });
    expect(await leadsOfList(list)).toHaveLength(30);

    await put(ds.uuid, { payload: { url, contacts_limit: null }, status: 'in_progress' });
    await runToEnd(ds.uuid, { ...deps, pagesPerRun: 3 });
    expect(await source(ds.uuid)).toMatchObject({ status: 'completed' });
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 70, duplicate_records: 0 });
    expect(new Set((await leadsOfList(list)).map((lead) => lead.sn_id)).size).toBe(70);
  });
});
