// The timeline API: recording activities by hand, listing them by contact, company, type and time
// (bracket and JSON-string filters), and the activities Leadflow records itself with CRM changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let lead: { uuid: string };
let other: { uuid: string };
let company: { uuid: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const created = await ctx.request(alice, {
    method: 'POST',
    url: '/leads/api/companies',
    payload: { companies: [{ name: 'Acme', domain: 'acme.example' }] },
  });
  company = created.json()[0];
  const list = await makeList(ctx.db, alice.teamId);
  const made = await makeLeads(ctx.db, alice.teamId, list.uuid, [
    { first_name: 'Ada', company_name: 'Acme', work_email: 'ada@acme.example' },
    { first_name: 'Bo' },
  ]);
  lead = made[0]!;
  other = made[1]!;
  await ctx.db
    .updateTable('leads')
    .set({ company_uuid: company.uuid })
    .where('uuid', '=', lead.uuid)
    .execute();
});
afterAll(() => ctx.close());

async function record(user: TestUser, payload: Record<string, unknown>) {
  return ctx.request(user, { method: 'POST', url: '/leads/api/activities', payload });
}

async function list(user: TestUser, query: string) {
  const res = await ctx.request(user, { method: 'GET', url: `/leads/api/activities?${query}` });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: Array<Record<string, unknown>>; total: number; has_more: boolean };
}

describe('recording activities', () => {
  it('records a call on a contact (201) with the contact\u2019s company, and reads it back', async () => {
    const res = await record(alice, {
      object_uuid: lead.uuid,
      object_type: 'lead',
      type: 'call',
      payload: { duration_minutes: 15 },
    });
    expect(res.statusCode).toBe(201);
    const activity = res.json();
    expect(activity).toMatchObject({
      object_type: 'lead',
      object_uuid: lead.uuid,
      lead_uuid: lead.uuid,
      company_uuid: company.uuid,
      type: 'call',
      payload: { duration_minutes: 15 },
      user_id: alice.userId,
      team_id: alice.teamId,
    });
    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/activities/${activity.uuid}` });
    expect(got.json()).toEqual(activity);
    expect(
      (await ctx.request(bob, { method: 'GET', url: `/leads/api/activities/${activity.uuid}` })).statusCode,
    ).toBe(404);
  });

  it('takes occurred_at as the time it happened', async () => {
    const res = await record(alice, {
      object_uuid: company.uuid,
      object_type: 'company',
      type: 'meeting',
      occurred_at: '2026-01-05T10:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ company_uuid: company.uuid, lead_uuid: null, payload: {} });
    expect(new Date(res.json().created_at).toISOString()).toBe('2026-01-05T10:00:00.000Z');
  });

  it('refuses another team\u2019s record (422 naming object_uuid), bad types and unknown fields', async () => {
    const foreign = await record(bob, { object_uuid: lead.uuid, object_type: 'lead', type: 'call' });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.data).toHaveProperty('object_uuid');
    const wrongKind = await record(alice, { object_uuid: lead.uuid, object_type: 'company', type: 'call' });
    expect(wrongKind.statusCode).toBe(422);
    const badType = await record(alice, { object_uuid: lead.uuid, object_type: 'lead', type: 'two words' });
    expect(badType.statusCode).toBe(422);
    expect(badType.json().error.data).toHaveProperty('type');
    const missing = await record(alice, { object_uuid: lead.uuid, object_type: 'lead' });
    expect(missing.statusCode).toBe(422);
    const extra = await record(alice, { object_uuid: lead.uuid, object_type: 'lead', type: 'x', team_id: 1 });
    expect(extra.statusCode).toBe(422);
  });
});

describe('listing timelines', () => {
  it('filters by contact, company (with its contacts), type and time, in bracket and JSON form', async () => {
    await record(alice, { object_uuid: other.uuid, object_type: 'lead', type: 'call' });
    const ofLead = await list(alice, `filter[lead_uuid]=${lead.uuid}`);
    expect(ofLead.data.every((a) => a.lead_uuid === lead.uuid)).toBe(true);
    expect(ofLead.data.map((a) => a.type)).toContain('call');

    const ofCompany = await list(alice, `filter[company_uuid]=${company.uuid}`);
    expect(new Set(ofCompany.data.map((a) => a.type))).toEqual(new Set(['call', 'meeting']));
    expect(ofCompany.total).toBe(2);

    const json = encodeURIComponent(JSON.stringify({ type: 'meeting', created_at: { '>=': '2026-01-01' } }));
    const meetings = await list(alice, `filter=${json}`);
    expect(meetings.data.map((a) => a.type)).toEqual(['meeting']);
    expect(meetings.total).toBe(1);

    const flat = await list(alice, 'type=call');
    expect(flat.total).toBe(2);
    const before = await list(alice, 'filter[created_at][<]=2026-02-01');
    expect(before.data.map((a) => a.type)).toEqual(['meeting']);
  });

  it('pages newest first with exact totals, and keeps teams apart', async () => {
    const all = await list(alice, 'limit=1');
    expect(all.data).toHaveLength(1);
    expect(all.has_more).toBe(true);
    const everything = await list(alice, 'limit=100');
    expect(all.total).toBe(everything.data.length);
    const times = everything.data.map((a) => new Date(a.created_at as string).getTime());
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const asc = await list(alice, 'limit=100&order_type=asc');
    expect(asc.data.map((a) => a.uuid)).toEqual([...everything.data.map((a) => a.uuid)].reverse());
    expect((await list(bob, 'limit=100')).total).toBe(0);
    expect((await list(bob, `filter[lead_uuid]=${lead.uuid}`)).data).toEqual([]);
  });

  it('answers 422 naming an unknown filter key', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/leads/api/activities?filter[flow]=x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('Accepted keys');
  });
});

describe('activities Leadflow records', () => {
  it('records stage, list and tag changes of mass actions and updates, and notes', async () => {
    const list2 = await makeList(ctx.db, alice.teamId, 'Moved');
    const tag = (
      await ctx.request(alice, { method: 'POST', url: '/leads/api/tags', payload: { name: 'Hot' } })
    ).json();
    const stages = (
      await ctx.request(alice, { method: 'GET', url: '/leads/api/pipeline-stages?filter[object]=lead' })
    ).json().data as Array<{ uuid: string; name: string }>;
    const before = await ctx.db
      .selectFrom('leads')
      .select(['list_uuid', 'pipeline_stage_uuid'])
      .where('uuid', '=', lead.uuid)
      .executeTakeFirstOrThrow();
    const stage = stages.find((s) => s.uuid !== before.pipeline_stage_uuid)!;
    const mass = (type: string, payload: Record<string, unknown>) =>
      ctx.request(alice, {
        method: 'PUT',
        url: '/leads/api/leads/mass-action',
        payload: { type, filter: { ids: [lead.uuid] }, payload },
      });
    expect((await mass('contact_add_tags', { tag_uuid: tag.uuid })).statusCode).toBe(200);
    expect((await mass('contact_add_tags', { tag_uuid: tag.uuid })).json()).toMatchObject({ affected: 0 });
    expect((await mass('contact_change_list', { list_uuid: list2.uuid })).statusCode).toBe(200);
    const put = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/leads/${lead.uuid}`,
      payload: { pipeline_stage_uuid: stage.uuid },
    });
    expect(put.statusCode).toBe(200);
    expect((await mass('contact_remove_tags', { tag_uuid: tag.uuid })).statusCode).toBe(200);
    const note = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'lead', object_uuid: lead.uuid, note: 'Spoke briefly' },
    });
    expect(note.statusCode).toBe(201);

    const timeline = await list(
      alice,
      `filter[lead_uuid]=${lead.uuid}&filter[type][]=tags_added&filter[type][]=tags_removed&filter[type][]=list_changed&filter[type][]=pipeline_stage_changed&filter[type][]=note_added&order_type=asc`,
    );
    expect(timeline.data.map((a) => [a.type, a.payload, a.user_id])).toEqual([
      ['tags_added', { tag_uuids: [tag.uuid] }, null],
      ['list_changed', { from: before.list_uuid, to: list2.uuid }, null],
      ['pipeline_stage_changed', { from: before.pipeline_stage_uuid, to: stage.uuid }, null],
      ['tags_removed', { tag_uuids: [tag.uuid] }, null],
      ['note_added', { note_uuid: note.json().uuid, note: 'Spoke briefly' }, alice.userId],
    ]);
  });

  it('records company stage and tag changes on the company\u2019s timeline', async () => {
    const tag = (
      await ctx.request(alice, { method: 'POST', url: '/leads/api/tags', payload: { name: 'Key account' } })
    ).json();
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/companies/mass-action',
      payload: { type: 'company_add_tags', filter: { ids: [company.uuid] }, payload: { tag_uuid: tag.uuid } },
    });
    expect(res.statusCode).toBe(200);
    const timeline = await list(alice, `filter[object_uuid]=${company.uuid}&filter[type]=tags_added`);
    expect(timeline.data).toEqual([
      expect.objectContaining({ object_type: 'company', payload: { tag_uuids: [tag.uuid] } }),
    ]);
  });

  it('removes a deleted contact\u2019s timeline with it', async () => {
    const list3 = await makeList(ctx.db, alice.teamId, 'Doomed');
    const [doomed] = await makeLeads(ctx.db, alice.teamId, list3.uuid, [{ first_name: 'Doomed' }]);
    await record(alice, { object_uuid: doomed!.uuid, object_type: 'lead', type: 'call' });
    await ctx.startWorkers();
    const res = await ctx.request(alice, { method: 'DELETE', url: `/leads/api/leads/${doomed!.uuid}` });
    expect(res.statusCode).toBe(204);
    for (let i = 0; i < 100; i += 1) {
      if ((await list(alice, `filter[lead_uuid]=${doomed!.uuid}`)).total === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await list(alice, `filter[lead_uuid]=${doomed!.uuid}`)).total).toBe(0);
  });
});
