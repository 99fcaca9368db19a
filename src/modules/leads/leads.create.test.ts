import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import {
  createLeads,
  listOf,
  makeCompany,
  makeCustomField,
  makeLeadBlacklistEntry,
  makeTag,
  stagesOf,
} from './leads.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let list: { uuid: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  list = await listOf(ctx, alice);
});
afterAll(() => ctx.close());

describe('POST /leads/api/leads', () => {
  it('creates contacts with the full record and answers them in input order', async () => {
    const [jane, max] = await createLeads(ctx, alice, list.uuid, [
      {
        first_name: 'Jane',
        last_name: 'Smith',
        company_name: 'Acme',
        position: 'CTO',
        headline: 'Builds things',
        about: 'About Jane',
        linkedin_id: 'https://de.linkedin.com/in/Jane-Smith-1a2b/?trk=public',
        email: 'Jane@Acme.com',
        work_phone_number: '+49 1',
        raw_address: 'Berlin, Germany',
        location: [{ address_string: 'Berlin' }],
        skills: ['SQL', ' Go '],
        has_premium: true,
        connections_number: 500,
        linkedin_status: 'ok',
        email_status: 'ok',
      },
      { name: 'Max Power', sn_id: 'https://www.linkedin.com/sales/lead/ACwAAB6GuQ4Bxyz,NAME_SEARCH,abc' },
    ]);
    const [firstStage] = await stagesOf(ctx, alice.teamId);
    expect(jane).toMatchObject({
      create_status: 'created',
      team_id: alice.teamId,
      user_id: alice.userId,
      list_uuid: list.uuid,
      pipeline_stage_uuid: firstStage!.uuid,
      name: 'Jane Smith',
      linkedin: 'jane-smith-1a2b',
      linkedin_url: 'https://www.linkedin.com/in/jane-smith-1a2b',
      work_email: 'jane@acme.com',
      personal_email: null,
      skills: ['SQL', 'Go'],
      has_premium: 1,
      location: [{ address_string: 'Berlin' }],
      linkedin_status: 'ok',
      status: 'ok',
      is_blacklisted: false,
      company_uuid: null,
      tags: [],
      custom_fields: {},
    });
    expect(jane).not.toHaveProperty('search_text');
    expect(max).toMatchObject({
      name: 'Max Power',
      first_name: 'Max',
      last_name: 'Power',
      sn_id: 'ACwAAB6GuQ4Bxyz',
      sales_navigator_url: 'https://www.linkedin.com/sales/lead/ACwAAB6GuQ4Bxyz',
      linkedin_status: 'need_enrichment',
    });

    const got = await ctx.request(alice, {
      method: 'GET',
      url: `/leads/api/leads/${jane!.uuid}?disable_aggregation=true`,
    });
    expect(got.statusCode).toBe(200);
    const { create_status: _status, ...stored } = jane!;
    expect(got.json()).toEqual(stored);
  });

  it('reads every LinkedIn reference form into the right identifier', async () => {
    const forms: Array<[string, Record<string, unknown>]> = [
      ['https://www.linkedin.com/in/form-one/', { linkedin: 'form-one' }],
      ['linkedin.com/in/form-two?utm=x', { linkedin: 'form-two' }],
      ['https://fr.linkedin.com/in/form-three', { linkedin: 'form-three' }],
      ['form-four', { linkedin: 'form-four' }],
      ['123456789', { ln_member_id: 123456789 }],
      ['ACoAAB1234xyz', { ln_id: 'ACoAAB1234xyz' }],
      ['ACwAAB9876xyz', { sn_id: 'ACwAAB9876xyz' }],
      ['https://www.linkedin.com/sales/lead/ACwAAC5555abc,NAME_SEARCH,x1', { sn_id: 'ACwAAC5555abc' }],
    ];
    const created = await createLeads(
      ctx,
      alice,
      list.uuid,
      forms.map(([linkedin_id], index) => ({ linkedin_id, first_name: `Form${index}` })),
    );
    for (const [index, [, expected]] of forms.entries()) expect(created[index]).toMatchObject(expected);
  });

  it('places email by the documented rule and validates e-mails', async () => {
    const [both, only] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'Both', work_email: 'w@corp.io', email: 'p@gmail.com' },
      { first_name: 'Only', email: 'only@corp.io' },
    ]);
    expect(both).toMatchObject({ work_email: 'w@corp.io', personal_email: 'p@gmail.com' });
    expect(only).toMatchObject({ work_email: 'only@corp.io', personal_email: null });

    const bad = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'Ok' }, { email: 'not-an-email' }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty(['leads.1.email']);
    const full = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: {
        list_uuid: list.uuid,
        leads: [{ email: 'a@x.io', work_email: 'b@x.io', personal_email: 'c@x.io' }],
      },
    });
    expect(full.statusCode).toBe(422);
    expect(full.json().error.data).toHaveProperty(['leads.0.email']);
  });

  it('answers 422 naming the field for an unreadable linkedin_id, unknown fields and bad lists', async () => {
    const unreadable = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ linkedin_id: 'https://example.com/in/jane' }] },
    });
    expect(unreadable.statusCode).toBe(422);
    expect(unreadable.json().error.data).toHaveProperty(['leads.0.linkedin_id']);
    expect(unreadable.json().message).toContain('Sales Navigator lead URL');

    const lnId = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ ln_id: 'jane-smith' }] },
    });
    expect(lnId.statusCode).toBe(422);
    expect(lnId.json().error.data).toHaveProperty(['leads.0.ln_id']);

    const unknown = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'X', favourite_color: 'red' }] },
    });
    expect(unknown.statusCode).toBe(422);
    expect(JSON.stringify(unknown.json().error.data)).toContain('favourite_color');

    const foreignList = await listOf(ctx, bob, 'Bob list');
    for (const listUuid of [foreignList.uuid, '0190a0a0-0000-7000-8000-000000000000']) {
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/leads',
        payload: { list_uuid: listUuid, leads: [{ first_name: 'X' }] },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.data).toHaveProperty('list_uuid');
    }
    const missing = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { leads: [] },
    });
    expect(missing.statusCode).toBe(422);
  });

  it('derives first and last name from a full name on new contacts only', async () => {
    const [full, single, given] = await createLeads(ctx, alice, list.uuid, [
      { name: 'Maria de la Cruz', work_email: 'maria@cruz.example' },
      { name: 'Cher', work_email: 'cher@example.com' },
      { name: 'Robert Smith', first_name: 'Bob', work_email: 'bob@smith.example' },
    ]);
    expect(full).toMatchObject({ first_name: 'Maria', last_name: 'de la Cruz' });
    expect(single).toMatchObject({ first_name: 'Cher', last_name: null });
    expect(given).toMatchObject({ first_name: 'Bob', last_name: null, name: 'Robert Smith' });
    // An update of an existing contact by upsert never rewrites its name parts from `name`.
    const upserted = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/upsert',
      payload: { list_uuid: list.uuid, lead: { email: 'bob@smith.example', name: 'Bobby Smith' } },
    });
    expect(upserted.json()).toMatchObject({
      upsert_status: 'updated',
      name: 'Bobby Smith',
      first_name: 'Bob',
    });
  });

  it('accepts 1000 contacts in one call and refuses 1001', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({
      first_name: `Bulk${i}`,
      work_email: `bulk${i}@many.io`,
    }));
    const created = await createLeads(ctx, alice, list.uuid, many);
    expect(created).toHaveLength(1000);
    expect(created.every((lead) => lead.create_status === 'created')).toBe(true);
    expect(created[999]).toMatchObject({ name: 'Bulk999', work_email: 'bulk999@many.io' });
    const tooMany = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [...many, { first_name: 'One more' }] },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(JSON.stringify(tooMany.json().error.data)).toContain('leads');
  });
});

describe('duplicates on create', () => {
  it('returns the existing contact marked duplicate, for existing and in-batch duplicates', async () => {
    const own = await listOf(ctx, alice, 'Dupes');
    const [original] = await createLeads(ctx, alice, own.uuid, [
      { first_name: 'Orig', linkedin_id: 'dupe-person', work_email: 'dupe@x.io' },
    ]);
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: {
        list_uuid: own.uuid,
        leads: [
          { first_name: 'Again', linkedin_id: 'https://www.linkedin.com/in/dupe-person' },
          { first_name: 'New', work_email: 'new-one@x.io' },
          { first_name: 'Batch twin', work_email: 'NEW-ONE@x.io' },
          { name: 'Nameonly Person', company_name: 'Same Co' },
          { name: 'nameonly person', company_name: 'SAME CO' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-created-count']).toBe('2');
    expect(res.headers['x-duplicate-count']).toBe('3');
    const [again, fresh, twin, nameOnly, nameTwin] = res.json();
    expect(again).toMatchObject({ uuid: original!.uuid, create_status: 'duplicate', first_name: 'Orig' });
    expect(fresh).toMatchObject({ create_status: 'created', first_name: 'New' });
    expect(twin).toMatchObject({ uuid: fresh.uuid, create_status: 'duplicate', first_name: 'New' });
    expect(nameOnly.create_status).toBe('created');
    expect(nameTwin).toMatchObject({ uuid: nameOnly.uuid, create_status: 'duplicate' });
    const count = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/count',
      payload: { filter: { list_uuid: own.uuid } },
    });
    expect(count.json()).toEqual({ total: 3, count: 3 });
  });
});

describe('tags, custom fields, blacklist and company on create', () => {
  it('creates tags by name, accepts tag uuids and resolves custom fields by name or uuid', async () => {
    const vip = await makeTag(ctx, alice.teamId, 'VIP');
    const seats = await makeCustomField(ctx, alice.teamId, 'seats', 'number');
    const industry = await makeCustomField(ctx, alice.teamId, 'industry');
    const [lead] = await createLeads(ctx, alice, list.uuid, [
      {
        first_name: 'Tagged',
        tags: ['vip', 'Brand New Tag', vip.uuid],
        custom_fields: { Seats: '42', [industry.uuid]: 'SaaS' },
      },
    ]);
    const created = await ctx.db
      .selectFrom('tags')
      .select(['uuid', 'name'])
      .where('team_id', '=', alice.teamId)
      .where('name', '=', 'Brand New Tag')
      .executeTakeFirstOrThrow();
    expect(lead!.tags.sort()).toEqual([vip.uuid, created.uuid].sort());
    expect(lead!.custom_fields).toEqual({ seats: 42, industry: 'SaaS' });
    expect(seats.uuid).toBeDefined();

    const foreignTag = await makeTag(ctx, bob.teamId, 'Bob tag');
    const badTag = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'X', tags: [foreignTag.uuid] }] },
    });
    expect(badTag.statusCode).toBe(422);
    expect(badTag.json().error.data).toHaveProperty(['leads.0.tags.0']);
    const badField = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'X', custom_fields: { nope: 1 } }] },
    });
    expect(badField.statusCode).toBe(422);
    expect(badField.json().error.data).toHaveProperty(['leads.0.custom_fields.nope']);
    const badValue = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'X', custom_fields: { seats: 'many' } }] },
    });
    expect(badValue.statusCode).toBe(422);
  });

  it('flags blacklisted contacts and links companies by name, e-mail domain or given domain', async () => {
    await makeLeadBlacklistEntry(ctx, alice.teamId, { email: 'spam@spam.io' });
    const byName = await makeCompany(ctx, alice.teamId, { name: 'Linked Corp' });
    const byDomain = await makeCompany(ctx, alice.teamId, { name: 'Other Name', domain: 'domain-co.com' });
    const given = await makeCompany(ctx, alice.teamId, { name: 'Given', domain: 'given.io' });
    const [spam, named, mailed, domained, none] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'Spam', email: 'spam@spam.io' },
      { first_name: 'Named', company_name: 'linked corp' },
      { first_name: 'Mailed', email: 'x@domain-co.com' },
      { first_name: 'Domained', domain: 'https://www.given.io/about' },
      { first_name: 'None', company_name: 'Unknown Inc' },
    ]);
    expect(spam!.is_blacklisted).toBe(true);
    expect(named!.company_uuid).toBe(byName.uuid);
    expect(mailed!.company_uuid).toBe(byDomain.uuid);
    expect(domained!.company_uuid).toBe(given.uuid);
    expect(none!.company_uuid).toBeNull();
    const badDomain = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'X', domain: 'not a domain' }] },
    });
    expect(badDomain.statusCode).toBe(422);
    expect(badDomain.json().error.data).toHaveProperty(['leads.0.domain']);
  });
});

describe('GET and DELETE /leads/api/leads/{uuid}', () => {
  it('deletes permanently, queues the purge, and answers 404 afterwards', async () => {
    const [lead] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Doomed' }]);
    const url = `/leads/api/leads/${lead!.uuid}`;
    const deleted = await ctx.request(alice, { method: 'DELETE', url });
    expect(deleted.statusCode).toBe(204);
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(404);
    const tombstone = await ctx.db
      .selectFrom('lead_tombstones')
      .select('uuid')
      .where('uuid', '=', lead!.uuid)
      .executeTakeFirst();
    expect(tombstone?.uuid).toBe(lead!.uuid);
    await ctx.startWorkers();
    await waitFor(async () => {
      const left = await ctx.db
        .selectFrom('lead_tombstones')
        .select('uuid')
        .where('uuid', '=', lead!.uuid)
        .execute();
      return left.length === 0;
    });
  });

  it('keeps teams apart: another team\u2019s contact is 404 for get, update and delete', async () => {
    const [lead] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Private' }]);
    const url = `/leads/api/leads/${lead!.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect(
      (await ctx.request(bob, { method: 'PUT', url, payload: { first_name: 'Hacked' } })).statusCode,
    ).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'GET', url })).json().first_name).toBe('Private');
    const invalid = await ctx.request(alice, { method: 'GET', url: '/leads/api/leads/not-a-uuid' });
    expect(invalid.statusCode).toBe(422);
  });
});
