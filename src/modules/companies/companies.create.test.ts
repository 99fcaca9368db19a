import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataSource, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  companyStages,
  makeCompanyBlacklistEntry,
  makeCustomField,
  makeTag,
  postCompanies,
} from './companies.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function countCompanies(teamId: number) {
  const row = await ctx.db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /leads/api/companies: creating', () => {
  it('creates companies with normalised identifiers and the full wire object (200, input order)', async () => {
    const list = await makeList(ctx.db, alice.teamId, 'Targets');
    const source = await makeDataSource(ctx.db, alice.teamId);
    const tag = await makeTag(ctx, alice.teamId, 'Existing');
    await makeCustomField(ctx, alice.teamId, 'seats', 'number');
    const [newStage] = await companyStages(ctx, alice.teamId);
    const [acme, sales] = await postCompanies(
      ctx,
      alice,
      [
        {
          name: '  Acme   Inc ',
          website: 'https://www.Acme.com/about?x=1',
          linkedin: 'https://www.linkedin.com/company/Acme-Inc/about/',
          industry: 'Software',
          employees_range: '51-200',
          employees_on_linkedin: 120,
          deal_size: 1500.5,
          hq_location: { city: 'Berlin', country: 'DE' },
          hashtags: ['#saas'],
          tags: [tag.uuid, 'Hot', 'hot'],
          custom_fields: { seats: '12' },
        },
        { name: 'Sales Nav Co', linkedin: 'https://www.linkedin.com/sales/company/1035?x=y' },
      ],
      { list_uuids: [list.uuid], data_source_uuid: source.uuid },
    );
    expect(acme).toMatchObject({
      team_id: alice.teamId,
      user_id: alice.userId,
      name: 'Acme Inc',
      website: 'https://www.Acme.com/about?x=1',
      domain: 'acme.com',
      linkedin: 'acme-inc',
      linkedin_url: 'https://www.linkedin.com/company/acme-inc',
      ln_id: null,
      industry: 'Software',
      deal_size: 1500.5,
      employees_on_linkedin: 120,
      hq_location: [{ city: 'Berlin', country: 'DE' }],
      hashtags: ['#saas'],
      lists: [list.uuid],
      custom_fields: { seats: 12 },
      status: 'ok',
      linkedin_status: 'need_enrichment',
      is_blacklisted: false,
      data_source_uuid: source.uuid,
      pipeline_stage_uuid: newStage!.uuid,
      lead_status_uuid: newStage!.uuid,
      last_enrich_at: null,
    });
    // An existing tag by uuid plus one new tag created from its name ("Hot" and "hot" are one tag).
    expect(acme!.tags).toHaveLength(2);
    expect(acme!.tags).toContain(tag.uuid);
    expect(sales).toMatchObject({ name: 'Sales Nav Co', ln_id: 1035, linkedin: null });
    expect(sales!.linkedin_url).toBe('https://www.linkedin.com/company/1035');
    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/companies/${acme!.uuid}` });
    expect(got.json()).toEqual(acme);
  });

  it('accepts numeric ids and bare slugs for linkedin, and ln_id as a string', async () => {
    const [a, b, c] = await postCompanies(ctx, alice, [
      { name: 'Numeric', linkedin: 4411 },
      { name: 'Slug', linkedin: 'slug-co' },
      { name: 'String id', ln_id: '9876' },
    ]);
    expect([a!.ln_id, b!.linkedin, c!.ln_id]).toEqual([4411, 'slug-co', 9876]);
  });
});

describe('POST /leads/api/companies: deduplication', () => {
  let user: TestUser;
  let ids: Record<string, string>;
  beforeAll(async () => {
    user = await ctx.createUser();
    const created = await postCompanies(ctx, user, [
      { name: 'Alpha', ln_id: 100 },
      { name: 'Beta', linkedin: 'beta-co' },
      { name: 'Gamma', domain: 'gamma.io' },
      { name: 'Delta' },
    ]);
    ids = Object.fromEntries(created.map((c) => [c.name as string, c.uuid]));
  });

  it('matches by LinkedIn id, then slug, then domain, then name - first match wins', async () => {
    // The least precise key first: each later probe also carries every weaker key (and renames its
    // match to "Delta", as given values win), so only the precedence decides which company it hits.
    expect((await postCompanies(ctx, user, [{ name: '  delta ' }]))[0]!.uuid).toBe(ids.Delta);
    expect(
      (await postCompanies(ctx, user, [{ website: 'http://www.GAMMA.io/x', name: 'Delta' }]))[0]!.uuid,
    ).toBe(ids.Gamma);
    const slug = {
      linkedin: 'https://linkedin.com/company/beta-co',
      website: 'https://gamma.io',
      name: 'Delta',
    };
    expect((await postCompanies(ctx, user, [slug]))[0]!.uuid).toBe(ids.Beta);
    const all = { ln_id: 100, linkedin: 'beta-co', domain: 'gamma.io', name: 'Delta' };
    expect((await postCompanies(ctx, user, [all]))[0]!.uuid).toBe(ids.Alpha);
    expect(await countCompanies(user.teamId)).toBe(4);
  });

  it('matches by name only when no identifier of the two differs', async () => {
    const [kappa] = await postCompanies(ctx, user, [{ name: 'Kappa', domain: 'kappa.io' }]);
    const [other] = await postCompanies(ctx, user, [{ name: 'KAPPA', domain: 'other-kappa.io' }]);
    expect(other!.uuid).not.toBe(kappa!.uuid);
    const [byName] = await postCompanies(ctx, user, [{ name: 'kappa', industry: 'Retail' }]);
    expect(byName!.uuid).toBe(kappa!.uuid);
    expect(await countCompanies(user.teamId)).toBe(6);
  });

  it('updates the match: given values win, identifiers only fill gaps, tags and lists are added', async () => {
    const first = await makeList(ctx.db, user.teamId, 'First');
    const second = await makeList(ctx.db, user.teamId, 'Second');
    const [before] = await postCompanies(
      ctx,
      user,
      [{ name: 'Omega', domain: 'omega.com', industry: 'Software', tags: ['one'] }],
      { list_uuids: [first.uuid] },
    );
    const [after] = await postCompanies(
      ctx,
      user,
      [{ domain: 'https://omega.com', industry: 'SaaS', linkedin: 'omega', tags: ['two'] }],
      { list_uuids: [second.uuid] },
    );
    expect(after).toMatchObject({
      uuid: before!.uuid,
      name: 'Omega',
      industry: 'SaaS',
      linkedin: 'omega',
      lists: [first.uuid, second.uuid],
    });
    expect(after!.tags).toHaveLength(2);
    expect(after!.tags).toEqual(expect.arrayContaining(before!.tags as string[]));
    // Matched by slug; the stored domain is kept rather than replaced by another one.
    const [again] = await postCompanies(ctx, user, [{ linkedin: 'omega', domain: 'omega-two.com' }]);
    expect(again).toMatchObject({ uuid: before!.uuid, domain: 'omega.com' });
  });

  it('collapses entries of one request that are the same company, answering one element per entry', async () => {
    const result = await postCompanies(ctx, user, [
      { name: 'Zeta', domain: 'zeta.com' },
      { website: 'https://zeta.com/home', industry: 'Fintech' },
      { name: 'ZETA', tags: ['batch'] },
      { name: 'Eta' },
    ]);
    expect(result).toHaveLength(4);
    expect(new Set(result.slice(0, 3).map((c) => c.uuid)).size).toBe(1);
    expect(result[0]).toMatchObject({ name: 'ZETA', domain: 'zeta.com', industry: 'Fintech' });
    expect(result[0]!.tags).toHaveLength(1);
    expect(result[3]!.uuid).not.toBe(result[0]!.uuid);
  });

  it('never creates two companies for concurrent creates of the same identifiers', async () => {
    const racer = await ctx.createUser();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        ctx.request(racer, {
          method: 'POST',
          url: '/leads/api/companies',
          payload: { companies: [{ domain: 'race.io', industry: `v${i}` }, { name: 'Only A Name' }] },
        }),
      ),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(200);
    expect(new Set(responses.map((res) => res.json()[0].uuid)).size).toBe(1);
    expect(new Set(responses.map((res) => res.json()[1].uuid)).size).toBe(1);
    expect(await countCompanies(racer.teamId)).toBe(2);
  });

  it('keeps teams apart: the same domain in another team is another company', async () => {
    const [own] = await postCompanies(ctx, bob, [{ domain: 'gamma.io', name: 'Gamma' }]);
    expect(own!.uuid).not.toBe(ids.Gamma);
    expect(own!.team_id).toBe(bob.teamId);
  });
});

describe('POST /leads/api/companies: blacklist, custom fields and validation', () => {
  it('flags companies matching the companies blacklist', async () => {
    await makeCompanyBlacklistEntry(ctx, alice.teamId, { domain: 'spam.com' });
    const [spam, fine] = await postCompanies(ctx, alice, [{ website: 'https://spam.com' }, { name: 'Fine' }]);
    expect(spam!.is_blacklisted).toBe(true);
    expect(fine!.is_blacklisted).toBe(false);
  });

  it('merges custom fields on a match; null clears a value', async () => {
    await makeCustomField(ctx, alice.teamId, 'tier');
    const [first] = await postCompanies(ctx, alice, [
      { name: 'Custom Co', custom_fields: { tier: 'gold', seats: 5 } },
    ]);
    expect(first!.custom_fields).toEqual({ tier: 'gold', seats: 5 });
    const [second] = await postCompanies(ctx, alice, [{ name: 'custom co', custom_fields: { TIER: null } }]);
    expect(second).toMatchObject({ uuid: first!.uuid, custom_fields: { seats: 5 } });
  });

  it('accepts an explicit company pipeline stage', async () => {
    const stages = await companyStages(ctx, alice.teamId);
    const [company] = await postCompanies(ctx, alice, [
      { name: 'Staged', lead_status_uuid: stages[2]!.uuid },
    ]);
    expect(company!.pipeline_stage_uuid).toBe(stages[2]!.uuid);
  });

  it.each([
    ['an empty array', { companies: [] }, 'companies'],
    ['an entry with no identifier', { companies: [{ industry: 'x' }] }, 'companies.0'],
    ['a non-LinkedIn URL', { companies: [{ linkedin: 'https://example.com/acme' }] }, 'companies.0.linkedin'],
    ['a bad domain', { companies: [{ domain: 'not a domain' }] }, 'companies.0.domain'],
    ['an unknown field', { companies: [{ name: 'x', colour: 'red' }] }, 'companies.0.colour'],
    ['a non-numeric ln_id', { companies: [{ ln_id: 'abc' }] }, 'companies.0.ln_id'],
    [
      'an unknown custom field',
      { companies: [{ name: 'x', custom_fields: { nope: 1 } }] },
      'companies.0.custom_fields.nope',
    ],
    [
      'a text where a number belongs',
      { companies: [{ name: 'x', custom_fields: { seats: 'many' } }] },
      'companies.0.custom_fields.seats',
    ],
  ])('rejects %s with 422 naming the field', async (_label, payload, field) => {
    const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/companies', payload });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().error.data).join(' ')).toContain(field);
  });

  it('rejects more than 1000 companies', async () => {
    const companies = Array.from({ length: 1001 }, (_, i) => ({ name: `C${i}` }));
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: { companies },
    });
    expect(res.statusCode).toBe(422);
  });

  it('rejects lists, tags and stages that are not the team\u2019s (422) and writes nothing', async () => {
    const bobList = await makeList(ctx.db, bob.teamId, 'Bob list');
    const bobTag = await makeTag(ctx, bob.teamId, 'Bob tag');
    const [leadStage] = await companyStages(ctx, alice.teamId, 'lead');
    const [bobStage] = await companyStages(ctx, bob.teamId);
    const before = await countCompanies(alice.teamId);
    const cases: [Record<string, unknown>, string][] = [
      [{ companies: [{ name: 'L' }], list_uuids: [bobList.uuid] }, 'list_uuids'],
      [{ companies: [{ name: 'T', tags: [bobTag.uuid] }] }, 'companies.0.tags'],
      [
        { companies: [{ name: 'S', pipeline_stage_uuid: leadStage!.uuid }] },
        'companies.0.pipeline_stage_uuid',
      ],
      [
        { companies: [{ name: 'S', pipeline_stage_uuid: bobStage!.uuid }] },
        'companies.0.pipeline_stage_uuid',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/companies', payload });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error.data).toHaveProperty(field);
    }
    expect(await countCompanies(alice.teamId)).toBe(before);
  });
});
