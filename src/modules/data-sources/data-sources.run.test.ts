// The run of a data source, driven directly (one call = one job run) so every step is deterministic:
// paging into the list with tags, dedup and blacklist counted, contacts_limit cutting a page, pause and
// resume without saving anyone twice, the read pace, and the failures.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { createLinkedInReaders } from '../../deps.js';
import { systemClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import { createSandboxReader } from '../browsers/sandbox/sandbox-reader.js';
import type { LinkedInReader, ReaderRegistry, SearchPage } from '../channels/reader.js';
import { dataSourceJobHandler, resumeStalledDataSources } from './data-sources.jobs.js';
import { type DataSourceRunnerDeps, runDataSource } from './data-sources.runner.js';

let ctx: TestContext;
let alice: TestUser;
let sender: string;
let deps: DataSourceRunnerDeps;

const SEARCH = 'https://www.linkedin.com/sales/search/people?query=(keywords%3AHead%20of%20Sales)';

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  sender = (await makeSender(ctx.db, alice.teamId)).uuid;
  await makeSandboxSeat(ctx.db, alice.teamId, sender);
  deps = {
    db: ctx.db,
    clock: systemClock,
    readers: createLinkedInReaders({ db: ctx.db, config: ctx.config, clock: systemClock }),
    pagesPerRun: 1,
    waitMs: 60_000,
    random: () => 0.5,
  };
});
afterAll(() => ctx.close());

async function createSource(payload: Record<string, unknown>) {
  const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/data-sources', payload });
  expect(res.statusCode).toBe(201);
  return res.json() as { uuid: string; list_uuid: string; tags: string[] };
}

async function source(uuid: string) {
  return (await ctx.request(alice, { method: 'GET', url: `/leads/api/data-sources/${uuid}` })).json();
}

async function metrics(uuid: string) {
  const res = await ctx.request(alice, {
    method: 'PUT',
    url: '/leads/api/data-sources/metrics',
    payload: { uuids: [uuid] },
  });
  return res.json()[uuid];
}

async function put(uuid: string, payload: Record<string, unknown>) {
  const res = await ctx.request(alice, { method: 'PUT', url: `/leads/api/data-sources/${uuid}`, payload });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Job runs until the source stops asking for another; returns how many ran. */
async function runToEnd(uuid: string, runner = deps) {
  let runs = 0;
  while ((await runDataSource(runner, alice.teamId, uuid)) !== null) {
    runs += 1;
    if (runs > 500) throw new Error('runaway source');
  }
  return runs + 1;
}

async function leadsOfList(list: string) {
  return ctx.db
    .selectFrom('leads')
    .select(['uuid', 'sn_id', 'name', 'tags', 'data_source_uuid', 'list_uuid'])
    .where('team_id', '=', alice.teamId)
    .where('list_uuid', '=', list)
    .execute();
}

function sandboxPage(url: string, page: number) {
  return createSandboxReader(ctx.config.sandbox)
    .searchPage(
      { teamId: alice.teamId, senderProfileUuid: sender, at: new Date() },
      { type: 'sn_leads_search', url },
      page,
    )
    .then((outcome) => {
      if (!outcome.ok || outcome.value.kind !== 'people') throw new Error('no page');
      return outcome.value as Extract<SearchPage, { kind: 'people' }>;
    });
}

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

describe('the run job', () => {
  it('steps back while another live run holds the source, and looks again later', async () => {
    const list = (await makeList(ctx.db, alice.teamId, 'Locked')).uuid;
    const ds = await createSource({
      type: 'sn_leads_search',
      list_uuid: list,
      payload: { url: `${SEARCH}&sandbox_results=30&locked=1` },
      sender_profile_uuid: sender,
    });
    const handler = dataSourceJobHandler(deps);
    const context = { jobId: '1', attempt: 1, maxAttempts: 25, log: createLogger('silent') };
    const key = `data-sources.run:${alice.teamId}:${ds.uuid}`;
    const runAt = async () =>
      (
        await sql<{ run_at: Date }>`select run_at from graphile_worker.jobs where key = ${key}`.execute(
          ctx.db,
        )
      ).rows.map((row) => row.run_at.getTime());
    const before = Date.now();
    await ctx.db.connection().execute(async (other) => {
      await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(other);
      try {
        // The pending run (from the create) is due now, so it is kept as it is.
        await handler.run({ teamId: alice.teamId, uuid: ds.uuid }, context);
        expect(await runAt()).toHaveLength(1);
        await sql`delete from graphile_worker._private_jobs where key = ${key}`.execute(ctx.db);
        await handler.run({ teamId: alice.teamId, uuid: ds.uuid }, context);
        const [later] = await runAt();
        expect(later).toBeGreaterThanOrEqual(before + 59_000);
      } finally {
        await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(other);
      }
    });
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 0 });
    await handler.run({ teamId: alice.teamId, uuid: ds.uuid }, context);
    expect(await metrics(ds.uuid)).toMatchObject({ saved_records: 25 });
    // The run scheduled its successor at once, replacing the later look.
    const [next] = await runAt();
    expect(next).toBeLessThan(before + 30_000);
  });
});

describe('running sources without a live run', () => {
  it('get a new run from the scheduled sweep; pending and running ones are left alone', async () => {
    const list = (await makeList(ctx.db, alice.teamId, 'Sweep')).uuid;
    const make = async (n: number) =>
      createSource({
        type: 'sn_leads_search',
        list_uuid: list,
        payload: { url: `${SEARCH}&sweep=${n}` },
        sender_profile_uuid: sender,
      });
    const [lost, dead, pending] = [await make(1), await make(2), await make(3)];
    const key = (uuid: string) => `data-sources.run:${alice.teamId}:${uuid}`;
    const job = async (uuid: string) =>
      (
        await sql<{ run_at: Date; attempts: number; max_attempts: number }>`
          select run_at, attempts, max_attempts from graphile_worker._private_jobs where key = ${key(uuid)}`.execute(
          ctx.db,
        )
      ).rows[0];
    await sql`delete from graphile_worker._private_jobs where key = ${key(lost.uuid)}`.execute(ctx.db);
    await sql`update graphile_worker._private_jobs set attempts = max_attempts where key = ${key(dead.uuid)}`.execute(
      ctx.db,
    );
    const later = new Date(Date.now() + 3_600_000);
    await sql`update graphile_worker._private_jobs set run_at = ${later} where key = ${key(pending.uuid)}`.execute(
      ctx.db,
    );
    expect(await resumeStalledDataSources(ctx.db)).toBeGreaterThanOrEqual(2);
    expect(await job(lost.uuid)).toMatchObject({ attempts: 0 });
    expect(await job(dead.uuid)).toMatchObject({ attempts: 0 });
    expect((await job(pending.uuid))!.run_at.getTime()).toBe(later.getTime());
    // Nothing left to resume for them.
    await resumeStalledDataSources(ctx.db);
    expect((await job(pending.uuid))!.run_at.getTime()).toBe(later.getTime());
  });
});

/** The registry's readers with searchPage passed through `around`. */
function wrapReaders(
  readers: ReaderRegistry,
  around: (read: () => ReturnType<LinkedInReader['searchPage']>) => ReturnType<LinkedInReader['searchPage']>,
): ReaderRegistry {
  const wrap = (reader: LinkedInReader): LinkedInReader => ({
    ...reader,
    pace: reader.pace,
    searchPage: (context, search, page) => around(() => reader.searchPage(context, search, page)),
  });
  return {
    async resolve(teamId, uuid) {
      const found = await readers.resolve(teamId, uuid);
      return 'unavailable' in found ? found : wrap(found);
    },
    async available(teamId) {
      return (await readers.available(teamId)).map((entry) => ({ ...entry, reader: wrap(entry.reader) }));
    },
  };
}
