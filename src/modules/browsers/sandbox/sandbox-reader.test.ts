import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { parseLinkedInPerson } from '../../../lib/linkedin.js';
import { normalizeDomain } from '../../../lib/normalize.js';
import type { LinkedInReader, ReadContext, SearchPage } from '../../channels/reader.js';
import { createReaderRegistry } from '../../channels/registry.js';
import type { SandboxSettings } from './sandbox-driver.js';
import { createSandboxReader } from './sandbox-reader.js';

const settings: SandboxSettings = {
  seed: 7,
  acceptRate: 0.5,
  replyRate: 0.5,
  minResponseSeconds: 0,
  maxResponseSeconds: 0,
  weeklyInvitationLimit: 100,
  profileMissingRate: 0,
  readIntervalMs: 0,
};
const at = new Date('2026-06-01T10:00:00Z');
const context: ReadContext = { teamId: 1, senderProfileUuid: '0190f000-0000-7000-8000-000000000001', at };
const SN_SEARCH = 'https://www.linkedin.com/sales/search/people?query=(keywords%3ACTO)';

async function people(reader: LinkedInReader, url: string, page: number, type = 'sn_leads_search' as const) {
  const outcome = await reader.searchPage(context, { type, url }, page);
  if (!outcome.ok) throw new Error(outcome.message);
  if (outcome.value.kind !== 'people') throw new Error('expected people');
  return outcome.value as Extract<SearchPage, { kind: 'people' }>;
}

describe('sandbox reader', () => {
  const reader = createSandboxReader(settings);

  it('answers the same search page with the same people, whatever the paging and tracking parameters', async () => {
    const first = await people(reader, SN_SEARCH, 3);
    const again = await people(createSandboxReader(settings), `${SN_SEARCH}&page=3&sessionId=abc`, 3);
    expect(again.people).toEqual(first.people);
    expect(first.people).toHaveLength(25);
    expect(first.people.every((person) => person.sn_id?.startsWith('ACwAA') && person.name)).toBe(true);
    // Sales Navigator results carry their own id only, as on LinkedIn.
    expect(first.people.every((person) => person.linkedin === null && person.ln_id === null)).toBe(true);
  });

  it('pages through a search of the size the URL asks for, without repeating anyone', async () => {
    const url = `${SN_SEARCH}&sandbox_results=2500`;
    const seen = new Set<string>();
    let page = 1;
    let last: SearchPage | undefined;
    for (;;) {
      last = await people(reader, url, page);
      for (const person of last.people) seen.add(person.sn_id!);
      if (!last.hasMore) break;
      page += 1;
    }
    expect(page).toBe(100);
    expect(last.total).toBe(2500);
    expect(seen.size).toBe(2500);
    const beyond = await people(reader, url, 101);
    expect(beyond.people).toEqual([]);
    expect(beyond.hasMore).toBe(false);
  });

  it('caps a search at what LinkedIn lets an account page through', async () => {
    const sn = await people(reader, `${SN_SEARCH}&sandbox_results=9000`, 1);
    expect(sn.total).toBe(2500);
    const ln = await people(
      reader,
      'https://www.linkedin.com/search/results/people/?keywords=cto&sandbox_results=5000',
      1,
      'ln_leads_search' as never,
    );
    expect(ln.total).toBe(1000);
    expect(ln.pageSize).toBe(10);
    expect(ln.people[0]!.linkedin).toMatch(/^[a-z-]+-[0-9a-z]+$/);
  });

  it('finds a member by any identifier a search or profile showed, with the same profile', async () => {
    const [card] = (await people(reader, SN_SEARCH, 1)).people;
    const bySalesId = await reader.getProfile(context, { sn_id: card!.sn_id });
    if (!bySalesId.ok) throw new Error(bySalesId.message);
    const profile = bySalesId.value;
    expect(profile.name).toBe(card!.name);
    expect(profile.headline).toBe(card!.headline);
    for (const ref of [
      { linkedin: profile.linkedin },
      { ln_id: profile.ln_id },
      { ln_member_id: profile.ln_member_id },
    ]) {
      const again = await reader.getProfile(context, ref);
      expect(again).toEqual({ ok: true, value: profile });
    }
    // The identifiers are ones our LinkedIn parser accepts, and the employer is a sandbox company.
    expect(parseLinkedInPerson(profile.ln_id)).toEqual({ ln_id: profile.ln_id });
    expect(parseLinkedInPerson(profile.sn_id)).toEqual({ sn_id: profile.sn_id });
    expect(parseLinkedInPerson(`https://www.linkedin.com/in/${profile.linkedin}`)).toEqual({
      linkedin: profile.linkedin,
    });
    const employer = await reader.getCompany(context, { ln_id: Number(profile.company_ln_id) });
    expect(employer.ok && employer.value.name).toBe(profile.company_name);
    expect(employer.ok && normalizeDomain(employer.value.domain)).toBe(employer.ok && employer.value.domain);
  });

  it('reads a nickname it never issued as a stable person that keeps it; missing- nicknames are not found', async () => {
    const a = await reader.getProfile(context, { linkedin: 'jane-smith-42' });
    const b = await reader.getProfile(context, { linkedin: 'jane-smith-42' });
    expect(a).toEqual(b);
    expect(a.ok && a.value.linkedin).toBe('jane-smith-42');
    expect(a.ok && a.value.first_name).toBeTruthy();
    expect(await reader.getProfile(context, { linkedin: 'missing-someone' })).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    expect(await reader.getProfile(context, {})).toMatchObject({ ok: false, reason: 'not_found' });
  });

  it('answers "not found" for the configured share of profiles', async () => {
    const lossy = createSandboxReader({ ...settings, profileMissingRate: 0.25 });
    let missing = 0;
    for (let i = 0; i < 400; i += 1) {
      const outcome = await lossy.getProfile(context, { linkedin: `person-${i}` });
      if (!outcome.ok) missing += 1;
    }
    expect(missing).toBeGreaterThan(60);
    expect(missing).toBeLessThan(140);
  });

  it('lists companies for account searches and refuses what is not a search', async () => {
    const outcome = await reader.searchPage(
      context,
      { type: 'sn_accounts_search', url: 'https://www.linkedin.com/sales/search/company?query=(x)' },
      1,
    );
    expect(outcome.ok && outcome.value.kind).toBe('companies');
    const company =
      outcome.ok && outcome.value.kind === 'companies' ? outcome.value.companies[0]! : undefined;
    const page = await reader.getCompany(context, { linkedin: company!.linkedin });
    expect(page.ok && page.value.name).toBe(company!.name);
    expect(await reader.searchPage(context, { type: 'ln_leads_search', url: 'not a url' }, 1)).toMatchObject({
      ok: false,
      reason: 'invalid_search',
    });
    expect(await reader.searchPage(context, { type: 'ln_leads_search', url: SN_SEARCH }, 0)).toMatchObject({
      ok: false,
      reason: 'invalid_search',
    });
  });

  it('gives every sender its own network', async () => {
    const mine = await people(reader, null as never, 1, 'ln_my_network' as never);
    const other = await reader.searchPage(
      { ...context, senderProfileUuid: '0190f000-0000-7000-8000-000000000002' },
      { type: 'ln_my_network', url: null },
      1,
    );
    expect(other.ok && other.value.kind === 'people' && other.value.people[0]!.linkedin).not.toBe(
      mine.people[0]!.linkedin,
    );
  });
});

describe('reader registry', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("resolves a sender's reader by its seat's driver kind, and says why when it cannot", async () => {
    const user = await ctx.createUser();
    const registry = createReaderRegistry(ctx.db, { sandbox: () => createSandboxReader(settings) });
    const reading = await makeSender(ctx.db, user.teamId);
    await makeSandboxSeat(ctx.db, user.teamId, reading.uuid);
    const resolved = await registry.resolve(user.teamId, reading.uuid);
    expect('name' in resolved && resolved.name).toBe('sandbox');

    const seatless = await makeSender(ctx.db, user.teamId);
    expect(await registry.resolve(user.teamId, seatless.uuid)).toEqual({ unavailable: 'no_linkedin_seat' });

    const stopped = await makeSender(ctx.db, user.teamId);
    const seat = await makeSandboxSeat(ctx.db, user.teamId, stopped.uuid);
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ status: 'login_issue' })
      .where('id', '=', seat.id)
      .execute();
    expect(await registry.resolve(user.teamId, stopped.uuid)).toEqual({ unavailable: 'seat_login_issue' });

    const disabled = await makeSender(ctx.db, user.teamId);
    await makeSandboxSeat(ctx.db, user.teamId, disabled.uuid);
    await ctx.db
      .updateTable('sender_profiles')
      .set({ status: 'disabled' })
      .where('uuid', '=', disabled.uuid)
      .execute();
    expect(await registry.resolve(user.teamId, disabled.uuid)).toEqual({ unavailable: 'sender_disabled' });

    const chromium = await makeSender(ctx.db, user.teamId);
    await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: chromium.uuid,
        driver: 'chromium',
        status: 'running',
      })
      .execute();
    expect(await registry.resolve(user.teamId, chromium.uuid)).toEqual({ unavailable: 'no_reader' });

    const available = await registry.available(user.teamId);
    expect(available.map((entry) => entry.senderProfileUuid)).toEqual([reading.uuid]);
    const other = await ctx.createUser();
    expect(await registry.available(other.teamId)).toEqual([]);
    expect(await registry.resolve(other.teamId, reading.uuid)).toEqual({ unavailable: 'no_linkedin_seat' });
  });
});
