import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
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

type Entry = {
  uuid: string;
  name: string | null;
  domain: string | null;
  linkedin: string | null;
  ln_id: number | null;
};
type CompanyValues = { name: string; domain?: string; linkedin?: string; ln_id?: number };

async function addEntry(
  user: TestUser,
  payload: Record<string, unknown>,
  url = '/leads/api/companies-blacklist',
) {
  const res = await ctx.request(user, { method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Entry;
}

async function newTeamWithCompanies(companies: CompanyValues[]) {
  const user = await ctx.createUser();
  await ctx.db
    .insertInto('companies')
    .values(
      companies.map((company) => ({ team_id: user.teamId, uuid: newId(), custom_fields: '{}', ...company })),
    )
    .execute();
  return user;
}

async function flagged(teamId: number) {
  const rows = await ctx.db
    .selectFrom('companies')
    .select('name')
    .where('team_id', '=', teamId)
    .where('is_blacklisted', '=', true)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

describe('adding company blacklist entries', () => {
  it('reduces a website URL or e-mail to the domain and flags the company with that domain', async () => {
    const user = await newTeamWithCompanies([
      { name: 'Spammer', domain: 'spammer.com' },
      { name: 'Decent', domain: 'decent.com' },
    ]);
    const entry = await addEntry(user, { domain: 'https://www.Spammer.com/about?x=1' });
    expect(entry).toMatchObject({ domain: 'spammer.com', name: null, linkedin: null, ln_id: null });
    expect(await flagged(user.teamId)).toEqual(['Spammer']);
    const dup = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/companies-blacklist',
      payload: { domain: 'sales@spammer.com' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.data.uuid).toBe(entry.uuid);
  });

  it('takes a LinkedIn page URL as the slug and a numeric id (URL, number or ln_id) as ln_id', async () => {
    const user = await newTeamWithCompanies([
      { name: 'Slugged', linkedin: 'acme-corp' },
      { name: 'Numbered', ln_id: 1234 },
      { name: 'Untouched', ln_id: 999 },
    ]);
    const slug = await addEntry(user, { linkedin: 'https://www.linkedin.com/company/Acme-Corp/about/' });
    expect(slug).toMatchObject({ linkedin: 'acme-corp', ln_id: null });
    const numeric = await addEntry(user, { linkedin: 'https://www.linkedin.com/company/1234' });
    expect(numeric).toMatchObject({ linkedin: null, ln_id: 1234 });
    expect(await flagged(user.teamId)).toEqual(['Numbered', 'Slugged']);
    const asNumber = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/companies-blacklist',
      payload: { ln_id: 1234 },
    });
    expect(asNumber.statusCode).toBe(409);
    const asString = await addEntry(user, { ln_id: '999', name: 'Untouched' });
    expect(asString).toMatchObject({ ln_id: 999, name: 'untouched' });
    expect(await flagged(user.teamId)).toEqual(['Numbered', 'Slugged', 'Untouched']);
  });

  it('matches names case-insensitively and needs every field of the entry to match', async () => {
    const user = await newTeamWithCompanies([
      { name: 'Globex', domain: 'globex.com' },
      { name: 'GLOBEX', domain: 'globex.de' },
      { name: 'Initech', domain: 'globex.org' },
    ]);
    await addEntry(user, { name: 'globex', domain: 'globex.de' });
    expect(await flagged(user.teamId)).toEqual(['GLOBEX']);
    await addEntry(user, { name: ' Globex ' });
    expect(await flagged(user.teamId)).toEqual(['GLOBEX', 'Globex']);
  });

  it('rejects entries without a usable field with 422 naming the field', async () => {
    const none = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies-blacklist',
      payload: {},
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toContain('at least one of linkedin, domain or name');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ domain: 'not a domain' }, 'domain'],
      [{ linkedin: 'https://www.linkedin.com/in/jane' }, 'linkedin'],
      [{ ln_id: 'abc' }, 'ln_id'],
      [{ ln_id: 0 }, 'ln_id'],
      [{ linkedin: 'https://www.linkedin.com/company/1234', ln_id: 5678 }, 'ln_id'],
      [{ name: 7 }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/companies-blacklist',
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error.data, JSON.stringify(payload)).toHaveProperty(field);
    }
  });
});

describe('removing company blacklist entries', () => {
  it('un-flags the companies the entry matched unless another entry still matches them', async () => {
    const user = await newTeamWithCompanies([
      { name: 'Acme', domain: 'acme.com' },
      { name: 'Acme', domain: 'acme.de' },
    ]);
    const byName = await addEntry(user, { name: 'acme' });
    const byDomain = await addEntry(user, { domain: 'acme.com' });
    expect(await flagged(user.teamId)).toEqual(['Acme', 'Acme']);
    expect(
      (await ctx.request(user, { method: 'DELETE', url: `/leads/api/companies-blacklist/${byName.uuid}` }))
        .statusCode,
    ).toBe(204);
    const rows = await ctx.db
      .selectFrom('companies')
      .select(['domain', 'is_blacklisted'])
      .where('team_id', '=', user.teamId)
      .orderBy('domain')
      .execute();
    expect(rows).toEqual([
      { domain: 'acme.com', is_blacklisted: true },
      { domain: 'acme.de', is_blacklisted: false },
    ]);
    await ctx.request(user, { method: 'DELETE', url: `/leads/api/companies-blacklist/${byDomain.uuid}` });
    expect(await flagged(user.teamId)).toEqual([]);
  });
});

describe('listing company blacklist entries', () => {
  it('filters by normalised domain, LinkedIn, name and free text; answers on the alias path', async () => {
    const carol = await ctx.createUser();
    await addEntry(carol, { domain: 'spam.io' });
    await addEntry(carol, { linkedin: 'https://www.linkedin.com/company/rival-co' });
    await addEntry(carol, { name: 'Rival Holdings' }, '/leads/api/blacklist/companies');
    const get = async (query: string, base = '/leads/api/companies-blacklist') => {
      const res = await ctx.request(carol, { method: 'GET', url: `${base}${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Entry[]; total: number };
    };
    expect((await get('')).total).toBe(3);
    expect(
      (await get(`?filter[domain]=${encodeURIComponent('https://www.spam.io/')}`)).data.map((e) => e.domain),
    ).toEqual(['spam.io']);
    expect(
      (await get(`?filter[linkedin]=${encodeURIComponent('linkedin.com/company/Rival-Co')}`)).total,
    ).toBe(1);
    expect((await get('?name=RIVAL HOLDINGS')).total).toBe(1);
    expect((await get('?filter[q]=rival')).total).toBe(2);
    expect((await get('', '/leads/api/blacklist/companies')).total).toBe(3);
    const bad = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/companies-blacklist?filter[email]=x',
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('team isolation', () => {
  it('never flags another team\u2019s companies and answers 404 for another team\u2019s entry', async () => {
    await ctx.db
      .insertInto('companies')
      .values({
        team_id: alice.teamId,
        uuid: newId(),
        name: 'Shared',
        domain: 'shared.com',
        custom_fields: '{}',
      })
      .execute();
    const entry = await addEntry(bob, { domain: 'shared.com' });
    expect(await flagged(alice.teamId)).toEqual([]);
    for (const base of ['/leads/api/companies-blacklist', '/leads/api/blacklist/companies']) {
      const url = `${base}/${entry.uuid}`;
      expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(404);
      expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(404);
    }
    const listed = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/companies-blacklist?limit=1000',
    });
    expect(listed.json().data.map((e: Entry) => e.uuid)).not.toContain(entry.uuid);
    expect(
      (await ctx.request(bob, { method: 'GET', url: `/leads/api/companies-blacklist/${entry.uuid}` }))
        .statusCode,
    ).toBe(200);
  });
});
