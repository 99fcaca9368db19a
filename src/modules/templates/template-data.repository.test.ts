import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList, makeSenderProfile } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { renderTemplate } from './render/render.js';
import { buildScope } from './render/scope.js';
import { loadContactTemplateData, loadSenderTemplateData } from './template-data.repository.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function post(user: TestUser, url: string, payload: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

describe('template data loader', () => {
  it('loads contacts with their company and custom fields by name, in one batch', async () => {
    await post(alice, '/leads/api/custom-fields', { name: 'Industry', object: 'lead' });
    await post(alice, '/leads/api/custom-fields', { name: 'Deal_size', object: 'lead', type: 'number' });
    const segment = await post(alice, '/leads/api/custom-fields', { name: 'Segment', object: 'company' });
    const [company] = await post(alice, '/leads/api/companies', {
      companies: [
        { name: 'Acme GmbH', website: 'https://acme.com', industry: 'Software', linkedin: 'acme-gmbh' },
      ],
    });
    await post(alice, '/leads/api/custom-field-values', {
      custom_field_uuid: segment.uuid,
      object_type: 'company',
      object_uuid: company.uuid,
      value: 'enterprise',
    });
    const list = await makeList(ctx.db, alice.teamId);
    const [jane, bare] = await post(alice, '/leads/api/leads', {
      list_uuid: list.uuid,
      leads: [
        {
          first_name: 'Jane',
          last_name: 'Smith',
          linkedin_id: 'jane-smith',
          email: 'jane@acme.com',
          position: 'CTO',
          raw_address: 'Berlin',
          skills: ['Go', 'SQL'],
          company_name: 'Acme GmbH',
          domain: 'acme.com',
          custom_fields: { Industry: 'Fintech' },
        },
        { name: 'Max Power' },
      ],
    });
    const otherTeamLead = (
      await post(bob, '/leads/api/leads', {
        list_uuid: (await makeList(ctx.db, bob.teamId)).uuid,
        leads: [{ first_name: 'Eve' }],
      })
    )[0];

    const loaded = await loadContactTemplateData(ctx.db, alice.teamId, [
      jane.uuid,
      bare.uuid,
      otherTeamLead.uuid,
      newId(),
    ]);
    expect([...loaded.keys()].sort()).toEqual([jane.uuid, bare.uuid].sort());
    expect(loaded.get(jane.uuid)).toEqual({
      contact: expect.objectContaining({
        lead_uuid: jane.uuid,
        first_name: 'Jane',
        last_name: 'Smith',
        name: 'Jane Smith',
        position: 'CTO',
        location: 'Berlin',
        email: 'jane@acme.com',
        linkedin_url: 'https://www.linkedin.com/in/jane-smith',
        skills: ['Go', 'SQL'],
      }),
      company: expect.objectContaining({
        name: 'Acme GmbH',
        domain: 'acme.com',
        industry: 'Software',
        linkedin_url: 'https://www.linkedin.com/company/acme-gmbh',
      }),
      customFields: { Industry: 'Fintech', Deal_size: null },
      companyCustomFields: { Segment: 'enterprise' },
    });
    expect(loaded.get(bare.uuid)).toMatchObject({
      contact: { first_name: 'Max', last_name: 'Power', email: null },
      company: null,
      customFields: { Industry: null, Deal_size: null },
    });

    const [sender] = [await makeSenderProfile(ctx.db, alice.teamId, { first_name: 'Max', last_name: 'M' })];
    const bobSender = await makeSenderProfile(ctx.db, bob.teamId, { first_name: 'Bob' });
    const senders = await loadSenderTemplateData(ctx.db, alice.teamId, [sender!.uuid, bobSender.uuid]);
    expect([...senders.entries()]).toEqual([
      [sender!.uuid, { first_name: 'Max', last_name: 'M', name: 'Max M' }],
    ]);

    const scope = buildScope({ ...loaded.get(jane.uuid)!, sender: senders.get(sender!.uuid)! });
    expect(
      renderTemplate(
        '{{first_name}} at {{company}} ({{company.domain}}, {{company.custom_fields.segment}}), ' +
          '{{cf_industry}}{{cf_deal_size | default: ""}} - {{sender.name}}',
        scope,
      ),
    ).toEqual({
      text: 'Jane at Acme GmbH (acme.com, enterprise), Fintech - Max M',
      missing: [],
      unknown: [],
    });
  });

  it('answers empty maps for empty batches without a query', async () => {
    expect((await loadContactTemplateData(ctx.db, alice.teamId, [])).size).toBe(0);
    expect((await loadSenderTemplateData(ctx.db, alice.teamId, [])).size).toBe(0);
  });
});
