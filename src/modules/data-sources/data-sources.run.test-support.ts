// The set-up of the data source run tests (data-sources.run*.test.ts): a team with a sender on a sandbox
// seat, the runner's dependencies, and helpers that create, read and run sources through the API.
import { afterAll, beforeAll, expect } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { createLinkedInReaders } from '../../deps.js';
import { systemClock } from '../../lib/clock.js';
import { createSandboxReader } from '../browsers/sandbox/sandbox-reader.js';
import type { LinkedInReader, ReaderRegistry, SearchPage } from '../channels/reader.js';
import { type DataSourceRunnerDeps, runDataSource } from './data-sources.runner.js';

export const SEARCH = 'https://www.linkedin.com/sales/search/people?query=(keywords%3AHead%20of%20Sales)';

let ctx: TestContext;
let alice: TestUser;
let sender: string;
let deps: DataSourceRunnerDeps;

/**
 * Registers the file's set-up (a test context, alice, her sender on a sandbox seat, the runner's deps);
 * read them after it ran: `beforeAll(() => ({ ctx, alice, sender, deps } = run))`.
 */
export function setUpDataSourceRun() {
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
  return {
    get ctx() {
      return ctx;
    },
    get alice() {
      return alice;
    },
    get sender() {
      return sender;
    },
    get deps() {
      return deps;
    },
  };
}

export async function createSource(payload: Record<string, unknown>) {
  const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/data-sources', payload });
  expect(res.statusCode).toBe(201);
  return res.json() as { uuid: string; list_uuid: string; tags: string[] };
}

export async function source(uuid: string) {
  return (await ctx.request(alice, { method: 'GET', url: `/leads/api/data-sources/${uuid}` })).json();
}

export async function metrics(uuid: string) {
  const res = await ctx.request(alice, {
    method: 'PUT',
    url: '/leads/api/data-sources/metrics',
    payload: { uuids: [uuid] },
  });
  return res.json()[uuid];
}

export async function put(uuid: string, payload: Record<string, unknown>) {
  const res = await ctx.request(alice, { method: 'PUT', url: `/leads/api/data-sources/${uuid}`, payload });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Job runs until the source stops asking for another; returns how many ran. */
export async function runToEnd(uuid: string, runner = deps) {
  let runs = 0;
  while ((await runDataSource(runner, alice.teamId, uuid)) !== null) {
    runs += 1;
    if (runs > 500) throw new Error('runaway source');
  }
  return runs + 1;
}

export async function leadsOfList(list: string) {
  return ctx.db
    .selectFrom('leads')
    .select(['uuid', 'sn_id', 'name', 'tags', 'data_source_uuid', 'list_uuid'])
    .where('team_id', '=', alice.teamId)
    .where('list_uuid', '=', list)
    .execute();
}

export function sandboxPage(url: string, page: number) {
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

/** The registry's readers with searchPage passed through `around`. */
export function wrapReaders(
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
