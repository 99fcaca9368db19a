// Contact sources with a mass_actions_filter enroll matching contacts while the flow is on: existing
// ones at start, new and changed ones afterwards, never more than active_limit live at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../../test/harness.js';
import { createLeads, listOf } from '../../leads/leads.fixtures.js';
import { createFlow, linearTree, messageStep, saveVersion, source } from '../flows.fixtures.js';
import { fillContactSources } from './filter-sources.js';

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

const rowsOf = (flow: string) =>
  ctx.db
    .selectFrom('flow_leads')
    .select(['lead_uuid', 'status', 'added_by', 'contact_source_id', 'flow_node_id'])
    .where('flow_uuid', '=', flow)
    .orderBy('lead_uuid')
    .execute();
const put = (url: string, payload?: object) =>
  ctx.request(alice, { method: 'PUT', url, ...(payload ? { payload } : {}) });

async function fillingFlow(listUuid: string, extra: Record<string, unknown> = {}) {
  const flow = await createFlow(ctx, alice);
  const saved = await saveVersion(ctx, alice, flow.uuid, {
    nodes: linearTree([messageStep()]),
    contact_sources: [source(), source({ id: 2, mass_actions_filter: { list_uuid: listUuid }, ...extra })],
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return flow;
}

describe('self-filling contact sources', () => {
  it('enroll existing matching contacts at start and new or changed ones afterwards, while on', async () => {
    const target = await listOf(ctx, alice, 'Target');
    const elsewhere = await listOf(ctx, alice, 'Elsewhere');
    const inList = await createLeads(ctx, alice, target.uuid, [{ first_name: 'A1' }, { first_name: 'A2' }]);
    const [blocked] = await createLeads(ctx, alice, target.uuid, [
      { first_name: 'B', work_email: 'b@fill-block.test' },
    ]);
    await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { email: 'b@fill-block.test' },
    });
    const [outside] = await createLeads(ctx, alice, elsewhere.uuid, [{ first_name: 'O' }]);
    const flow = await fillingFlow(target.uuid);

    // Draft: nothing happens.
    await fillContactSources(ctx.db);
    expect(await rowsOf(flow.uuid)).toEqual([]);

    await put(`/flows/api/flows/${flow.uuid}/start`);
    await fillContactSources(ctx.db);
    const first = await rowsOf(flow.uuid);
    expect(first.map((r) => r.lead_uuid).sort()).toEqual(inList.map((l) => l.uuid).sort());
    expect(
      first.every((r) => r.added_by === 'filter' && r.contact_source_id === 2 && r.flow_node_id === 1),
    ).toBe(true);
    expect(first.some((r) => r.lead_uuid === blocked!.uuid)).toBe(false);

    // A new contact in the list, and one moved into it.
    const [late] = await createLeads(ctx, alice, target.uuid, [{ first_name: 'Late' }]);
    const moved = await put(`/leads/api/leads/${outside!.uuid}`, { list_uuid: target.uuid });
    expect(moved.statusCode, moved.body).toBe(200);
    await fillContactSources(ctx.db);
    const second = (await rowsOf(flow.uuid)).map((r) => r.lead_uuid);
    expect(second).toContain(late!.uuid);
    expect(second).toContain(outside!.uuid);
    expect(second).toHaveLength(4);

    // Stopped: new matches wait.
    await put(`/flows/api/flows/${flow.uuid}/stop`);
    const [waiting] = await createLeads(ctx, alice, target.uuid, [{ first_name: 'Waits' }]);
    await fillContactSources(ctx.db);
    expect(await rowsOf(flow.uuid)).toHaveLength(4);

    // Started again: the waiting contact enters.
    await put(`/flows/api/flows/${flow.uuid}/start`);
    await fillContactSources(ctx.db);
    expect((await rowsOf(flow.uuid)).map((r) => r.lead_uuid)).toContain(waiting!.uuid);
  });

  it('keep at most active_limit live enrollments per source', async () => {
    const crowd = await listOf(ctx, alice, 'Crowd');
    const people = await createLeads(
      ctx,
      alice,
      crowd.uuid,
      ['C1', 'C2', 'C3', 'C4'].map((first_name) => ({ first_name })),
    );
    const flow = await fillingFlow(crowd.uuid, { active_limit: 2 });
    await put(`/flows/api/flows/${flow.uuid}/start`);
    await fillContactSources(ctx.db, { flowUuid: flow.uuid });
    let rows = await rowsOf(flow.uuid);
    expect(rows).toHaveLength(2);

    // One finishes: one more may enter.
    await ctx.db
      .updateTable('flow_leads')
      .set({ status: 'finished' })
      .where('flow_uuid', '=', flow.uuid)
      .where('lead_uuid', '=', rows[0]!.lead_uuid)
      .execute();
    await fillContactSources(ctx.db, { flowUuid: flow.uuid });
    rows = await rowsOf(flow.uuid);
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.status === 'in_progress')).toHaveLength(2);
    expect(people.map((p) => p.uuid)).toEqual(expect.arrayContaining(rows.map((r) => r.lead_uuid)));
  });

  it('cost flows without a filter nothing: they have no fill row', async () => {
    const flow = await createFlow(ctx, alice);
    await saveVersion(ctx, alice, flow.uuid, { nodes: linearTree([messageStep()]) });
    await put(`/flows/api/flows/${flow.uuid}/start`);
    const rows = await ctx.db
      .selectFrom('flow_filter_sources')
      .select('flow_uuid')
      .where('flow_uuid', '=', flow.uuid)
      .execute();
    expect(rows).toEqual([]);
    // A version without the filter removes the row of the one before.
    const target = await listOf(ctx, alice, 'Gone');
    const filling = await fillingFlow(target.uuid);
    await saveVersion(ctx, alice, filling.uuid, { nodes: linearTree([messageStep()]) });
    expect(
      await ctx.db
        .selectFrom('flow_filter_sources')
        .select('flow_uuid')
        .where('flow_uuid', '=', filling.uuid)
        .execute(),
    ).toEqual([]);
  });

  it('fill right away when a flow starts, in a worker', async () => {
    const quick = await listOf(ctx, alice, 'Quick');
    const [person] = await createLeads(ctx, alice, quick.uuid, [{ first_name: 'Q' }]);
    const flow = await fillingFlow(quick.uuid);
    await ctx.startWorkers();
    await put(`/flows/api/flows/${flow.uuid}/start`);
    await waitFor(async () => (await rowsOf(flow.uuid)).some((r) => r.lead_uuid === person!.uuid), 10_000);
  });
});
