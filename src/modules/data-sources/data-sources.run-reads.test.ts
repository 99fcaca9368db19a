import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { makeList } from '../../../test/factories.js';
import type { TestContext, TestUser } from '../../../test/harness.js';
import { createSandboxReader } from '../browsers/sandbox/sandbox-reader.js';
import type { LinkedInReader, ReaderRegistry } from '../channels/reader.js';
import {
  createSource,
  metrics,
  put,
  runToEnd,
  SEARCH,
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

describe('running a data source: what it reads and when', () => {
  it('saves companies of an accounts search into the list', async () => {
    const list = (await makeList(ctx.db, alice.teamId, 'Accounts')).uuid;
    const ds = await createSource({
      type: 'sn_accounts_search',
      list_uuid: list,
      payload: {
        url: 'https://www.linkedin.com/sales/search/company?query=(industry%3A4)&sandbox_results=30',
      },
      tags: ['Accounts search'],
    });
    await runToEnd(ds.uuid);
    const companies = await ctx.db
      .selectFrom('companies')
      .select(['uuid', 'ln_id', 'lists', 'tags', 'data_source_uuid'])
      .where('team_id', '=', alice.teamId)
      .where('data_source_uuid', '=', ds.uuid)
      .execute();
    expect(companies).toHaveLength(30);
    expect(companies.every((c) => c.lists.includes(list) && c.tags.includes(ds.tags[0]!))).toBe(true);
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 30 });

    // Again, with one of the companies blacklisted: the others are duplicates.
    const [first] = companies;
    const banned = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies-blacklist',
      payload: {
        linkedin: (
          await ctx.db
            .selectFrom('companies')
            .select('linkedin')
            .where('uuid', '=', first!.uuid)
            .executeTakeFirstOrThrow()
        ).linkedin,
      },
    });
    expect(banned.statusCode).toBe(201);
    const running = await put(ds.uuid, { status: 'in_progress' });
    expect(running).toMatchObject({ status: 'in_progress', next_page: 1 });
    expect((await metrics(ds.uuid)).queued_records).toBe(0);
    await runToEnd(ds.uuid);
    expect(await metrics(ds.uuid)).toMatchObject({
      saved_records: 30,
      duplicate_records: 29,
      blacklisted_records: 1,
    });
  });

  it('reads at the sender\u2019s pace: a page, then back when the read budget allows', async () => {
    const slow = await makeSender(ctx.db, alice.teamId, { first_name: 'Slow' });
    await makeSandboxSeat(ctx.db, alice.teamId, slow.uuid);
    const reader = createSandboxReader(ctx.config.sandbox);
    const paced: LinkedInReader = { ...reader, pace: { ...reader.pace, searchPageIntervalMs: 60_000 } };
    const readers: ReaderRegistry = {
      resolve: async () => paced,
      available: async () => [{ senderProfileUuid: slow.uuid, reader: paced }],
    };
    const list = (await makeList(ctx.db, alice.teamId, 'Paced')).uuid;
    const ds = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: `${SEARCH}&sandbox_results=75&paced=1` },
      sender_profile_uuid: slow.uuid,
    });
    const before = Date.now();
    const next = await runDataSource({ ...deps, readers, pagesPerRun: 5 }, alice.teamId, ds.uuid);
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 25 });
    // The second page waits for the next slot: 60 s x [0.5, 1.5).
    expect(next!.getTime() - before).toBeGreaterThan(25_000);
    const pace = await ctx.db
      .selectFrom('linkedin_read_pace')
      .selectAll()
      .where('sender_profile_uuid', '=', slow.uuid)
      .executeTakeFirstOrThrow();
    expect(pace).toMatchObject({ kind: 'search', count: 1 });
  });

  it('waits for a sender that cannot read, and fails on a search that cannot be read', async () => {
    const seatless = await makeSender(ctx.db, alice.teamId, { first_name: 'Seatless' });
    const list = (await makeList(ctx.db, alice.teamId, 'Waiting')).uuid;
    const waiting = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH },
      sender_profile_uuid: seatless.uuid,
    });
    const next = await runDataSource(deps, alice.teamId, waiting.uuid);
    expect(next!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await runDataSource(deps, alice.teamId, waiting.uuid);
    const still = await source(waiting.uuid);
    expect(still.status).toBe('in_progress');
    expect(still.errors).toHaveLength(1);
    expect(still.errors[0]).toMatchObject({ reason: 'no_linkedin_seat' });

    const refusing = wrapReaders(deps.readers, async () => ({
      ok: false as const,
      reason: 'invalid_search' as const,
      message: 'This search no longer exists.',
    }));
    const broken = await createSource({
      type: 'sn_leads_saved_search',
      list_uuid: list,
      payload: { saved_search_url: `${SEARCH}&savedSearchId=1` },
      sender_profile_uuid: sender,
    });
    expect(await runDataSource({ ...deps, readers: refusing }, alice.teamId, broken.uuid)).toBeNull();
    const failed = await source(broken.uuid);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.errors[0]).toMatchObject({
      reason: 'invalid_search',
      message: 'This search no longer exists.',
      page: 1,
    });
    expect(failed.finished_at).toBeTruthy();

    const loggedOut = wrapReaders(deps.readers, async () => ({
      ok: false as const,
      reason: 'logged_out' as const,
      message: 'Signed out.',
    }));
    const other = await makeSender(ctx.db, alice.teamId, { first_name: 'Other' });
    await makeSandboxSeat(ctx.db, alice.teamId, other.uuid);
    const out = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: SEARCH },
      sender_profile_uuid: other.uuid,
    });
    expect(await runDataSource({ ...deps, readers: loggedOut }, alice.teamId, out.uuid)).not.toBeNull();
    expect((await source(out.uuid)).status).toBe('in_progress');
    const seat = await ctx.db
      .selectFrom('linkedin_browsers')
      .select('status')
      .where('sender_profile_uuid', '=', other.uuid)
      .executeTakeFirstOrThrow();
    expect(seat.status).toBe('login_issue');
    const issues = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', alice.teamId)
      .where('name', '=', 'sender_profile_issue')
      .execute();
    expect(issues).toHaveLength(1);
    expect(JSON.stringify(issues[0]!.payload)).toContain('Signed out.');
  });
});
