import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  companyStages,
  makeCompanyBlacklistEntry,
  makeCustomField,
  makeNote,
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

const put = (user: TestUser, uuid: string, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'PUT', url: `/leads/api/companies/${uuid}`, payload });

describe('GET /leads/api/companies/{uuid}', () => {
  it('answers 404 for unknown companies and 422 for a malformed uuid', async () => {
    const missing = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/companies/0190f000-0000-7000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    const malformed = await ctx.request(alice, { method: 'GET', url: '/leads/api/companies/not-a-uuid' });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().error.data).toHaveProperty('uuid');
  });
});

describe('PUT /leads/api/companies/{uuid}', () => {
  it('changes only the fields given; null clears', async () => {
    const [company] = await postCompanies(ctx, alice, [
      { name: 'Patch Co', domain: 'patch.co', industry: 'Retail', phone: '+1', deal_size: 10 },
    ]);
    const res = await put(alice, company!.uuid, {
      industry: 'Wholesale',
      phone: null,
      deal_size: 99.5,
      hq_location: [{ city: 'Paris' }],
      status: 'duplicate',
      linkedin_status: 'ok',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      uuid: company!.uuid,
      name: 'Patch Co',
      domain: 'patch.co',
      industry: 'Wholesale',
      phone: null,
      deal_size: 99.5,
      hq_location: [{ city: 'Paris' }],
      status: 'duplicate',
      linkedin_status: 'ok',
    });
    expect(new Date(res.json().updated_at).getTime()).toBeGreaterThan(
      new Date(company!.updated_at as string).getTime(),
    );
  });

  it('derives the domain from a new website, parses LinkedIn input and accepts lead_status_uuid', async () => {
    const [company] = await postCompanies(ctx, alice, [{ name: 'Identity Co' }]);
    const stages = await companyStages(ctx, alice.teamId);
    const res = await put(alice, company!.uuid, {
      website: 'https://www.identity.example/about',
      linkedin: 'https://www.linkedin.com/company/4242/',
      lead_status_uuid: stages[3]!.uuid,
    });
    expect(res.json()).toMatchObject({
      domain: 'identity.example',
      ln_id: 4242,
      linkedin: null,
      pipeline_stage_uuid: stages[3]!.uuid,
      lead_status_uuid: stages[3]!.uuid,
    });
    const explicit = await put(alice, company!.uuid, {
      website: 'https://elsewhere.example',
      domain: 'identity.example',
      linkedin: 'identity-co',
    });
    expect(explicit.json()).toMatchObject({
      domain: 'identity.example',
      linkedin: 'identity-co',
      ln_id: 4242,
    });
  });

  it('replaces tags (names or uuids) and lists', async () => {
    const list = await makeList(ctx.db, alice.teamId, 'Put list');
    const tag = await makeTag(ctx, alice.teamId, 'Put tag');
    const [company] = await postCompanies(ctx, alice, [{ name: 'Tagged Co', tags: ['old'] }]);
    const res = await put(alice, company!.uuid, { tags: [tag.uuid, 'Brand new'], lists: [list.uuid] });
    expect(res.json().lists).toEqual([list.uuid]);
    expect(res.json().tags).toHaveLength(2);
    expect(res.json().tags).toContain(tag.uuid);
    expect(res.json().tags).not.toContain(company!.tags);
  });

  it('refreshes the blacklist flag and links matching contacts after a change', async () => {
    await makeCompanyBlacklistEntry(ctx, alice.teamId, { domain: 'banned.example' });
    const list = await makeList(ctx.db, alice.teamId);
    const [lead] = await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Ann', company_name: 'Renamed Co' },
    ]);
    const [company] = await postCompanies(ctx, alice, [{ name: 'Before Rename' }]);
    const res = await put(alice, company!.uuid, { name: 'Renamed Co', domain: 'banned.example' });
    expect(res.json().is_blacklisted).toBe(true);
    const linked = await ctx.db
      .selectFrom('leads')
      .select('company_uuid')
      .where('uuid', '=', lead!.uuid)
      .executeTakeFirst();
    expect(linked?.company_uuid).toBe(company!.uuid);
    const cleared = await put(alice, company!.uuid, { domain: null });
    expect(cleared.json().is_blacklisted).toBe(false);
  });

  it('answers 409 naming the field when another company holds the identifier', async () => {
    const [first, second] = await postCompanies(ctx, alice, [
      { name: 'Holder', domain: 'holder.example', ln_id: 5151, linkedin: 'holder' },
      { name: 'Taker' },
    ]);
    for (const [payload, field] of [
      [{ domain: 'https://holder.example/x' }, 'domain'],
      [{ ln_id: 5151 }, 'ln_id'],
      [{ linkedin: 'https://linkedin.com/company/holder' }, 'linkedin'],
    ] as const) {
      const res = await put(alice, second!.uuid, payload);
      expect(res.statusCode, field).toBe(409);
      expect(res.json().error.data).toMatchObject({
        [field]: [expect.any(String)],
        company_uuid: first!.uuid,
      });
    }
    // A company left without LinkedIn id, slug and domain is known by its name alone, and two such
    // companies of one name would be duplicates.
    expect((await put(alice, second!.uuid, { name: 'Twin' })).statusCode).toBe(200);
    const [twin] = await postCompanies(ctx, alice, [{ name: 'Twin two', domain: 'twin.example' }]);
    expect((await put(alice, twin!.uuid, { name: 'Twin' })).statusCode).toBe(200);
    const collide = await put(alice, twin!.uuid, { domain: null });
    expect(collide.statusCode).toBe(409);
    expect(collide.json().error.data).toMatchObject({
      name: [expect.any(String)],
      company_uuid: second!.uuid,
    });
  });

  it.each([
    [{ custom_fields: { tier: 'gold' } }, 'custom_fields.tier', 'Unknown custom field'],
    [{ colour: 'red' }, 'colour', 'not accepted'],
    [{ linkedin: 'https://example.com/acme' }, 'linkedin', 'LinkedIn'],
    [{ domain: 'nope' }, 'domain', 'domain'],
    [{ status: 'weird' }, 'status', 'ok'],
    [{ tags: ['0190f000-0000-7000-8000-00000000beef'] }, 'tags', 'not tags of your team'],
    [{ lists: ['0190f000-0000-7000-8000-00000000beef'] }, 'lists', 'lists of your team'],
    [
      { pipeline_stage_uuid: '0190f000-0000-7000-8000-00000000beef' },
      'pipeline_stage_uuid',
      'not a pipeline stage',
    ],
  ])('rejects %j with 422 naming the field', async (payload, field, hint) => {
    const [company] = await postCompanies(ctx, alice, [{ name: `Invalid ${field}` }]);
    const res = await put(alice, company!.uuid, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.data).toHaveProperty([field]);
    expect(res.json().message).toContain(hint);
  });

  it('merges custom field values given on update; null clears one', async () => {
    await makeCustomField(ctx, alice.teamId, 'plan');
    await makeCustomField(ctx, alice.teamId, 'seats', 'number');
    const [company] = await postCompanies(ctx, alice, [{ name: 'Custom Co' }]);
    const set = await put(alice, company!.uuid, { custom_fields: { plan: 'gold', seats: '12' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().custom_fields).toEqual({ plan: 'gold', seats: 12 });
    const cleared = await put(alice, company!.uuid, { custom_fields: { plan: null }, industry: 'Retail' });
    expect(cleared.json()).toMatchObject({ custom_fields: { seats: 12 }, industry: 'Retail' });
  });

  it('refuses to clear the last identifying field', async () => {
    const [company] = await postCompanies(ctx, alice, [{ name: 'Only name' }]);
    const res = await put(alice, company!.uuid, { name: null, industry: 'kept?' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('name');
    const after = await ctx.request(alice, { method: 'GET', url: `/leads/api/companies/${company!.uuid}` });
    expect(after.json()).toMatchObject({ name: 'Only name', industry: null });
  });

  it('rejects a contact pipeline stage', async () => {
    const [company] = await postCompanies(ctx, alice, [{ name: 'Stage Co' }]);
    const [leadStage] = await companyStages(ctx, alice.teamId, 'lead');
    const res = await put(alice, company!.uuid, { lead_status_uuid: leadStage!.uuid });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('lead_status_uuid');
  });
});

describe('DELETE /leads/api/companies/{uuid}', () => {
  it('deletes permanently, unlinks its contacts and deletes its notes only', async () => {
    const list = await makeList(ctx.db, alice.teamId);
    const [doomed, kept] = await postCompanies(ctx, alice, [
      { name: 'Doomed', domain: 'doomed.example' },
      { name: 'Kept', domain: 'kept.example' },
    ]);
    const [lead] = await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Dee', work_email: 'dee@doomed.example' },
    ]);
    await ctx.db
      .updateTable('leads')
      .set({ company_uuid: doomed!.uuid })
      .where('uuid', '=', lead!.uuid)
      .execute();
    await makeNote(ctx, alice.teamId, doomed!.uuid, 'gone');
    const keptNote = await makeNote(ctx, alice.teamId, kept!.uuid, 'stays');

    const res = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/companies/${doomed!.uuid}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/companies/${doomed!.uuid}` })).statusCode,
    ).toBe(404);
    const contact = await ctx.db
      .selectFrom('leads')
      .select('company_uuid')
      .where('uuid', '=', lead!.uuid)
      .executeTakeFirst();
    expect(contact).toEqual({ company_uuid: null });
    const notes = await ctx.db
      .selectFrom('notes')
      .select('uuid')
      .where('team_id', '=', alice.teamId)
      .execute();
    expect(notes.map((n) => n.uuid)).toEqual([keptNote.uuid]);
    const again = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/companies/${doomed!.uuid}` });
    expect(again.statusCode).toBe(404);
  });
});

describe('team isolation of company records', () => {
  it('answers 404 to another team for get, update and delete, and changes nothing', async () => {
    const [company] = await postCompanies(ctx, alice, [{ name: 'Private Co', domain: 'private.example' }]);
    const url = `/leads/api/companies/${company!.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'PUT', url, payload: { name: 'Stolen' } })).statusCode).toBe(
      404,
    );
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    const still = await ctx.request(alice, { method: 'GET', url });
    expect(still.json()).toMatchObject({ name: 'Private Co' });
  });
});
