import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { refreshLeadBlacklistFlags } from './blacklist-match.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

type Entry = {
  uuid: string;
  name: string | null;
  company_name: string | null;
  linkedin: string | null;
  ln_id: string | null;
  email: string | null;
};

async function addEntry(
  user: TestUser,
  payload: Record<string, unknown>,
  url = '/leads/api/leads-blacklist',
) {
  const res = await ctx.request(user, { method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Entry;
}

async function newTeamWithContacts(
  contacts: Array<
    Partial<{
      first_name: string;
      last_name: string;
      company_name: string;
      work_email: string;
      linkedin: string;
    }>
  >,
) {
  const user = await ctx.createUser();
  const list = await makeList(ctx.db, user.teamId);
  const leads = contacts.length > 0 ? await makeLeads(ctx.db, user.teamId, list.uuid, contacts) : [];
  return { user, list, leads };
}

async function flagged(teamId: number) {
  const rows = await ctx.db
    .selectFrom('leads')
    .select('name')
    .where('team_id', '=', teamId)
    .where('is_blacklisted', '=', true)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

describe('adding contact blacklist entries', () => {
  it('stores a LinkedIn profile URL as the nickname and flags the matching contact only', async () => {
    const { user } = await newTeamWithContacts([
      { first_name: 'Jane', linkedin: 'jane-smith-1a2b' },
      { first_name: 'John', linkedin: 'john-doe' },
    ]);
    const entry = await addEntry(user, { linkedin: 'https://de.linkedin.com/in/Jane-Smith-1a2b/?trk=x' });
    expect(entry).toMatchObject({ linkedin: 'jane-smith-1a2b', ln_id: null, email: null, name: null });
    expect(await flagged(user.teamId)).toEqual(['Jane']);
  });

  it('puts an ACoA… id in ln_id and matches contacts by it (also given as ln_id)', async () => {
    const { user, leads } = await newTeamWithContacts([{ first_name: 'Ida' }, { first_name: 'Ole' }]);
    await ctx.db
      .updateTable('leads')
      .set({ ln_id: 'ACoAAB6GuQ4Bxyz' })
      .where('team_id', '=', user.teamId)
      .where('uuid', '=', leads[0]!.uuid)
      .execute();
    const entry = await addEntry(user, { linkedin: 'https://www.linkedin.com/in/ACoAAB6GuQ4Bxyz' });
    expect(entry).toMatchObject({ linkedin: null, ln_id: 'ACoAAB6GuQ4Bxyz' });
    expect(await flagged(user.teamId)).toEqual(['Ida']);
    const same = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { ln_id: 'ACoAAB6GuQ4Bxyz' },
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.data.uuid).toBe(entry.uuid);
  });

  it('matches an e-mail against work and personal e-mail, case-insensitively; accepts work_email/personal_email', async () => {
    const { user, leads } = await newTeamWithContacts([
      { first_name: 'Work', work_email: 'boss@acme.com' },
      { first_name: 'Private' },
      { first_name: 'Other', work_email: 'other@acme.com' },
    ]);
    await ctx.db
      .updateTable('leads')
      .set({ personal_email: 'boss@acme.com' })
      .where('team_id', '=', user.teamId)
      .where('uuid', '=', leads[1]!.uuid)
      .execute();
    const entry = await addEntry(user, { email: '  Boss@ACME.com ' });
    expect(entry.email).toBe('boss@acme.com');
    expect(await flagged(user.teamId)).toEqual(['Private', 'Work']);
    const alias = await addEntry(user, { personal_email: 'OTHER@acme.com', work_email: 'other@acme.com' });
    expect(alias.email).toBe('other@acme.com');
    expect(await flagged(user.teamId)).toEqual(['Other', 'Private', 'Work']);
  });

  it('needs every field of the entry to match (name and company name together)', async () => {
    const { user } = await newTeamWithContacts([
      { first_name: 'Max', last_name: 'Muster', company_name: 'Acme GmbH' },
      { first_name: 'Max', last_name: 'Muster', company_name: 'Globex' },
      { first_name: 'Eva', last_name: 'Muster', company_name: 'Acme GmbH' },
    ]);
    const entry = await addEntry(user, { name: ' MAX  Muster ', company_name: 'acme gmbh' });
    expect(entry).toMatchObject({ name: 'max muster', company_name: 'acme gmbh' });
    const rows = await ctx.db
      .selectFrom('leads')
      .select(['company_name', 'is_blacklisted'])
      .where('team_id', '=', user.teamId)
      .where('is_blacklisted', '=', true)
      .execute();
    expect(rows).toEqual([{ company_name: 'Acme GmbH', is_blacklisted: true }]);
    await addEntry(user, { company_name: 'ACME GMBH' });
    expect(await flagged(user.teamId)).toEqual(['Eva Muster', 'Max Muster']);
  });

  it('rejects entries without a usable field with 422 naming the field', async () => {
    const none = await ctx.request(alice, { method: 'POST', url: '/leads/api/leads-blacklist', payload: {} });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toContain('at least one of linkedin, email, name or company_name');
    const blanks = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { name: '  ', email: null },
    });
    expect(blanks.statusCode).toBe(422);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ linkedin: 'https://example.com/in/jane' }, 'linkedin'],
      [{ linkedin: 'https://www.linkedin.com/sales/lead/ACwAAAbc123,NAME_SEARCH' }, 'linkedin'],
      [{ ln_id: 'jane-smith' }, 'ln_id'],
      [{ email: 'not-an-email' }, 'email'],
      [{ work_email: 'a@b.co', personal_email: 'c@d.co' }, 'personal_email'],
      [{ linkedin: 'ACoAAB6GuQ4Bxyz', ln_id: 'ACoAAB6GuQ4Bzzz' }, 'ln_id'],
      [{ email: 42 }, 'email'],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/leads-blacklist', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error.data, JSON.stringify(payload)).toHaveProperty(field);
    }
  });
});

describe('removing contact blacklist entries', () => {
  it('un-flags the contacts the entry matched unless another entry still matches them', async () => {
    const { user } = await newTeamWithContacts([
      { first_name: 'Both', work_email: 'both@acme.com', company_name: 'Acme' },
      { first_name: 'OnlyCompany', company_name: 'Acme' },
      { first_name: 'Clean', company_name: 'Globex' },
    ]);
    const byEmail = await addEntry(user, { email: 'both@acme.com' });
    const byCompany = await addEntry(user, { company_name: 'Acme' });
    expect(await flagged(user.teamId)).toEqual(['Both', 'OnlyCompany']);

    const first = await ctx.request(user, {
      method: 'DELETE',
      url: `/leads/api/leads-blacklist/${byCompany.uuid}`,
    });
    expect(first.statusCode).toBe(204);
    expect(await flagged(user.teamId)).toEqual(['Both']);
    await ctx.request(user, { method: 'DELETE', url: `/leads/api/leads-blacklist/${byEmail.uuid}` });
    expect(await flagged(user.teamId)).toEqual([]);
    const again = await ctx.request(user, {
      method: 'DELETE',
      url: `/leads/api/leads-blacklist/${byEmail.uuid}`,
    });
    expect(again.statusCode).toBe(404);
  });

  it('leaves flags right when two entries matching the same contact are deleted at once', async () => {
    const { user } = await newTeamWithContacts([
      { first_name: 'Twice', work_email: 'twice@acme.com', company_name: 'Acme' },
    ]);
    const a = await addEntry(user, { email: 'twice@acme.com' });
    const b = await addEntry(user, { company_name: 'acme' });
    await Promise.all(
      [a, b].map((entry) =>
        ctx.request(user, { method: 'DELETE', url: `/leads/api/leads-blacklist/${entry.uuid}` }),
      ),
    );
    expect(await flagged(user.teamId)).toEqual([]);
  });
});

describe('the shared flag helper', () => {
  it('flags contacts written after the entry when their writer refreshes them', async () => {
    const { user, list } = await newTeamWithContacts([]);
    await addEntry(user, { linkedin: 'late-comer' });
    const [late, other] = await makeLeads(ctx.db, user.teamId, list.uuid, [
      { first_name: 'Late', linkedin: 'late-comer' },
      { first_name: 'Other', linkedin: 'someone-else' },
    ]);
    expect(await refreshLeadBlacklistFlags(ctx.db, user.teamId, { uuids: [late!.uuid, other!.uuid] })).toBe(
      1,
    );
    expect(await flagged(user.teamId)).toEqual(['Late']);
    await ctx.db.deleteFrom('leads_blacklist').where('team_id', '=', user.teamId).execute();
    expect(await refreshLeadBlacklistFlags(ctx.db, user.teamId, { all: true })).toBe(1);
    expect(await flagged(user.teamId)).toEqual([]);
  });
});

describe('listing contact blacklist entries', () => {
  let erin: TestUser;
  beforeAll(async () => {
    erin = await ctx.createUser();
    await addEntry(erin, { email: 'spam@junk.io' });
    await addEntry(erin, { linkedin: 'https://www.linkedin.com/in/troll-42' });
    await addEntry(erin, { name: 'Hans Wurst', company_name: 'Wurst AG' });
    await addEntry(erin, { company_name: 'Competitor Inc' });
  });

  it('filters by normalised values and free text', async () => {
    const get = async (query: string) => {
      const res = await ctx.request(erin, { method: 'GET', url: `/leads/api/leads-blacklist${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Entry[]; total: number };
    };
    expect((await get('')).total).toBe(4);
    expect((await get('?filter[email]=SPAM@junk.io')).data.map((e) => e.email)).toEqual(['spam@junk.io']);
    expect(
      (await get(`?filter[linkedin]=${encodeURIComponent('https://linkedin.com/in/Troll-42')}`)).data.map(
        (e) => e.linkedin,
      ),
    ).toEqual(['troll-42']);
    expect((await get('?name=hans wurst')).total).toBe(1);
    expect((await get('?filter[company_name]=Competitor Inc')).total).toBe(1);
    expect((await get('?filter[q]=wurst')).total).toBe(1);
    expect((await get('?filter[q]=junk')).total).toBe(1);
    expect((await get('?limit=1&order_field=created_at&order_type=asc')).data[0]!.email).toBe('spam@junk.io');
  });

  it('answers on the alias path too', async () => {
    const listed = await ctx.request(erin, { method: 'GET', url: '/leads/api/blacklist/leads' });
    expect(listed.json().total).toBe(4);
    const entry = await addEntry(erin, { email: 'alias@junk.io' }, '/leads/api/blacklist/leads');
    const got = await ctx.request(erin, { method: 'GET', url: `/leads/api/leads-blacklist/${entry.uuid}` });
    expect(got.json().email).toBe('alias@junk.io');
    expect(
      (await ctx.request(erin, { method: 'DELETE', url: `/leads/api/blacklist/leads/${entry.uuid}` }))
        .statusCode,
    ).toBe(204);
  });
});

describe('team isolation', () => {
  it('never flags another team\u2019s contacts and answers 404 for another team\u2019s entry', async () => {
    const list = await makeList(ctx.db, alice.teamId);
    await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Shared', work_email: 'shared@acme.com' },
    ]);
    const bobEntry = await addEntry(bob, { email: 'shared@acme.com' });
    expect(await flagged(alice.teamId)).toEqual([]);
    const url = `/leads/api/leads-blacklist/${bobEntry.uuid}`;
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(404);
    const listed = await ctx.request(alice, { method: 'GET', url: '/leads/api/leads-blacklist?limit=1000' });
    expect(listed.json().data.map((e: Entry) => e.uuid)).not.toContain(bobEntry.uuid);
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(200);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/leads-blacklist/${newId()}` })).statusCode,
    ).toBe(404);
  });
});
