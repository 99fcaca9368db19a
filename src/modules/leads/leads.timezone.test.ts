// The contact time zone: set through the API (create, update, import mapping target) and checked as an
// IANA zone; automations with use_lead_timezone plan the contact's steps in it (engine tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let list: string;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  list = (await makeList(ctx.db, alice.teamId)).uuid;
});
afterAll(() => ctx.close());

describe('contact time zone', () => {
  it('is stored when it is an IANA zone, filterable, and changeable', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list, leads: [{ first_name: 'Kenji', timezone: 'Asia/Tokyo' }] },
    });
    expect(created.statusCode).toBe(200);
    const lead = created.json()[0];
    expect(lead.timezone).toBe('Asia/Tokyo');
    const updated = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/leads/${lead.uuid}`,
      payload: { timezone: 'America/Santiago' },
    });
    expect(updated.json().timezone).toBe('America/Santiago');
    const found = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/search',
      payload: { filter: { timezone: 'America/Santiago' } },
    });
    expect(found.json().data.map((l: { uuid: string }) => l.uuid)).toEqual([lead.uuid]);
  });

  it('refuses a zone that does not exist, naming the field', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list, leads: [{ first_name: 'Zed', timezone: 'Mars/Olympus' }] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty(['leads.0.timezone']);
    expect(res.json().message).toContain('IANA time zone');
  });
});
