import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { compileCompanyFilter } from './companies.filter.js';
import {
  companyStages,
  makeCompanyBlacklistEntry,
  makeCustomField,
  makeTag,
  postCompanies,
  type WireCompany,
} from './companies.fixtures.js';

let ctx: TestContext;
let carol: TestUser;
let bob: TestUser;
let byName: Record<string, WireCompany>;
let listA: string;
let tagX: string;
let tagY: string;
let stages: { uuid: string }[];

beforeAll(async () => {
  ctx = await createTestContext();
  carol = await ctx.createUser();
  bob = await ctx.createUser();
  listA = (await makeList(ctx.db, carol.teamId, 'A')).uuid;
  tagX = (await makeTag(ctx, carol.teamId, 'X')).uuid;
  tagY = (await makeTag(ctx, carol.teamId, 'Y')).uuid;
  await makeCustomField(ctx, carol.teamId, 'tier');
  await makeCompanyBlacklistEntry(ctx, carol.teamId, { name: 'blocked corp' });
  stages = await companyStages(ctx, carol.teamId);
  const companies: WireCompany[] = [];
  // One request per company so created_at follows this order.
  for (const company of [
    {
      name: 'Acme Robotics',
      domain: 'acme.com',
      industry: 'Robotics',
      deal_size: 500,
      employees_on_linkedin: 40,
      tags: [tagX],
    },
    {
      name: 'Beta Analytics',
      website: 'https://www.beta.io',
      industry: 'software',
      deal_size: 2000,
      employees_on_linkedin: 10,
      tags: [tagX, tagY],
      custom_fields: { tier: 'gold' },
    },
    {
      name: 'Gamma Foods',
      ln_id: 777,
      linkedin: 'gamma-foods',
      employees_range: '11-50',
      deal_size: 50,
      lead_status_uuid: stages[1]!.uuid,
    },
    { name: 'Blocked Corp', domain: 'blocked.example' },
  ]) {
    companies.push(
      ...(await postCompanies(
        ctx,
        carol,
        [company],
        company.name === 'Acme Robotics' ? { list_uuids: [listA] } : {},
      )),
    );
  }
  byName = Object.fromEntries(companies.map((c) => [c.name as string, c]));
  await makeCompanyBlacklistEntry(ctx, bob.teamId, { name: 'nothing' });
  await postCompanies(ctx, bob, [{ name: 'Acme Robotics', domain: 'acme.com' }]);
});
afterAll(() => ctx.close());

async function names(query: string) {
  const res = await ctx.request(carol, {
    method: 'GET',
    url: `/leads/api/companies?order_field=name&order_type=asc&${query}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as WireCompany[]).map((c) => c.name);
}

async function searchNames(filter: unknown) {
  const res = await ctx.request(carol, {
    method: 'POST',
    url: '/leads/api/companies/list',
    payload: { filter, order_field: 'name', order_type: 'asc' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as WireCompany[]).map((c) => c.name);
}

describe('GET /leads/api/companies', () => {
  it('pages the team\u2019s companies newest first by default', async () => {
    const res = await ctx.request(carol, { method: 'GET', url: '/leads/api/companies?limit=3' });
    expect(res.json()).toMatchObject({ limit: 3, offset: 0, total: 4, has_more: true });
    expect(res.json().data.map((c: WireCompany) => c.name)).toEqual([
      'Blocked Corp',
      'Gamma Foods',
      'Beta Analytics',
    ]);
    const next = await ctx.request(carol, { method: 'GET', url: '/leads/api/companies?limit=3&offset=3' });
    expect(next.json()).toMatchObject({ total: 4, has_more: false, data: [{ name: 'Acme Robotics' }] });
  });

  it.each([
    ['filter[q]=acme', ['Acme Robotics']],
    ['filter[q]=beta.io', ['Beta Analytics']],
    ['filter[name]=ANALYTICS', ['Beta Analytics']],
    ['filter[name][]=robot&filter[name][]=foods', ['Acme Robotics', 'Gamma Foods']],
    ['filter[domain]=https://www.acme.com/contact', ['Acme Robotics']],
    ['filter[domain]=is_null', ['Gamma Foods']],
    ['filter[ln_id]=777', ['Gamma Foods']],
    ['filter[linkedin]=https://www.linkedin.com/company/gamma-foods/', ['Gamma Foods']],
    ['filter[industry]=SOFTWARE', ['Beta Analytics']],
    ['filter[employees_range]=11-50', ['Gamma Foods']],
    ['filter[deal_size]=500', ['Acme Robotics', 'Beta Analytics']],
    ['filter[deal_size][<]=500', ['Gamma Foods']],
    ['filter[tags]=is_null', ['Blocked Corp', 'Gamma Foods']],
    ['filter[is_blacklisted]=true', ['Blocked Corp']],
    [
      'filter[status]=ok&filter[linkedin_status]=need_enrichment&filter[q]=a',
      ['Acme Robotics', 'Beta Analytics', 'Blocked Corp', 'Gamma Foods'],
    ],
    ['industry=robotics', ['Acme Robotics']],
  ])('filters with %s', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  it('filters by lists, tags (any / all), stage (both names), data source, custom fields and dates', async () => {
    expect(await names(`filter[lists][]=${listA}`)).toEqual(['Acme Robotics']);
    expect(await names(`filter[tags][]=${tagY}&filter[tags][]=${tagX}`)).toEqual([
      'Acme Robotics',
      'Beta Analytics',
    ]);
    expect(await names(`filter[tags_all][]=${tagY}&filter[tags_all][]=${tagX}`)).toEqual(['Beta Analytics']);
    expect(await names(`filter[pipeline_stage_uuid]=${stages[1]!.uuid}`)).toEqual(['Gamma Foods']);
    expect(await names(`filter[lead_status_uuid]=${stages[0]!.uuid}`)).toHaveLength(3);
    expect(await names('filter[data_source_uuid]=is_not_null')).toEqual([]);
    expect(await searchNames({ custom_fields: { tier: 'gold' } })).toEqual(['Beta Analytics']);
    expect(await searchNames({ custom_fields: { tier: 'is_null' } })).toHaveLength(3);
    const blocked = byName['Blocked Corp']!;
    expect(await searchNames({ created_at: { '>=': blocked.created_at } })).toEqual(['Blocked Corp']);
    expect(await searchNames({ created_at: { from: '2000-01-01', to: '2999-12-31' } })).toHaveLength(4);
    expect(await searchNames({ updated_at: { to: '2000-01-01' } })).toEqual([]);
  });

  it('sorts by name, deal_size and employees_on_linkedin', async () => {
    const sorted = async (field: string, type: string) => {
      const res = await ctx.request(carol, {
        method: 'POST',
        url: '/leads/api/companies/list',
        payload: { order_field: field, order_type: type, filter: { deal_size: 'is_not_null' } },
      });
      return res.json().data.map((c: WireCompany) => c.name);
    };
    expect(await sorted('deal_size', 'desc')).toEqual(['Beta Analytics', 'Acme Robotics', 'Gamma Foods']);
    expect(await sorted('name', 'desc')).toEqual(['Gamma Foods', 'Beta Analytics', 'Acme Robotics']);
    const asc = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/companies?order_field=employees_on_linkedin&order_type=asc&filter[q]=a&limit=2',
    });
    expect(asc.json().data.map((c: WireCompany) => c.name)).toEqual(['Beta Analytics', 'Acme Robotics']);
  });

  it('answers 422 naming the key for unknown filter keys, bad values and sort fields', async () => {
    const cases: [string, string][] = [
      ['filter[colour]=red', 'filter.colour'],
      ['filter[ln_id]=abc', 'filter.ln_id'],
      ['filter[status]=weird', 'filter.status'],
      ['filter[tags_all]=', 'filter.tags_all.0'],
      ['order_field=about', 'order_field'],
    ];
    for (const [query, field] of cases) {
      const res = await ctx.request(carol, { method: 'GET', url: `/leads/api/companies?${query}` });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error.data, query).toHaveProperty([field]);
    }
    const unknownCustom = await ctx.request(carol, {
      method: 'POST',
      url: '/leads/api/companies/list',
      payload: { filter: { custom_fields: { nope: 1 } } },
    });
    expect(unknownCustom.statusCode).toBe(422);
    expect(unknownCustom.json().message).toContain('tier');
  });

  it('keeps teams apart', async () => {
    const res = await ctx.request(bob, { method: 'GET', url: '/leads/api/companies?limit=100' });
    expect(res.json()).toMatchObject({ total: 1, data: [{ team_id: bob.teamId }] });
    const filtered = await ctx.request(bob, {
      method: 'GET',
      url: `/leads/api/companies?filter[tags][]=${tagX}`,
    });
    expect(filtered.json().total).toBe(0);
  });

  it('serves free text and partial names from the trigram index', async () => {
    const big = await ctx.createUser();
    await sql`insert into companies (team_id, uuid, name, domain)
      select ${big.teamId}, leadflow_uuid_v7(), 'Company ' || n, 'c' || n || '.example'
      from generate_series(1, 20000) n`.execute(ctx.db);
    await sql`analyze companies`.execute(ctx.db);
    // A sequential scan of a few thousand rows is cheap, so rule it out to see which index serves.
    const plan = await ctx.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const where = await compileCompanyFilter(trx, big.teamId, { q: 'c4321.exa', name: 'pany 43' });
      return sql<{ 'QUERY PLAN': string }>`explain select c.uuid from companies c
        where c.team_id = ${big.teamId} and ${where}`.execute(trx);
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('companies_team_search_idx');
  });
});
