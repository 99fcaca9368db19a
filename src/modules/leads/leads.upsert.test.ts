import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { createLeads, listOf, makeCustomField, makeTag, upsert } from './leads.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let list: { uuid: string };
let other: { uuid: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  list = await listOf(ctx, alice, 'Main');
  other = await listOf(ctx, alice, 'Other');
});
afterAll(() => ctx.close());

async function upsertOk(user: TestUser, body: Record<string, unknown>) {
  const res = await upsert(ctx, user, { list_uuid: list.uuid, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('POST /leads/api/leads/upsert', () => {
  it('creates, then updates, then reports unchanged', async () => {
    const created = await upsertOk(alice, { lead: { linkedin_id: 'upsert-jane', first_name: 'Jane' } });
    expect(created).toMatchObject({ upsert_status: 'created', name: 'Jane', list_uuid: list.uuid });
    const updated = await upsertOk(alice, {
      lead: { linkedin_id: 'https://www.linkedin.com/in/upsert-jane/', position: 'CEO', headline: null },
    });
    expect(updated).toMatchObject({
      upsert_status: 'updated',
      uuid: created.uuid,
      position: 'CEO',
      name: 'Jane',
    });
    const same = await upsertOk(alice, { lead: { linkedin_id: 'upsert-jane', position: 'CEO' } });
    expect(same).toMatchObject({ upsert_status: 'unchanged', uuid: created.uuid });
  });

  it('leaves a match alone with update_if_exists: false and moves it only with move_to_list', async () => {
    const created = await upsertOk(alice, { lead: { email: 'stay@x.io', position: 'Dev' } });
    const kept = await upsertOk(alice, {
      lead: { email: 'STAY@x.io', position: 'Boss' },
      update_if_exists: false,
      list_uuid: other.uuid,
    });
    expect(kept).toMatchObject({
      upsert_status: 'unchanged',
      uuid: created.uuid,
      position: 'Dev',
      list_uuid: list.uuid,
    });
    const moved = await upsertOk(alice, {
      lead: { email: 'stay@x.io' },
      list_uuid: other.uuid,
      move_to_list: true,
    });
    expect(moved).toMatchObject({ upsert_status: 'updated', list_uuid: other.uuid, position: 'Dev' });
  });

  it('adds tags and merges custom fields (top-level and in the lead), null clearing a value', async () => {
    const stage = await makeCustomField(ctx, alice.teamId, 'stage_note');
    const score = await makeCustomField(ctx, alice.teamId, 'score', 'number');
    const hot = await makeTag(ctx, alice.teamId, 'Hot');
    const first = await upsertOk(alice, {
      lead: { work_email: 'cf@x.io', tags: ['Hot'], custom_fields: { stage_note: 'met' } },
      custom_fields: { score: 7 },
    });
    expect(first.tags).toEqual([hot.uuid]);
    expect(first.custom_fields).toEqual({ stage_note: 'met', score: 7 });
    const second = await upsertOk(alice, {
      lead: { work_email: 'cf@x.io', tags: ['Cold'] },
      custom_fields: { [stage.uuid]: null, score: '8' },
    });
    expect(second.upsert_status).toBe('updated');
    expect(second.tags).toHaveLength(2);
    expect(second.tags).toContain(hot.uuid);
    expect(second.custom_fields).toEqual({ score: 8 });
    expect(score.uuid).toBeDefined();
  });

  it('needs an identifier and a list of the team', async () => {
    const none = await upsert(ctx, alice, { list_uuid: list.uuid, lead: { first_name: 'Anon' } });
    expect(none.statusCode).toBe(422);
    expect(none.json().error.data).toHaveProperty('lead');
    const nameOnly = await upsert(ctx, alice, { list_uuid: list.uuid, lead: { name: 'No Company' } });
    expect(nameOnly.statusCode).toBe(422);
    const bobList = await listOf(ctx, bob);
    const foreign = await upsert(ctx, alice, { list_uuid: bobList.uuid, lead: { email: 'z@z.io' } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.data).toHaveProperty('list_uuid');
    const missingList = await upsert(ctx, alice, { lead: { email: 'z@z.io' } });
    expect(missingList.statusCode).toBe(422);
    expect(missingList.json().error.data).toHaveProperty('list_uuid');
    const badLinkedIn = await upsert(ctx, alice, {
      list_uuid: list.uuid,
      lead: { linkedin_id: 'http://x.y/z' },
    });
    expect(badLinkedIn.statusCode).toBe(422);
    expect(badLinkedIn.json().error.data).toHaveProperty(['lead.linkedin_id']);
  });

  it('answers 409 when the update would take another contact\u2019s identifier', async () => {
    await upsertOk(alice, { lead: { work_email: 'taken@x.io' } });
    const mine = await upsertOk(alice, { lead: { linkedin_id: 'conflict-person' } });
    const res = await upsert(ctx, alice, {
      list_uuid: list.uuid,
      lead: { linkedin_id: 'conflict-person', work_email: 'taken@x.io' },
    });
    // The linkedin key (4) ranks before work_email (5): the match is `mine`, which cannot take the e-mail.
    expect(res.statusCode).toBe(409);
    expect(res.json().error.data).toHaveProperty('work_email');
    expect(res.json().error.data.existing_uuid).toBeDefined();
    expect(res.json().error.data.existing_uuid).not.toBe(mine.uuid);
  });

  it('keeps teams apart: the same person upserted by two teams is two contacts', async () => {
    const a = await upsertOk(alice, { lead: { linkedin_id: 'shared-person' } });
    const bobList = await listOf(ctx, bob, 'Bob main');
    const res = await upsert(ctx, bob, { list_uuid: bobList.uuid, lead: { linkedin_id: 'shared-person' } });
    expect(res.json()).toMatchObject({ upsert_status: 'created', team_id: bob.teamId });
    expect(res.json().uuid).not.toBe(a.uuid);
  });
});

describe('deduplication order, key by key', () => {
  // Each key is tested with a candidate that matches on that key and a decoy that matches on a later
  // key: the earlier key must win.
  const keys: Array<{
    key: string;
    input: Record<string, unknown>;
    winner: Record<string, unknown>;
    decoy: Record<string, unknown>;
  }> = [
    {
      key: 'ln_member_id',
      input: { ln_member_id: 111, ln_id: 'ACoAAdecoy1', first_name: 'In' },
      winner: { linkedin_id: '111', first_name: 'Winner1' },
      decoy: { ln_id: 'ACoAAdecoy1', first_name: 'Decoy1' },
    },
    {
      key: 'ln_id',
      input: { ln_id: 'ACoAAwin2', sn_id: 'ACwAAdecoy2' },
      winner: { ln_id: 'ACoAAwin2', first_name: 'Winner2' },
      decoy: { sn_id: 'ACwAAdecoy2', first_name: 'Decoy2' },
    },
    {
      key: 'sn_id',
      input: { sn_id: 'ACwAAwin3', linkedin: 'decoy-three' },
      winner: { sn_id: 'ACwAAwin3', first_name: 'Winner3' },
      decoy: { linkedin: 'decoy-three', first_name: 'Decoy3' },
    },
    {
      key: 'linkedin',
      input: { linkedin_id: 'https://www.linkedin.com/in/win-four', work_email: 'decoy4@x.io' },
      winner: { linkedin: 'win-four', first_name: 'Winner4' },
      decoy: { work_email: 'decoy4@x.io', first_name: 'Decoy4' },
    },
    {
      key: 'work_email',
      input: { work_email: 'win5@x.io', personal_email: 'decoy5@gmail.com' },
      winner: { work_email: 'win5@x.io', first_name: 'Winner5' },
      decoy: { personal_email: 'decoy5@gmail.com', first_name: 'Decoy5' },
    },
    {
      key: 'personal_email',
      input: { personal_email: 'win6@gmail.com', name: 'Decoy Six', company_name: 'Six Co' },
      winner: { personal_email: 'win6@gmail.com', first_name: 'Winner6' },
      decoy: { name: 'Decoy Six', company_name: 'Six Co' },
    },
  ];

  for (const { key, input, winner, decoy } of keys) {
    it(`matches on ${key} before the later keys`, async () => {
      const own = await listOf(ctx, alice, `Order ${key}`);
      // The decoy is older, so a "first created wins" rule would pick it.
      const [decoyLead] = await createLeads(ctx, alice, own.uuid, [decoy]);
      const [winnerLead] = await createLeads(ctx, alice, own.uuid, [winner]);
      const res = await upsert(ctx, alice, { list_uuid: own.uuid, lead: input, update_if_exists: false });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().uuid).toBe(winnerLead!.uuid);
      expect(res.json().uuid).not.toBe(decoyLead!.uuid);
    });
  }

  it('matches on name + company case-insensitively, unless an identifier contradicts', async () => {
    const own = await listOf(ctx, alice, 'Order name');
    const [person] = await createLeads(ctx, alice, own.uuid, [
      { name: 'Seven Person', company_name: 'Seven Co', work_email: 'seven@seven.co' },
    ]);
    const matched = await upsert(ctx, alice, {
      list_uuid: own.uuid,
      lead: { name: 'seven person', company_name: 'SEVEN CO', position: 'Lead' },
    });
    expect(matched.json()).toMatchObject({ uuid: person!.uuid, upsert_status: 'updated', position: 'Lead' });
    const contradicted = await upsert(ctx, alice, {
      list_uuid: own.uuid,
      lead: { name: 'Seven Person', company_name: 'Seven Co', work_email: 'other@seven.co' },
    });
    expect(contradicted.json().upsert_status).toBe('created');
    expect(contradicted.json().uuid).not.toBe(person!.uuid);
  });
});

describe('concurrent upserts', () => {
  it('create one contact for 20 simultaneous upserts of the same person (by LinkedIn)', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upsert(ctx, alice, { list_uuid: list.uuid, lead: { linkedin_id: 'race-person', position: `P${i}` } }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const uuids = new Set(results.map((r) => r.json().uuid));
    expect(uuids.size).toBe(1);
    expect(results.filter((r) => r.json().upsert_status === 'created')).toHaveLength(1);
  });

  it('create one contact for 20 simultaneous upserts by name + company, with and without e-mail', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upsert(ctx, alice, {
          list_uuid: list.uuid,
          lead: { name: 'Race Name', company_name: 'Race Co', ...(i % 2 ? { email: 'race@race.co' } : {}) },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.json().uuid)).size).toBe(1);
  });
});

describe('POST /leads/api/leads/lookup-one (and /find-one)', () => {
  it('finds by linkedin_id in any form, by e-mail (work or personal) and by name + company', async () => {
    const own = await listOf(ctx, alice, 'Lookup');
    const [lead] = await createLeads(ctx, alice, own.uuid, [
      {
        name: 'Look Up',
        company_name: 'Lookup Co',
        linkedin_id: 'look-up-1',
        personal_email: 'look@gmail.com',
      },
    ]);
    for (const body of [
      { linkedin_id: 'https://www.linkedin.com/in/Look-Up-1/' },
      { email: 'LOOK@gmail.com' },
      { name: 'look up', company_name: 'lookup co', disable_aggregation: true },
    ]) {
      for (const path of ['lookup-one', 'find-one']) {
        const res = await ctx.request(alice, {
          method: 'POST',
          url: `/leads/api/leads/${path}`,
          payload: body,
        });
        expect(res.statusCode, JSON.stringify(body)).toBe(200);
        expect(res.json().uuid).toBe(lead!.uuid);
      }
    }
  });

  it('answers 422 without an identifier, 404 without a match or for another team', async () => {
    const empty = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/lookup-one',
      payload: {},
    });
    expect(empty.statusCode).toBe(422);
    const halfName = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/lookup-one',
      payload: { name: 'Look Up' },
    });
    expect(halfName.statusCode).toBe(422);
    expect(halfName.json().error.data).toHaveProperty('company_name');
    const badEmail = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/lookup-one',
      payload: { email: 'nope' },
    });
    expect(badEmail.statusCode).toBe(422);
    const none = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/lookup-one',
      payload: { linkedin_id: 'nobody-here' },
    });
    expect(none.statusCode).toBe(404);
    const foreign = await ctx.request(bob, {
      method: 'POST',
      url: '/leads/api/leads/lookup-one',
      payload: { linkedin_id: 'look-up-1' },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
