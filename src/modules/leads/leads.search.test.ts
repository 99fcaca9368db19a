import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  createLeads,
  listOf,
  makeCompany,
  makeCustomField,
  makeLeadBlacklistEntry,
  makeTag,
  namesFound,
  search,
  stagesOf,
  type WireLead,
} from './leads.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let main: { uuid: string };
let side: { uuid: string };
let tagA: { uuid: string };
let tagB: { uuid: string };
let company: { uuid: string };
let leads: Record<string, WireLead>;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  main = await listOf(ctx, alice, 'Main');
  side = await listOf(ctx, alice, 'Side');
  tagA = await makeTag(ctx, alice.teamId, 'A');
  tagB = await makeTag(ctx, alice.teamId, 'B');
  company = await makeCompany(ctx, alice.teamId, { name: 'Acme Corp', domain: 'acme.com' });
  await makeCustomField(ctx, alice.teamId, 'industry');
  await makeCustomField(ctx, alice.teamId, 'seats', 'number');
  await makeLeadBlacklistEntry(ctx, alice.teamId, { linkedin: 'blocked-one' });
  const created = await createLeads(ctx, alice, main.uuid, [
    {
      first_name: 'Ann',
      last_name: 'Archer',
      company_name: 'Acme Corp',
      position: 'Head of Sales',
      email: 'ann@acme.com',
      connections_number: 500,
      skills: ['sql', 'sales'],
      tags: [tagA.uuid, tagB.uuid],
      custom_fields: { industry: 'SaaS', seats: 50 },
      email_status: 'ok',
      linkedin_id: 'ann-archer',
    },
    {
      first_name: 'Ben',
      last_name: 'Baker',
      company_name: 'Bakery 100%_Fresh',
      position: 'Owner',
      email: 'ben@gmail.com',
      connections_number: 120,
      tags: [tagA.uuid],
      custom_fields: { industry: 'Food', seats: 5 },
      headline: 'Bread and more',
    },
    { first_name: 'Cat', last_name: 'Cole', personal_email: 'cat@cole.io', connections_number: 80 },
    { first_name: 'Dan', last_name: 'Drake', linkedin_id: 'blocked-one', position: 'CFO' },
  ]);
  const [eve] = await createLeads(ctx, alice, side.uuid, [
    { first_name: 'Eve', last_name: 'Evans', company_name: 'acme corp' },
  ]);
  leads = Object.fromEntries([...created, eve!].map((lead) => [lead.first_name as string, lead]));
  // Ann and Ben are older: January 2024.
  await sql`update leads set created_at = '2024-01-15T10:00:00Z', updated_at = '2024-01-20T10:00:00Z'
    where team_id = ${alice.teamId} and first_name in ('Ann', 'Ben')`.execute(ctx.db);
  // Bob has a look-alike contact that must never show up for Alice.
  const bobList = await listOf(ctx, bob);
  await createLeads(ctx, bob, bobList.uuid, [
    { first_name: 'Ann', last_name: 'Archer', company_name: 'Acme Corp' },
  ]);
});
afterAll(() => ctx.close());

const names = (filter: unknown) => namesFound(ctx, alice, filter);

describe('POST /leads/api/leads/search filter forms', () => {
  it('scalar, list, operators, not-in and null tests', async () => {
    expect(await names({ first_name: 'Ann' })).toEqual(['Ann Archer']);
    expect(await names({ first_name: ['Ann', 'Cat'] })).toEqual(['Ann Archer', 'Cat Cole']);
    expect(await names({ connections_number: { '>=': 120 } })).toEqual(['Ann Archer', 'Ben Baker']);
    expect(await names({ connections_number: { '>': 80, '<': 500 } })).toEqual(['Ben Baker']);
    expect(await names({ connections_number: { '!=': 500 } })).toEqual([
      'Ben Baker',
      'Cat Cole',
      'Dan Drake',
      'Eve Evans',
    ]);
    expect(await names({ first_name: { '!=': ['Ann', 'Ben', 'Cat'] } })).toEqual(['Dan Drake', 'Eve Evans']);
    expect(await names({ email_status: 'is_null' })).toHaveLength(4);
    expect(await names({ email_status: 'is_not_null' })).toEqual(['Ann Archer']);
    expect(await names({ position: { '<>': 'Owner' } })).toEqual([
      'Ann Archer',
      'Cat Cole',
      'Dan Drake',
      'Eve Evans',
    ]);
  });

  it('matches name and company_name case-insensitively, e-mails and LinkedIn in any case or form', async () => {
    expect(await names({ company_name: 'ACME CORP' })).toEqual(['Ann Archer', 'Eve Evans']);
    expect(await names({ name: 'ann archer' })).toEqual(['Ann Archer']);
    expect(await names({ work_email: 'ANN@acme.com' })).toEqual(['Ann Archer']);
    expect(await names({ email: ['cat@cole.io', 'ben@gmail.com'] })).toEqual(['Ben Baker', 'Cat Cole']);
    expect(await names({ email: 'is_null' })).toEqual(['Dan Drake', 'Eve Evans']);
    expect(await names({ work_email_domain: 'https://www.Acme.com' })).toEqual(['Ann Archer']);
    expect(await names({ linkedin: 'https://www.linkedin.com/in/Ann-Archer/' })).toEqual(['Ann Archer']);
    expect(await names({ skills: 'sql' })).toEqual(['Ann Archer']);
  });

  it('q searches name, e-mail, position, headline and company; wildcards are literal', async () => {
    expect(await names({ q: 'ARCH' })).toEqual(['Ann Archer']);
    expect(await names({ q: 'gmail' })).toEqual(['Ben Baker']);
    expect(await names({ q: 'head of' })).toEqual(['Ann Archer']);
    expect(await names({ q: 'bread' })).toEqual(['Ben Baker']);
    expect(await names({ q: 'acme' })).toEqual(['Ann Archer', 'Eve Evans']);
    expect(await names({ q: '100%_' })).toEqual(['Ben Baker']);
    expect(await names({ q: '%' })).toEqual(['Ben Baker']);
  });

  it('tags (any), tags_all, tags is_null and tags is_not_null', async () => {
    expect(await names({ tags: [tagA.uuid] })).toEqual(['Ann Archer', 'Ben Baker']);
    expect(await names({ tags: tagB.uuid })).toEqual(['Ann Archer']);
    expect(await names({ tags: [tagB.uuid, tagA.uuid] })).toEqual(['Ann Archer', 'Ben Baker']);
    expect(await names({ tags_all: [tagA.uuid, tagB.uuid] })).toEqual(['Ann Archer']);
    expect(await names({ tags: 'is_null' })).toEqual(['Cat Cole', 'Dan Drake', 'Eve Evans']);
    expect(await names({ tags: 'is_not_null' })).toEqual(['Ann Archer', 'Ben Baker']);
    // Tag names, as contact create takes them (case-insensitive; an unknown name matches nothing).
    expect(await names({ tags: ['a'] })).toEqual(['Ann Archer', 'Ben Baker']);
    expect(await names({ tags: 'B' })).toEqual(['Ann Archer']);
    expect(await names({ tags: ['No such tag', tagB.uuid] })).toEqual(['Ann Archer']);
    expect(await names({ tags: { '!=': 'B' } })).toEqual(['Ben Baker', 'Cat Cole', 'Dan Drake', 'Eve Evans']);
    expect(await names({ tags_all: ['A', tagB.uuid] })).toEqual(['Ann Archer']);
    expect(await names({ tags_all: ['A', 'No such tag'] })).toEqual([]);
    // Bob's tag of the same name is not alice's.
    await makeTag(ctx, bob.teamId, 'Shared name');
    expect(await names({ tags: ['Shared name'] })).toEqual([]);
  });

  it('pages tag and free-text searches with exact totals, also past the last page', async () => {
    const page = await search(ctx, alice, {
      filter: { tags: [tagA.uuid] },
      limit: 1,
      order_field: 'name',
      order_type: 'asc',
    });
    expect(page.json()).toMatchObject({ total: 2, has_more: true, limit: 1 });
    expect(page.json().data.map((l: { name: string }) => l.name)).toEqual(['Ann Archer']);
    const second = await search(ctx, alice, {
      filter: { tags: [tagA.uuid] },
      limit: 1,
      offset: 1,
      order_field: 'name',
      order_type: 'asc',
    });
    expect(second.json()).toMatchObject({ total: 2, has_more: false });
    expect(second.json().data.map((l: { name: string }) => l.name)).toEqual(['Ben Baker']);
    const beyond = await search(ctx, alice, { filter: { tags: [tagA.uuid] }, offset: 50 });
    expect(beyond.json()).toMatchObject({ data: [], total: 2, has_more: false });
    const text = await search(ctx, alice, { filter: { q: 'archer' } });
    expect(text.json()).toMatchObject({ total: 1 });
  });

  it('list, stage, company, blacklist flag and custom fields', async () => {
    const [, second] = await stagesOf(ctx, alice.teamId);
    const [first] = await stagesOf(ctx, alice.teamId);
    expect(await names({ list_uuid: side.uuid })).toEqual(['Eve Evans']);
    expect(await names({ pipeline_stage_uuid: first!.uuid })).toHaveLength(5);
    expect(await names({ pipeline_stage_uuid: second!.uuid })).toEqual([]);
    expect(await names({ company_uuid: company.uuid })).toEqual(['Ann Archer', 'Eve Evans']);
    expect(await names({ is_blacklisted: true })).toEqual(['Dan Drake']);
    expect(await names({ is_blacklisted: 'false' })).toHaveLength(4);
    expect(await names({ custom_fields: { industry: 'SaaS' } })).toEqual(['Ann Archer']);
    expect(await names({ custom_fields: { Industry: ['SaaS', 'Food'] } })).toEqual([
      'Ann Archer',
      'Ben Baker',
    ]);
    expect(await names({ custom_fields: { seats: { '>=': 10 } } })).toEqual(['Ann Archer']);
    expect(await names({ custom_fields: { seats: 'is_null' } })).toEqual([
      'Cat Cole',
      'Dan Drake',
      'Eve Evans',
    ]);
  });

  it('dates with operators, {from, to} and bare dates', async () => {
    expect(await names({ created_at: { '<': '2024-02-01' } })).toEqual(['Ann Archer', 'Ben Baker']);
    expect(await names({ created_at: { from: '2024-01-01', to: '2024-01-15' } })).toEqual([
      'Ann Archer',
      'Ben Baker',
    ]);
    expect(await names({ created_at: { from: '2024-01-16' } })).toHaveLength(3);
    expect(
      await names({ updated_at: { '>=': '2024-01-20T10:00:00Z', '<=': '2024-01-20T10:00:00Z' } }),
    ).toHaveLength(2);
    expect(await names({ created_at: '2024-01-15' })).toEqual(['Ann Archer', 'Ben Baker']);
  });

  it('answers 422 naming the key for unknown keys, wrong types and bad operators', async () => {
    const cases: Array<[unknown, string]> = [
      [{ shoe_size: 42 }, 'filter.shoe_size'],
      [{ list_uuid: 'nope' }, 'filter.list_uuid'],
      [{ connections_number: 'many' }, 'filter.connections_number'],
      [{ linkedin_status: 'great' }, 'filter.linkedin_status'],
      [{ created_at: { '~': '2024-01-01' } }, 'filter.created_at.~'],
      [{ created_at: 'yesterday' }, 'filter.created_at'],
      [{ tags_all: [42] }, 'filter.tags_all.0'],
      [{ tags: { '>': 'A' } }, 'filter.tags.>'],
      [{ custom_fields: { shoe: 'x' } }, 'filter.custom_fields.shoe'],
      [{ email: { '>': 'a' } }, 'filter.email'],
    ];
    for (const [filter, path] of cases) {
      const res = await search(ctx, alice, { filter });
      expect(res.statusCode, JSON.stringify(filter)).toBe(422);
      expect(res.json().error.data, JSON.stringify(filter)).toHaveProperty([path]);
    }
  });
});

describe('search paging, sorting and records', () => {
  it('pages with the envelope and sorts by an allowed field', async () => {
    const first = await search(ctx, alice, { limit: 2, order_field: 'name', order_type: 'asc' });
    expect(first.json()).toMatchObject({ limit: 2, offset: 0, total: 5, has_more: true });
    expect(first.json().data.map((l: WireLead) => l.name)).toEqual(['Ann Archer', 'Ben Baker']);
    const last = await search(ctx, alice, { limit: 2, offset: 4, order_field: 'name', order_type: 0 });
    expect(last.json()).toMatchObject({ total: 5, has_more: false });
    expect(last.json().data.map((l: WireLead) => l.name)).toEqual(['Eve Evans']);
    const desc = await search(ctx, alice, { order_field: 'name', order_type: 1, limit: 1 });
    expect(desc.json().data[0].name).toBe('Eve Evans');
    const byDefault = await search(ctx, alice, {});
    expect(
      byDefault
        .json()
        .data.map((l: WireLead) => l.name)
        .slice(-2)
        .sort(),
    ).toEqual(['Ann Archer', 'Ben Baker']);
    const bad = await search(ctx, alice, { order_field: 'about' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty('order_field');
  });

  it('returns records with tag uuids and custom fields keyed by name', async () => {
    const res = await search(ctx, alice, { filter: { first_name: 'Ann' }, disable_aggregation: false });
    expect(res.json().data[0]).toMatchObject({
      uuid: leads.Ann!.uuid,
      custom_fields: { industry: 'SaaS', seats: 50 },
      company_uuid: company.uuid,
      linkedin_url: 'https://www.linkedin.com/in/ann-archer',
    });
    expect(res.json().data[0].tags.sort()).toEqual([tagA.uuid, tagB.uuid].sort());
  });

  it('keeps teams apart', async () => {
    const mine = await search(ctx, bob, { limit: 100 });
    expect(mine.json().total).toBe(1);
    expect(mine.json().data[0].uuid).not.toBe(leads.Ann!.uuid);
    const byForeignList = await search(ctx, bob, { filter: { list_uuid: main.uuid } });
    expect(byForeignList.json().total).toBe(0);
  });
});

describe('POST /leads/api/leads/count', () => {
  const count = async (user: TestUser, payload: unknown) =>
    ctx.request(user, { method: 'POST', url: '/leads/api/leads/count', payload: payload as object });

  it('counts all, ids, filters and the leadFilter form, answering total and count', async () => {
    expect((await count(alice, { all: true })).json()).toEqual({ total: 5, count: 5 });
    expect((await count(alice, { ids: [leads.Ann!.uuid, leads.Ben!.uuid] })).json()).toEqual({
      total: 2,
      count: 2,
    });
    expect((await count(alice, { all: true, ids: [leads.Ann!.uuid] })).json().total).toBe(5);
    expect((await count(alice, { filter: { list_uuid: main.uuid } })).json().total).toBe(4);
    expect((await count(alice, { all: true, filter: { tags: [tagA.uuid] } })).json().total).toBe(2);
    const leadFilter = await count(alice, {
      filter: { all: true, leadFilter: { created_at: { from: '2024-01-01', to: '2024-01-31' } } },
    });
    expect(leadFilter.json()).toEqual({ total: 2, count: 2 });
    expect(
      (await count(alice, { filter: { ids: [leads.Cat!.uuid], excludeIds: [leads.Cat!.uuid] } })).json()
        .total,
    ).toBe(0);
  });

  it('answers 422 when nothing says which contacts, and keeps teams apart', async () => {
    const empty = await count(alice, {});
    expect(empty.statusCode).toBe(422);
    expect((await count(alice, { all: false })).statusCode).toBe(422);
    expect((await count(alice, { ids: ['x'] })).statusCode).toBe(422);
    expect((await count(bob, { ids: [leads.Ann!.uuid] })).json().total).toBe(0);
    expect((await count(bob, { all: true })).json().total).toBe(1);
  });
});

describe('POST /leads/api/leads/metrics', () => {
  const metrics = async (user: TestUser, payload: unknown) =>
    ctx.request(user, { method: 'POST', url: '/leads/api/leads/metrics', payload: payload as object });

  it('answers the requested metrics, honouring the filter and the period', async () => {
    const res = await metrics(alice, {
      period_from: '2024-01-01',
      period_to: '2024-01-31',
      metrics: ['leads_count', 'new_leads_count', 'linkedin_sent_count'],
      flows: [],
      group_by: 'lists',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ total: { leads_count: 5, new_leads_count: 2, linkedin_sent_count: 0 } });
    const filtered = await metrics(alice, {
      period_from: '2020-01-01T00:00:00Z',
      period_to: '2100-01-01T00:00:00Z',
      metrics: ['new_leads_count', 'email_sent_count'],
      filter: { list_uuid: side.uuid },
    });
    expect(filtered.json()).toEqual({ total: { new_leads_count: 1, email_sent_count: 0 } });
    const bobs = await metrics(bob, {
      period_from: '2020-01-01',
      period_to: '2100-01-01',
      metrics: ['leads_count'],
    });
    expect(bobs.json().total.leads_count).toBe(1);
  });

  it('takes a missing period as all time, and one bound alone as open on the other side', async () => {
    const all = await metrics(alice, { metrics: ['leads_count', 'new_leads_count'] });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ total: { leads_count: 5, new_leads_count: 5 } });
    const until = await metrics(alice, { period_to: '2024-01-31', metrics: ['new_leads_count'] });
    const since = await metrics(alice, { period_from: '2024-02-01', metrics: ['new_leads_count'] });
    const january = await metrics(alice, {
      period_from: '2024-01-01',
      period_to: '2024-01-31',
      metrics: ['new_leads_count'],
    });
    expect(until.json().total.new_leads_count + since.json().total.new_leads_count).toBe(5);
    expect(until.json().total.new_leads_count).toBeGreaterThanOrEqual(january.json().total.new_leads_count);
  });

  it('validates metrics, period and filter', async () => {
    const missing = await metrics(alice, { period_from: '2024-01-01', period_to: '2024-02-01' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('The metrics field is required.');
    const unknown = await metrics(alice, {
      period_from: '2024-01-01',
      period_to: '2024-02-01',
      metrics: ['likes'],
    });
    expect(unknown.statusCode).toBe(422);
    const badDate = await metrics(alice, {
      period_from: 'soon',
      period_to: '2024-02-01',
      metrics: ['leads_count'],
    });
    expect(badDate.statusCode).toBe(422);
    expect(badDate.json().error.data).toHaveProperty('period_from');
    const reversed = await metrics(alice, {
      period_from: '2024-03-01',
      period_to: '2024-02-01',
      metrics: ['leads_count'],
    });
    expect(reversed.statusCode).toBe(422);
    const badFilter = await metrics(alice, {
      period_from: '2024-01-01',
      period_to: '2024-02-01',
      metrics: ['leads_count'],
      filter: { nope: 1 },
    });
    expect(badFilter.statusCode).toBe(422);
  });
});
