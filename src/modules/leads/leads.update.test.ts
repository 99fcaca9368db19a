import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
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

const put = (user: TestUser, uuid: string, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'PUT', url: `/leads/api/leads/${uuid}`, payload });

describe('PUT /leads/api/leads/{uuid}', () => {
  it('changes only the fields sent, clears with null and keeps a derived name in step', async () => {
    const [lead] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'Jo', last_name: 'Lee', position: 'Dev', headline: 'Hi', email: 'jo@lee.io' },
    ]);
    const res = await put(alice, lead!.uuid, { last_name: 'Park', headline: null, linkedin_id: 'jo-park' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Jo Park',
      last_name: 'Park',
      position: 'Dev',
      headline: null,
      linkedin: 'jo-park',
      work_email: 'jo@lee.io',
    });
    expect(new Date(res.json().updated_at).getTime()).toBeGreaterThan(
      new Date(lead!.updated_at as string).getTime(),
    );
    const named = await put(alice, lead!.uuid, { name: 'Joanna P.' });
    expect(named.json().name).toBe('Joanna P.');
    // An explicit name no longer follows first and last name.
    const renamed = await put(alice, lead!.uuid, { first_name: 'Joanna' });
    expect(renamed.json()).toMatchObject({ name: 'Joanna P.', first_name: 'Joanna' });
  });

  it('moves the contact to a list and a stage of the team, refusing others', async () => {
    const [lead] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Mover' }]);
    const target = await listOf(ctx, alice, 'Target');
    const [, stage] = await stagesOf(ctx, alice.teamId);
    const moved = await put(alice, lead!.uuid, { list_uuid: target.uuid, pipeline_stage_uuid: stage!.uuid });
    expect(moved.json()).toMatchObject({ list_uuid: target.uuid, pipeline_stage_uuid: stage!.uuid });

    const bobList = await listOf(ctx, bob);
    const [bobStage] = await stagesOf(ctx, bob.teamId);
    const [companyStage] = await stagesOf(ctx, alice.teamId, 'company');
    const foreignList = await put(alice, lead!.uuid, { list_uuid: bobList.uuid });
    expect(foreignList.statusCode).toBe(422);
    expect(foreignList.json().error.data).toHaveProperty('list_uuid');
    for (const stageUuid of [bobStage!.uuid, companyStage!.uuid]) {
      const res = await put(alice, lead!.uuid, { pipeline_stage_uuid: stageUuid });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.data).toHaveProperty('pipeline_stage_uuid');
    }
  });

  it('merges custom field values (null clears one) and refuses unknown fields', async () => {
    await makeCustomField(ctx, alice.teamId, 'industry');
    await makeCustomField(ctx, alice.teamId, 'segment');
    const [lead] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Custom' }]);
    const set = await put(alice, lead!.uuid, { custom_fields: { industry: 'x', segment: 'smb' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().custom_fields).toEqual({ industry: 'x', segment: 'smb' });
    const cleared = await put(alice, lead!.uuid, { custom_fields: { Segment: null } });
    expect(cleared.json().custom_fields).toEqual({ industry: 'x' });
    const unknownField = await put(alice, lead!.uuid, { custom_fields: { shoe_size: 42 } });
    expect(unknownField.statusCode).toBe(422);
    expect(unknownField.json().error.data).toHaveProperty(['custom_fields.shoe_size']);
    const unknown = await put(alice, lead!.uuid, { shoe_size: 42 });
    expect(unknown.statusCode).toBe(422);
  });

  it('answers 409 naming the key when an identifier belongs to another contact', async () => {
    const [one, two] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'One', work_email: 'one@x.io', linkedin_id: 'person-one' },
      { first_name: 'Two', work_email: 'two@x.io' },
    ]);
    const email = await put(alice, two!.uuid, { work_email: 'ONE@x.io' });
    expect(email.statusCode).toBe(409);
    expect(email.json().error.data).toMatchObject({
      work_email: expect.any(Array),
      existing_uuid: one!.uuid,
    });
    const linkedin = await put(alice, two!.uuid, { linkedin_id: 'https://www.linkedin.com/in/person-one' });
    expect(linkedin.statusCode).toBe(409);
    expect(linkedin.json().error.data.existing_uuid).toBe(one!.uuid);
    const badRef = await put(alice, two!.uuid, { linkedin_id: 'https://google.com' });
    expect(badRef.statusCode).toBe(422);
    expect(badRef.json().error.data).toHaveProperty('linkedin_id');
  });

  it('replaces tags, re-derives the blacklist flag and the company link', async () => {
    const tag = await makeTag(ctx, alice.teamId, 'Kept');
    await makeLeadBlacklistEntry(ctx, alice.teamId, { company_name: 'evil corp' });
    const good = await makeCompany(ctx, alice.teamId, { name: 'Good Corp' });
    const [lead] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'Switcher', company_name: 'Good Corp', tags: ['Old'] },
    ]);
    expect(lead!.company_uuid).toBe(good.uuid);
    const res = await put(alice, lead!.uuid, { company_name: 'Evil Corp', tags: [tag.uuid, 'Fresh'] });
    expect(res.json()).toMatchObject({ is_blacklisted: true, company_uuid: null });
    expect(res.json().tags).toHaveLength(2);
    expect(res.json().tags).toContain(tag.uuid);
    const back = await put(alice, lead!.uuid, { company_name: 'good corp' });
    expect(back.json()).toMatchObject({ is_blacklisted: false, company_uuid: good.uuid });
  });

  it('refuses NUL characters with a 422 instead of failing or changing the text', async () => {
    const [lead] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Plain' }]);
    const res = await put(alice, lead!.uuid, { about: 'a\u0000b' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.reason).toBe('validation_error');
  });

  it('is 404 for an unknown contact', async () => {
    const res = await put(alice, '0190a0a0-0000-7000-8000-000000000000', { first_name: 'X' });
    expect(res.statusCode).toBe(404);
  });
});
