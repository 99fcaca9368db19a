import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { linkLeadsToCompanies } from '../leads/company-links.js';
import { makeCustomField, postCompanies, type WireCompany } from './companies.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

const lookup = (user: TestUser, payload: unknown) =>
  ctx.request(user, { method: 'POST', url: '/leads/api/companies/lookup', payload: payload as object });

describe('POST /leads/api/companies/lookup', () => {
  let acme: WireCompany;
  let byId: WireCompany;
  let bySlug: WireCompany;
  beforeAll(async () => {
    [acme, byId, bySlug] = (await postCompanies(ctx, alice, [
      { name: 'Acme', website: 'https://acme.example' },
      { name: 'Numbered', ln_id: 31337 },
      { name: 'Slugged', linkedin: 'slugged-co' },
    ])) as [WireCompany, WireCompany, WireCompany];
  });

  it('answers per criterion, in order, the company or null', async () => {
    const res = await lookup(alice, {
      lookups: [
        { ln_id: 31337 },
        { linkedin: 'https://www.linkedin.com/company/slugged-co/jobs' },
        { linkedin: 'https://www.linkedin.com/sales/company/31337' },
        { website: 'http://www.ACME.example/pricing' },
        { domain: 'acme.example' },
        { name: ' acme ' },
        { name: 'Nobody' },
        { website: 'https://unknown.example' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((c: WireCompany | null) => c?.uuid ?? null)).toEqual([
      byId.uuid,
      bySlug.uuid,
      byId.uuid,
      acme.uuid,
      acme.uuid,
      acme.uuid,
      null,
      null,
    ]);
    expect(res.json()[0]).toEqual(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/companies/${byId.uuid}` })).json(),
    );
  });

  it('tries the most precise identifier first and falls back to less precise ones', async () => {
    const res = await lookup(alice, {
      companies: [
        { ln_id: 31337, linkedin: 'slugged-co', website: 'acme.example', name: 'Acme' },
        { linkedin: 'slugged-co', website: 'acme.example', name: 'Numbered' },
        { ln_id: 999, linkedin: 'missing', website: 'acme.example' },
        { ln_id: 999, name: 'Slugged' },
      ],
      disable_aggregation: true,
    });
    expect(res.json().map((c: WireCompany | null) => c?.uuid ?? null)).toEqual([
      byId.uuid,
      bySlug.uuid,
      acme.uuid,
      bySlug.uuid,
    ]);
  });

  it('takes "lookups" when a client sends both keys; an empty array answers []', async () => {
    const both = await lookup(alice, { lookups: [{ name: 'Acme' }], companies: [{ name: 'Slugged' }] });
    expect(both.json()[0].uuid).toBe(acme.uuid);
    expect((await lookup(alice, { lookups: [] })).json()).toEqual([]);
  });

  it.each([
    [{}, 'lookups'],
    [{ lookups: [{ name: 'Acme' }, {}] }, 'lookups.1'],
    [{ companies: [{ name: null, website: '' }] }, 'companies.0'],
    [{ lookups: [{ website: 'not a site' }] }, 'lookups.0.website'],
    [{ lookups: [{ linkedin: 'https://example.com/x' }] }, 'lookups.0.linkedin'],
    [{ lookups: [{ ln_id: 'abc' }] }, 'lookups.0.ln_id'],
  ])('rejects %j with 422 naming %s', async (payload, field) => {
    const res = await lookup(alice, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.data).toHaveProperty([field]);
  });

  it('never finds another team\u2019s companies', async () => {
    const res = await lookup(bob, {
      lookups: [{ ln_id: 31337 }, { website: 'acme.example' }, { name: 'Acme' }],
    });
    expect(res.json()).toEqual([null, null, null]);
  });
});

describe('POST /leads/api/companies/leads', () => {
  it('maps each of the team\u2019s companies to its contacts', async () => {
    const list = await makeList(ctx.db, alice.teamId);
    const [withContacts, empty] = await postCompanies(ctx, alice, [
      { name: 'Staffed', domain: 'staffed.example' },
      { name: 'Empty Co' },
    ]);
    await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Ann', last_name: 'Lee', work_email: 'ann@staffed.example' },
      { first_name: 'Ben', company_name: 'staffed' },
    ]);
    await linkLeadsToCompanies(ctx.db, alice.teamId, { companyUuids: [withContacts!.uuid] });
    const gender = await makeCustomField(ctx, alice.teamId, 'Gender', 'string', 'lead');
    await ctx.db
      .updateTable('leads')
      .set({ custom_fields: JSON.stringify({ [gender.uuid]: 'f' }) })
      .where('work_email', '=', 'ann@staffed.example')
      .execute();
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies/leads',
      payload: { uuids: [withContacts!.uuid, empty!.uuid, '0190f000-0000-7000-8000-000000000001'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([withContacts!.uuid, empty!.uuid].sort());
    expect(body[empty!.uuid]).toEqual([]);
    expect(body[withContacts!.uuid]).toHaveLength(2);
    expect(body[withContacts!.uuid][0]).toMatchObject({
      name: 'Ann Lee',
      work_email: 'ann@staffed.example',
      company_uuid: withContacts!.uuid,
      list_uuid: list.uuid,
      team_id: alice.teamId,
      tags: [],
      is_blacklisted: false,
      custom_fields: { Gender: 'f' },
    });
    expect(body[withContacts!.uuid][1]).toMatchObject({ first_name: 'Ben' });
    expect(body[withContacts!.uuid][0]).not.toHaveProperty('search_text');

    const foreign = await ctx.request(bob, {
      method: 'POST',
      url: '/leads/api/companies/leads',
      payload: { uuids: [withContacts!.uuid] },
    });
    expect(foreign.json()).toEqual({});
    const invalid = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies/leads',
      payload: { uuids: [] },
    });
    expect(invalid.statusCode).toBe(422);
  });
});

describe('linking contacts and companies', () => {
  const companyOf = async (uuid: string) =>
    (
      await ctx.db
        .selectFrom('leads')
        .select('company_uuid')
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow()
    ).company_uuid;

  it('links existing contacts when companies are created, by name and by work e-mail domain', async () => {
    const user = await ctx.createUser();
    const list = await makeList(ctx.db, user.teamId);
    const [byName, byDomain, freeMail, alreadyLinked] = await makeLeads(ctx.db, user.teamId, list.uuid, [
      { first_name: 'N', company_name: 'NAME MATCH inc' },
      { first_name: 'D', work_email: 'd@mailmatch.example' },
      { first_name: 'F', work_email: 'f@gmail.com' },
      { first_name: 'L', company_name: 'Name Match Inc' },
    ]);
    const [placeholder] = await postCompanies(ctx, user, [{ name: 'Placeholder' }]);
    await ctx.db
      .updateTable('leads')
      .set({ company_uuid: placeholder!.uuid })
      .where('uuid', '=', alreadyLinked!.uuid)
      .execute();
    const outsider = await ctx.createUser();
    const outsiderList = await makeList(ctx.db, outsider.teamId);
    const [foreign] = await makeLeads(ctx.db, outsider.teamId, outsiderList.uuid, [
      { company_name: 'Name Match Inc' },
    ]);

    const [nameCo, domainCo, gmailCo] = await postCompanies(ctx, user, [
      { name: 'Name Match Inc' },
      { name: 'Other name', domain: 'mailmatch.example' },
      { name: 'Gmail', domain: 'gmail.com' },
    ]);
    expect(await companyOf(byName!.uuid)).toBe(nameCo!.uuid);
    expect(await companyOf(byDomain!.uuid)).toBe(domainCo!.uuid);
    expect(await companyOf(freeMail!.uuid)).toBeNull();
    expect(await companyOf(alreadyLinked!.uuid)).toBe(placeholder!.uuid);
    expect(await companyOf(foreign!.uuid)).toBeNull();
    expect(gmailCo!.domain).toBe('gmail.com');
  });

  it('links new contacts to existing companies; a domain match beats a name match', async () => {
    const user = await ctx.createUser();
    const list = await makeList(ctx.db, user.teamId);
    const [named, domained] = await postCompanies(ctx, user, [
      { name: 'Both Ways' },
      { name: 'Different', domain: 'bothways.example' },
    ]);
    const [nameOnly, both, none] = await makeLeads(ctx.db, user.teamId, list.uuid, [
      { first_name: 'A', company_name: 'both ways' },
      { first_name: 'B', company_name: 'Both Ways', work_email: 'b@bothways.example' },
      { first_name: 'C', company_name: 'Unrelated' },
    ]);
    const linked = await linkLeadsToCompanies(ctx.db, user.teamId, {
      leadUuids: [nameOnly!.uuid, both!.uuid, none!.uuid],
    });
    expect(linked).toBe(2);
    expect(await companyOf(nameOnly!.uuid)).toBe(named!.uuid);
    expect(await companyOf(both!.uuid)).toBe(domained!.uuid);
    expect(await companyOf(none!.uuid)).toBeNull();
    expect(await linkLeadsToCompanies(ctx.db, user.teamId, { leadUuids: [nameOnly!.uuid] })).toBe(0);
    expect(await linkLeadsToCompanies(ctx.db, user.teamId, { leadUuids: [] })).toBe(0);
  });
});
