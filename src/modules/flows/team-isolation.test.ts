// Every flows resource from another team's side: each route that names one of Alice's flows, versions,
// folders or contacts answers Bob as if it did not exist (404, an empty answer, or a 422 naming the
// field where the uuid sits in a body), and nothing of Alice's changes. Bob's self-filling contact
// source, whose filter matches every contact, enrolls only Bob's contacts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { defaultSchedule } from '../../lib/schedule.js';
import { createLeads, listOf } from '../leads/leads.fixtures.js';
import { fillContactSources } from './enrollments/filter-sources.js';
import { createFlow, linearTree, messageStep, saveVersion, source } from './flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

describe('flows of another team', () => {
  it('are not found by any flows route, and stay as they were', async () => {
    const folder = (
      await ctx.request(alice, { method: 'POST', url: '/flows/api/flow-workspaces', payload: { name: 'A' } })
    ).json();
    const flow = await createFlow(ctx, alice, { flow_workspace_uuid: folder.uuid });
    const nodes = linearTree([messageStep()]);
    const saved = await saveVersion(ctx, alice, flow.uuid, { nodes });
    expect(saved.statusCode, saved.body).toBe(201);
    const version = saved.json().uuid as string;
    await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/${flow.uuid}/start` });
    const list = await listOf(ctx, alice, 'Alice contacts');
    const [ann] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Ann' }]);
    const enrolled = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/leads/${ann!.uuid}`,
    });
    expect(enrolled.statusCode).toBe(204);
    const bobList = await listOf(ctx, bob, 'Bob contacts');
    const [bea] = await createLeads(ctx, bob, bobList.uuid, [{ first_name: 'Bea' }]);

    const as = (method: string, url: string, payload?: object) =>
      ctx.request(bob, { method, url, ...(payload ? { payload } : {}) });
    const notFound: Array<[string, string, object?]> = [
      ['GET', `/flows/api/flows/${flow.uuid}`],
      ['PUT', `/flows/api/flows/${flow.uuid}`, { name: 'Taken' }],
      ['PUT', `/flows/api/flows/${flow.uuid}/start`],
      ['PUT', `/flows/api/flows/${flow.uuid}/stop`],
      ['PUT', `/flows/api/flows/${flow.uuid}/archive`],
      ['PUT', `/flows/api/flows/${flow.uuid}/unarchive`],
      ['DELETE', `/flows/api/flows/${flow.uuid}`],
      ['POST', '/flows/api/flows/clone', { flow_uuid: flow.uuid, name: 'Copy' }],
      ['GET', `/flows/api/flows/${flow.uuid}/flow-versions`],
      ['POST', `/flows/api/flows/${flow.uuid}/flow-versions`, { nodes, contact_sources: [source()] }],
      ['GET', `/flows/api/flow-versions/${version}`],
      ['DELETE', `/flows/api/flow-versions/${flow.flow_version_uuid}`],
      ['PUT', `/flows/api/flow-workspaces/${folder.uuid}`, { name: 'Taken' }],
      ['DELETE', `/flows/api/flow-workspaces/${folder.uuid}`],
      ['POST', `/flows/api/flows/${flow.uuid}/leads/${bea!.uuid}`],
      ['POST', `/flows/api/flows/${flow.uuid}/leads/${ann!.uuid}`],
      [
        'POST',
        `/flows/api/flows/${flow.uuid}/add-new-lead`,
        {
          lead: { linkedin_id: 'https://www.linkedin.com/in/bob-intruder', first_name: 'B' },
          list_uuid: bobList.uuid,
        },
      ],
      ['PUT', `/flows/api/flows/${flow.uuid}/leads/${ann!.uuid}/move`, { to_flow_uuid: flow.uuid }],
      ['PUT', `/flows/api/flows/leads/${ann!.uuid}/cancel-all`],
      ['DELETE', `/flows/api/flows/leads/${ann!.uuid}`],
      ['POST', `/flows/api/flows/${flow.uuid}/statistics/nodes`, { node_ids: [1] }],
      ['POST', `/flows/api/flows/${flow.uuid}/statistics/contact-sources`, { contact_source_ids: [1] }],
    ];
    for (const [method, url, payload] of notFound) {
      const res = await as(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }

    // The refused add-new-lead created no contact either.
    const intruder = await as('POST', '/leads/api/leads/lookup-one', {
      linkedin_id: 'https://www.linkedin.com/in/bob-intruder',
    });
    expect(intruder.statusCode).toBe(404);

    // Uuids in a body: an empty answer or a 422 naming the field.
    expect((await as('POST', '/flows/api/flows/metrics', { uuids: [flow.uuid] })).json()).toEqual({});
    expect(
      (await as('POST', '/flows/api/flows-leads/list', { filter: { lead_uuid: [ann!.uuid] } })).json(),
    ).toMatchObject({ total: 0, data: [] });
    expect(
      (await as('GET', `/flows/api/flows?filter[flow_workspace_uuid]=${folder.uuid}`)).json().total,
    ).toBe(0);
    const cancel = await as('PUT', `/flows/api/flows/leads/${bea!.uuid}/cancel`, { flow_uuids: [flow.uuid] });
    expect(cancel.statusCode).toBe(422);
    expect(cancel.json().error.data).toHaveProperty(['flow_uuids.0']);
    const intoFolder = await as('POST', '/flows/api/flows', {
      name: 'Mine',
      schedule: defaultSchedule('UTC'),
      flow_workspace_uuid: folder.uuid,
    });
    expect(intoFolder.statusCode).toBe(422);
    expect(intoFolder.json().error.data).toHaveProperty('flow_workspace_uuid');
    const mass = await as('PUT', '/leads/api/leads/mass-action', {
      type: 'contact_cancel_from_flows',
      payload: { flow_uuids: [flow.uuid] },
      filter: { all: true },
    });
    expect(mass.statusCode).toBe(422);
    expect(mass.json().error.data).toHaveProperty(['payload.flow_uuids']);

    // Alice's flow, version, folder and enrollment are as they were.
    const after = (await ctx.request(alice, { method: 'GET', url: `/flows/api/flows/${flow.uuid}` })).json();
    expect(after).toMatchObject({
      name: flow.name,
      status: 'on',
      flow_version_uuid: version,
      flow_workspace_uuid: folder.uuid,
    });
    const folders = (await ctx.request(alice, { method: 'GET', url: '/flows/api/flow-workspaces' })).json();
    expect(folders.data.map((f: { name: string }) => f.name)).toEqual(['A']);
    const rows = await ctx.db
      .selectFrom('flow_leads')
      .select(['team_id', 'lead_uuid', 'status'])
      .where('flow_uuid', '=', flow.uuid)
      .execute();
    expect(rows).toEqual([{ team_id: alice.teamId, lead_uuid: ann!.uuid, status: 'in_progress' }]);
  });

  it('never receive contacts of another team from a self-filling source', async () => {
    const aliceList = await listOf(ctx, alice, 'Alice many');
    await createLeads(ctx, alice, aliceList.uuid, [{ first_name: 'A1' }, { first_name: 'A2' }]);
    const bobList = await listOf(ctx, bob, 'Bob many');
    const mine = await createLeads(ctx, bob, bobList.uuid, [{ first_name: 'B1' }]);
    const flow = await createFlow(ctx, bob);
    const saved = await saveVersion(ctx, bob, flow.uuid, {
      nodes: linearTree([messageStep()]),
      // Matches every contact the source may see.
      contact_sources: [source({ mass_actions_filter: { all: true } })],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    await ctx.request(bob, { method: 'PUT', url: `/flows/api/flows/${flow.uuid}/start` });
    await fillContactSources(ctx.db);
    const rows = await ctx.db
      .selectFrom('flow_leads')
      .select(['team_id', 'lead_uuid'])
      .where('flow_uuid', '=', flow.uuid)
      .execute();
    const bobLeads = await ctx.db
      .selectFrom('leads')
      .select('uuid')
      .where('team_id', '=', bob.teamId)
      .execute();
    expect(rows.every((row) => row.team_id === bob.teamId)).toBe(true);
    expect(rows.map((row) => row.lead_uuid).sort()).toEqual(bobLeads.map((lead) => lead.uuid).sort());
    expect(rows.map((row) => row.lead_uuid)).toContain(mine[0]!.uuid);
  });
});
