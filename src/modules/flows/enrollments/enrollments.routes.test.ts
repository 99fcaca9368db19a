import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../../test/harness.js';
import { createLeads, listOf, type WireLead } from '../../leads/leads.fixtures.js';
import {
  createFlow,
  linearTree,
  messageStep,
  saveVersion,
  source,
  type WireFlow,
} from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let list: { uuid: string };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  list = await listOf(ctx, alice, 'Prospects');
});
afterAll(() => ctx.close());

const enroll = (user: TestUser, flow: string, lead: string, payload?: object) =>
  ctx.request(user, {
    method: 'POST',
    url: `/flows/api/flows/${flow}/leads/${lead}`,
    ...(payload ? { payload } : {}),
  });
const listEnrollments = (user: TestUser, payload: object) =>
  ctx.request(user, { method: 'POST', url: '/flows/api/flows-leads/list', payload });
const rowsOf = (flow: string) =>
  ctx.db.selectFrom('flow_leads').selectAll().where('flow_uuid', '=', flow).execute();

async function twoStepFlow(user = alice): Promise<WireFlow> {
  const flow = await createFlow(ctx, user);
  const saved = await saveVersion(ctx, user, flow.uuid, {
    nodes: linearTree([messageStep(), messageStep('Again')]),
    contact_sources: [source(), source({ id: 2, after_id: 2 })],
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return { ...flow, flow_version_uuid: saved.json().uuid };
}

async function people(names: string[]): Promise<WireLead[]> {
  return createLeads(
    ctx,
    alice,
    list.uuid,
    names.map((first_name) => ({ first_name, last_name: `${Math.random()}` })),
  );
}

describe('POST /flows/api/flows/{flowUuid}/leads/{leadUuid}', () => {
  it('enrolls a contact at the entry node of its contact source, once', async () => {
    const flow = await twoStepFlow();
    const [ann, ben] = await people(['Ann', 'Ben']);
    expect((await enroll(alice, flow.uuid, ann!.uuid)).statusCode).toBe(204);
    expect((await enroll(alice, flow.uuid, ben!.uuid, { contact_source_id: '2' })).statusCode).toBe(204);
    const rows = await rowsOf(flow.uuid);
    expect(rows.find((r) => r.lead_uuid === ann!.uuid)).toMatchObject({
      flow_version_uuid: flow.flow_version_uuid,
      contact_source_id: 1,
      added_by: 'user',
      status: 'in_progress',
      flow_node_id: 1,
      step: 0,
      flow_active: false,
      sender_profile_uuid: null,
      reason: null,
    });
    expect(rows.find((r) => r.lead_uuid === ann!.uuid)!.next_run_at).toBeInstanceOf(Date);
    expect(rows.find((r) => r.lead_uuid === ben!.uuid)).toMatchObject({
      contact_source_id: 2,
      flow_node_id: 2,
    });

    const again = await enroll(alice, flow.uuid, ann!.uuid);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already enrolled in the flow.*enters a flow once/);

    // A running flow's new enrollments are claimable at once.
    await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/${flow.uuid}/start` });
    const [cy] = await people(['Cy']);
    await enroll(alice, flow.uuid, cy!.uuid);
    expect((await rowsOf(flow.uuid)).find((r) => r.lead_uuid === cy!.uuid)!.flow_active).toBe(true);
  });

  it('refuses blacklisted contacts, archived flows, unknown sources and other teams', async () => {
    const flow = await twoStepFlow();
    const [dan] = await people(['Dan']);
    const [blocked] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'Eve', work_email: 'eve@blocked.test' },
    ]);
    await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { email: 'eve@blocked.test' },
    });

    const blacklisted = await enroll(alice, flow.uuid, blocked!.uuid);
    expect(blacklisted.statusCode).toBe(422);
    expect(blacklisted.json().error.message).toMatch(/blacklisted/);
    const noSource = await enroll(alice, flow.uuid, dan!.uuid, { contact_source_id: 7 });
    expect(noSource.statusCode).toBe(422);
    expect(noSource.json().error.data.contact_source_id[0]).toMatch(
      /no contact source 7 \(its contact sources: 1, 2\)/,
    );
    expect((await enroll(alice, flow.uuid, dan!.uuid, { colour: 1 })).statusCode).toBe(422);

    expect((await enroll(bob, flow.uuid, dan!.uuid)).statusCode).toBe(404);
    const bobFlow = await createFlow(ctx, bob);
    expect((await enroll(bob, bobFlow.uuid, dan!.uuid)).statusCode).toBe(404);

    await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/${flow.uuid}/archive` });
    const archived = await enroll(alice, flow.uuid, dan!.uuid);
    expect(archived.statusCode).toBe(422);
    expect(archived.json().error.message).toMatch(/archived.*unarchive/);
    expect(await rowsOf(flow.uuid)).toHaveLength(0);
  });
});

describe('POST /flows/api/flows-leads/list', () => {
  it('filters by flow, contact and status with exact totals, pages and sorts', async () => {
    const flow = await twoStepFlow();
    const other = await twoStepFlow();
    const folks = await people(['F1', 'F2', 'F3', 'F4']);
    for (const person of folks) await enroll(alice, flow.uuid, person.uuid);
    await enroll(alice, other.uuid, folks[0]!.uuid);
    await ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/flows/leads/${folks[1]!.uuid}/cancel`,
      payload: { flow_uuids: [flow.uuid] },
    });

    const all = (await listEnrollments(alice, { filter: { flow_uuid: [flow.uuid] }, limit: 3 })).json();
    expect(all).toMatchObject({ total: 4, limit: 3, offset: 0, has_more: true });
    expect(all.data).toHaveLength(3);
    expect(all.data[0]).toMatchObject({
      flow_uuid: flow.uuid,
      lead_uuid: folks[3]!.uuid,
      status: 'in_progress',
    });
    const asc = (
      await listEnrollments(alice, { filter: { flow_uuid: flow.uuid }, order_type: 'asc', limit: 1 })
    ).json();
    expect(asc.data[0].lead_uuid).toBe(folks[0]!.uuid);

    const live = (
      await listEnrollments(alice, { filter: { flow_uuid: [flow.uuid], status: ['in_progress'] } })
    ).json();
    expect(live.total).toBe(3);
    const canceled = (
      await listEnrollments(alice, { filter: { flow_uuid: [flow.uuid], status: 'canceled' } })
    ).json();
    expect(canceled.total).toBe(1);
    expect(canceled.data[0]).toMatchObject({ lead_uuid: folks[1]!.uuid, reason: 'canceled' });
    expect(canceled.data[0].finished_at).not.toBeNull();
    const both = (
      await listEnrollments(alice, {
        filter: { flow_uuid: [flow.uuid, other.uuid], status: ['canceled', 'in_progress', 'canceled'] },
        order_type: 'asc',
      })
    ).json();
    expect(both.total).toBe(5);
    expect(both.data.map((e: { lead_uuid: string }) => e.lead_uuid)).toEqual([
      folks[0]!.uuid,
      folks[1]!.uuid,
      folks[2]!.uuid,
      folks[3]!.uuid,
      folks[0]!.uuid,
    ]);
    const byLead = (await listEnrollments(alice, { filter: { lead_uuid: [folks[0]!.uuid] } })).json();
    expect(byLead.total).toBe(2);
    expect(byLead.data.map((e: { flow_uuid: string }) => e.flow_uuid).sort()).toEqual(
      [flow.uuid, other.uuid].sort(),
    );

    const unknownKey = await listEnrollments(alice, { filter: { created_at: '2026-01-01' } });
    expect(unknownKey.statusCode).toBe(422);
    expect(unknownKey.json().error.message).toMatch(/created_at.*flow_uuid, lead_uuid, status/);
    const badStatus = await listEnrollments(alice, { filter: { status: ['active'] } });
    expect(badStatus.statusCode).toBe(422);
    expect((await listEnrollments(bob, { filter: { flow_uuid: [flow.uuid] } })).json()).toMatchObject({
      total: 0,
      data: [],
    });
  });
});

describe('POST /flows/api/flows/{flowUuid}/add-new-lead', () => {
  it('creates and enrolls, skips an existing contact when asked, and refuses a second enrollment', async () => {
    const flow = await twoStepFlow();
    const body = {
      lead: { linkedin_id: 'https://www.linkedin.com/in/gina-new-1', first_name: 'Gina' },
      list_uuid: list.uuid,
      flow_segment_id: 2,
    };
    const created = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/add-new-lead`,
      payload: body,
    });
    expect(created.statusCode, created.body).toBe(204);
    const [row] = await rowsOf(flow.uuid);
    expect(row).toMatchObject({ contact_source_id: 2, flow_node_id: 2, added_by: 'user' });

    const skipped = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/add-new-lead`,
      payload: { ...body, lead: { ...body.lead, first_name: 'Changed' }, skip_if_lead_exists: true },
    });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toEqual({ reason: 'skipped' });
    const lead = (
      await ctx.request(alice, { method: 'GET', url: `/leads/api/leads/${row!.lead_uuid}` })
    ).json();
    expect(lead.first_name).toBe('Gina');

    const twice = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/add-new-lead`,
      payload: { ...body, lead: { ...body.lead, first_name: 'Again' } },
    });
    expect(twice.statusCode).toBe(409);
    // The refused request changed nothing (the upsert rolled back with the enrollment).
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/leads/${row!.lead_uuid}` })).json()
        .first_name,
    ).toBe('Gina');

    const badSource = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/add-new-lead`,
      payload: { ...body, lead: { linkedin_id: 'never-created-1' }, flow_segment_id: 9 },
    });
    expect(badSource.statusCode).toBe(422);
    expect(badSource.json().error.data).toHaveProperty('flow_segment_id');
    const search = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/lookup-one',
      payload: { linkedin_id: 'never-created-1' },
    });
    expect(search.statusCode).toBe(404);
  });
});

describe('ending enrollments', () => {
  it('cancels in named flows, in all flows, and deletes the history while the contact stays', async () => {
    const a = await twoStepFlow();
    const b = await twoStepFlow();
    const [hal] = await people(['Hal']);
    await enroll(alice, a.uuid, hal!.uuid);
    await enroll(alice, b.uuid, hal!.uuid);
    const status = async () =>
      Object.fromEntries(
        (
          await ctx.db
            .selectFrom('flow_leads')
            .select(['flow_uuid', 'status'])
            .where('lead_uuid', '=', hal!.uuid)
            .execute()
        ).map((r) => [r.flow_uuid, r.status]),
      );
    const noFlows = await ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/flows/leads/${hal!.uuid}/cancel`,
      payload: {},
    });
    expect(noFlows.statusCode).toBe(422);
    expect(noFlows.json().error.data).toHaveProperty('flow_uuids');
    const foreign = await ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/flows/leads/${hal!.uuid}/cancel`,
      payload: { flow_uuids: [(await createFlow(ctx, bob)).uuid] },
    });
    expect(foreign.statusCode).toBe(422);

    const one = await ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/flows/leads/${hal!.uuid}/cancel`,
      payload: { flow_uuids: [a.uuid] },
    });
    expect(one.statusCode).toBe(204);
    expect(await status()).toEqual({ [a.uuid]: 'canceled', [b.uuid]: 'in_progress' });
    expect(
      (await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/leads/${hal!.uuid}/cancel-all` }))
        .statusCode,
    ).toBe(204);
    expect(await status()).toEqual({ [a.uuid]: 'canceled', [b.uuid]: 'canceled' });

    expect(
      (await ctx.request(bob, { method: 'DELETE', url: `/flows/api/flows/leads/${hal!.uuid}` })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/flows/api/flows/leads/${hal!.uuid}` })).statusCode,
    ).toBe(204);
    expect(await status()).toEqual({});
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/leads/${hal!.uuid}` })).statusCode,
    ).toBe(200);
    // History gone: the contact may enter again.
    expect((await enroll(alice, a.uuid, hal!.uuid)).statusCode).toBe(204);
  });

  it('ends the enrollments of contacts that get blacklisted or deleted', async () => {
    await ctx.startWorkers();
    const flow = await twoStepFlow();
    const [ivy, jon] = await createLeads(ctx, alice, list.uuid, [
      { first_name: 'Ivy', work_email: 'ivy@later-blocked.test' },
      { first_name: 'Jon', last_name: 'Gone' },
    ]);
    await enroll(alice, flow.uuid, ivy!.uuid);
    await enroll(alice, flow.uuid, jon!.uuid);
    await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { email: 'ivy@later-blocked.test' },
    });
    await ctx.request(alice, { method: 'DELETE', url: `/leads/api/leads/${jon!.uuid}` });
    const reasons = await waitFor(async () => {
      const rows = await rowsOf(flow.uuid);
      const byLead = Object.fromEntries(rows.map((r) => [r.lead_uuid, `${r.status}/${r.reason}`]));
      return byLead[jon!.uuid] === 'canceled/contact_deleted' ? byLead : undefined;
    });
    expect(reasons?.[ivy!.uuid]).toBe('canceled/blacklisted');
  });
});

describe('contact mass actions on flows', () => {
  it('enrolls the selection (skipping blacklisted and enrolled contacts) and cancels it', async () => {
    const flow = await twoStepFlow();
    const crew = await listOf(ctx, alice, 'Crew');
    const members = await createLeads(
      ctx,
      alice,
      crew.uuid,
      ['K1', 'K2', 'K3'].map((first_name) => ({ first_name })),
    );
    await enroll(alice, flow.uuid, members[0]!.uuid);
    const act = (payload: object) =>
      ctx.request(alice, { method: 'PUT', url: '/leads/api/leads/mass-action', payload });
    const added = await act({
      type: 'contact_add_to_flow',
      payload: { flow_uuid: flow.uuid, contact_source_id: 2 },
      filter: { list_uuid: crew.uuid },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().affected).toBe(2);
    const rows = await rowsOf(flow.uuid);
    expect(rows.filter((r) => r.contact_source_id === 2).map((r) => r.flow_node_id)).toEqual([2, 2]);

    const foreign = await act({
      type: 'contact_add_to_flow',
      payload: { flow_uuid: (await createFlow(ctx, bob)).uuid },
      filter: { all: true },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.data).toHaveProperty(['payload.flow_uuid']);

    const canceled = await act({
      type: 'contact_cancel_from_flows',
      payload: { flow_uuids: [flow.uuid] },
      filter: { list_uuid: crew.uuid },
    });
    expect(canceled.json().affected).toBe(3);
    expect((await rowsOf(flow.uuid)).every((r) => r.status === 'canceled')).toBe(true);
    const everywhere = await act({ type: 'contact_cancel_from_flows', filter: { list_uuid: crew.uuid } });
    expect(everywhere.json().affected).toBe(0);
  });
});
