import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { defaultSchedule } from '../../lib/schedule.js';
import {
  createFlow,
  linearTree,
  makeEnrollments,
  makeSender,
  messageStep,
  saveVersion,
  source,
  type WireFlow,
} from './flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

const put = (user: TestUser, url: string, payload?: unknown) =>
  ctx.request(user, { method: 'PUT', url, ...(payload === undefined ? {} : { payload: payload as object }) });
const get = (user: TestUser, url: string) => ctx.request(user, { method: 'GET', url });

describe('POST /flows/api/flows', () => {
  it('creates a draft flow with an initial version: one end node and the default contact source', async () => {
    const flow = await createFlow(ctx, alice, { name: 'DACH CTO Outreach', description: 'Test' });
    expect(flow).toMatchObject({
      name: 'DACH CTO Outreach',
      description: 'Test',
      status: 'draft',
      priority: 2,
      use_sender_schedule: false,
      is_public: false,
      team_id: alice.teamId,
      user_id: alice.userId,
      flow_workspace_uuid: null,
      schedule: defaultSchedule('Europe/Berlin'),
      first_common_node_id: null,
    });
    expect(flow.nodes).toEqual([
      expect.objectContaining({ id: 1, type: 'end', before: [], after: [], automation: 'auto', payload: {} }),
    ]);
    expect(flow.contact_sources).toEqual([
      {
        id: 1,
        name: null,
        rotation_strategy: 'fair',
        sender_profiles: [],
        after_id: 1,
        active_limit: null,
        coworkers_limit: null,
        mass_actions_filter: null,
        filter_tree_format: null,
      },
    ]);
    const versions = await get(alice, `/flows/api/flows/${flow.uuid}/flow-versions`);
    expect(versions.json()).toHaveLength(1);
    expect(versions.json()[0]).toMatchObject({ uuid: flow.flow_version_uuid, is_active: true });
  });

  it('refuses a flow without name or schedule, naming the field', async () => {
    const noName = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { schedule: defaultSchedule() },
    });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().error.data).toHaveProperty('name');
    const noSchedule = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'x' },
    });
    expect(noSchedule.statusCode).toBe(422);
    expect(noSchedule.json().error.data).toHaveProperty('schedule');
    expect(noSchedule.json().message).toContain('unless use_sender_schedule is true');
    // Steps in each sender's schedule need no schedule of the flow: the team's default is kept.
    const senders = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'x', use_sender_schedule: true },
    });
    expect(senders.statusCode, senders.body).toBe(201);
    expect(senders.json()).toMatchObject({
      use_sender_schedule: true,
      schedule: { timeblocks: expect.any(Array) },
    });
    const stillNeeded = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'x', use_sender_schedule: false },
    });
    expect(stillNeeded.statusCode).toBe(422);
    expect(stillNeeded.json().error.data).toHaveProperty('schedule');
  });

  it('names the bad time block and the unknown time zone', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: {
        name: 'x',
        schedule: { timezone: 'Mars/Olympus', timeblocks: [{ dow: 1, min: 600, max: 600 }] },
      },
    });
    expect(res.statusCode).toBe(422);
    // The zone is a format of the schema, so it is refused before the block rule runs.
    expect(Object.keys(res.json().error.data)).toEqual(['schedule.timezone']);
    const badBlock = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'x', schedule: { timezone: 'UTC', timeblocks: [{ dow: 1, min: 600, max: 600 }] } },
    });
    expect(badBlock.statusCode).toBe(422);
    expect(Object.keys(badBlock.json().error.data)).toEqual(['schedule.timeblocks.0']);
    const unknownKey = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'x', schedule: defaultSchedule(), colour: 'red' },
    });
    expect(unknownKey.statusCode).toBe(422);
    expect(unknownKey.json().error.data).toHaveProperty('colour');
  });

  it('refuses a workspace of another team', async () => {
    const folder = await ctx.request(bob, {
      method: 'POST',
      url: '/flows/api/flow-workspaces',
      payload: { name: 'B' },
    });
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'x', schedule: defaultSchedule(), flow_workspace_uuid: folder.json().uuid },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('flow_workspace_uuid');
  });
});

describe('GET /flows/api/flows', () => {
  it('filters by status, name and workspace (bracket and flat forms) and pages', async () => {
    const carol = await ctx.createUser();
    const folder = (
      await ctx.request(carol, { method: 'POST', url: '/flows/api/flow-workspaces', payload: { name: 'Q2' } })
    ).json();
    const a = await createFlow(ctx, carol, { name: 'Alpha CTOs', flow_workspace_uuid: folder.uuid });
    const b = await createFlow(ctx, carol, { name: 'Beta CMOs' });
    await put(carol, `/flows/api/flows/${b.uuid}/start`);

    const page = (await get(carol, '/flows/api/flows?limit=1')).json();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 0, has_more: true });
    expect(page.data[0].uuid).toBe(b.uuid);
    expect(page.data[0]).not.toHaveProperty('nodes');
    const on = (await get(carol, '/flows/api/flows?filter[status]=on')).json();
    expect(on.data.map((f: WireFlow) => f.uuid)).toEqual([b.uuid]);
    const flat = (await get(carol, '/flows/api/flows?status=draft')).json();
    expect(flat.data.map((f: WireFlow) => f.uuid)).toEqual([a.uuid]);
    const q = (await get(carol, '/flows/api/flows?filter[q]=cto')).json();
    expect(q.data.map((f: WireFlow) => f.uuid)).toEqual([a.uuid]);
    const inFolder = (await get(carol, `/flows/api/flows?filter[flow_workspace_uuid]=${folder.uuid}`)).json();
    expect(inFolder.data.map((f: WireFlow) => f.uuid)).toEqual([a.uuid]);
    const bad = await get(carol, '/flows/api/flows?filter[status]=running');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.message).toMatch(/on, off, draft, archived/);
  });
});

describe('GET, PUT, DELETE /flows/api/flows/{flowUuid}', () => {
  it('gets the flow with its active tree, updates what may change, and hides it from other teams', async () => {
    const flow = await createFlow(ctx, alice);
    const got = (await get(alice, `/flows/api/flows/${flow.uuid}`)).json();
    expect(got.nodes.map((n: { id: number }) => n.id)).toEqual([1]);

    const updated = await put(alice, `/flows/api/flows/${flow.uuid}`, {
      name: 'Renamed',
      description: null,
      priority: 7,
      schedule: defaultSchedule('UTC'),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Renamed',
      description: null,
      priority: 7,
      status: 'draft',
    });
    expect(updated.json().schedule.timezone).toBe('UTC');

    for (const res of [
      await get(bob, `/flows/api/flows/${flow.uuid}`),
      await put(bob, `/flows/api/flows/${flow.uuid}`, { name: 'x' }),
      await put(bob, `/flows/api/flows/${flow.uuid}/start`),
      await ctx.request(bob, { method: 'DELETE', url: `/flows/api/flows/${flow.uuid}` }),
      await get(bob, `/flows/api/flows/${flow.uuid}/flow-versions`),
      await get(bob, `/flows/api/flow-versions/${flow.flow_version_uuid}`),
      await ctx.request(bob, {
        method: 'POST',
        url: '/flows/api/flows/clone',
        payload: { flow_uuid: flow.uuid, name: 'x' },
      }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await get(bob, '/flows/api/flows')).json().total).toBe(0);
  });

  it('moves a flow into a folder and out of it, never into another team\u2019s folder', async () => {
    const flow = await createFlow(ctx, alice);
    const folder = (
      await ctx.request(alice, { method: 'POST', url: '/flows/api/flow-workspaces', payload: { name: 'Q3' } })
    ).json();
    const moved = await put(alice, `/flows/api/flows/${flow.uuid}`, { flow_workspace_uuid: folder.uuid });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ flow_workspace_uuid: folder.uuid, name: flow.name });
    const out = await put(alice, `/flows/api/flows/${flow.uuid}`, { flow_workspace_uuid: null });
    expect(out.json().flow_workspace_uuid).toBeNull();
    const bobFolder = (
      await ctx.request(bob, { method: 'POST', url: '/flows/api/flow-workspaces', payload: { name: 'B' } })
    ).json();
    const foreign = await put(alice, `/flows/api/flows/${flow.uuid}`, {
      flow_workspace_uuid: bobFolder.uuid,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.data).toHaveProperty('flow_workspace_uuid');
    expect((await get(alice, `/flows/api/flows/${flow.uuid}`)).json().flow_workspace_uuid).toBeNull();
  });

  it('deletes the flow and its versions; its live enrollments end as canceled (flow_deleted)', async () => {
    const flow = await createFlow(ctx, alice);
    const [live, done] = await makeEnrollments(ctx, alice.teamId, flow, [
      { node: 1 },
      { node: 1, status: 'finished' },
    ]);
    const res = await ctx.request(alice, { method: 'DELETE', url: `/flows/api/flows/${flow.uuid}` });
    expect(res.statusCode).toBe(204);
    expect((await get(alice, `/flows/api/flows/${flow.uuid}`)).statusCode).toBe(404);
    expect((await get(alice, `/flows/api/flow-versions/${flow.flow_version_uuid}`)).statusCode).toBe(404);
    const rows = await ctx.db
      .selectFrom('flow_leads')
      .select(['uuid', 'status', 'reason'])
      .where('flow_uuid', '=', flow.uuid)
      .execute();
    expect(rows.find((r) => r.uuid === live!.uuid)).toMatchObject({
      status: 'canceled',
      reason: 'flow_deleted',
    });
    expect(rows.find((r) => r.uuid === done!.uuid)).toMatchObject({ status: 'finished', reason: null });
  });
});

describe('flow status machine', () => {
  const activeOf = async (flowUuid: string) =>
    await ctx.db
      .selectFrom('flow_leads')
      .select(['status', 'flow_active', 'reason'])
      .where('flow_uuid', '=', flowUuid)
      .execute();

  it('starts, stops, archives and unarchives, mirroring the status onto the enrollments', async () => {
    const flow = await createFlow(ctx, alice);
    await makeEnrollments(ctx, alice.teamId, flow, [{ node: 1 }]);
    expect((await activeOf(flow.uuid))[0]!.flow_active).toBe(false);

    const started = await put(alice, `/flows/api/flows/${flow.uuid}/start`);
    expect(started.statusCode).toBe(200);
    expect(started.json().status).toBe('on');
    expect((await activeOf(flow.uuid))[0]!.flow_active).toBe(true);
    expect((await put(alice, `/flows/api/flows/${flow.uuid}/start`)).json().status).toBe('on');

    const stopped = await put(alice, `/flows/api/flows/${flow.uuid}/stop`);
    expect(stopped.json().status).toBe('off');
    expect((await activeOf(flow.uuid))[0]).toMatchObject({ flow_active: false, status: 'in_progress' });
    expect((await put(alice, `/flows/api/flows/${flow.uuid}/stop`)).json().status).toBe('off');
    expect((await put(alice, `/flows/api/flows/${flow.uuid}/unarchive`)).json().status).toBe('off');

    await put(alice, `/flows/api/flows/${flow.uuid}/start`);
    const archived = await put(alice, `/flows/api/flows/${flow.uuid}/archive`);
    expect(archived.json().status).toBe('archived');
    expect((await activeOf(flow.uuid))[0]).toMatchObject({
      status: 'canceled',
      reason: 'flow_archived',
    });

    const refused = await put(alice, `/flows/api/flows/${flow.uuid}/start`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toMatch(/archived flow cannot be started.*unarchive/i);

    const unarchived = await put(alice, `/flows/api/flows/${flow.uuid}/unarchive`);
    expect(unarchived.json().status).toBe('off');
    expect((await put(alice, `/flows/api/flows/${flow.uuid}/start`)).json().status).toBe('on');
  });

  it('clones the settings and active version into a stopped flow', async () => {
    const flow = await createFlow(ctx, alice, { priority: 9, description: 'original' });
    const nodes = linearTree([messageStep()]);
    expect((await saveVersion(ctx, alice, flow.uuid, { nodes })).statusCode).toBe(201);
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows/clone',
      payload: { flow_uuid: flow.uuid, name: 'Copy' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json();
    expect(copy).toMatchObject({ name: 'Copy', status: 'off', priority: 9, description: 'original' });
    expect(copy.uuid).not.toBe(flow.uuid);
    expect(copy.nodes.map((n: { type: string }) => n.type)).toEqual(['linkedin_send_message', 'end']);
    const missingName = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows/clone',
      payload: { flow_uuid: flow.uuid },
    });
    expect(missingName.statusCode).toBe(422);
    expect(missingName.json().error.data).toHaveProperty('name');
  });

  it('clones by path and lists by body, the forms the hosted MCP server sends', async () => {
    const flow = await createFlow(ctx, alice, { description: 'by path' });
    const res = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/clone`,
      payload: { name: 'Path copy' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Path copy', status: 'off', description: 'by path' });
    const foreign = await ctx.request(bob, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/clone`,
      payload: { name: 'Stolen' },
    });
    expect(foreign.statusCode).toBe(404);
    const extra = await ctx.request(alice, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/clone`,
      payload: { name: 'x', flow_uuid: flow.uuid },
    });
    expect(extra.statusCode).toBe(422);
    const listed = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows/list',
      payload: {
        filter: { uuid: [flow.uuid, res.json().uuid] },
        limit: 10,
        order_field: 'created_at',
        order_type: 'asc',
      },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((f: { name: string }) => f.name)).toEqual(['Outreach', 'Path copy']);
    expect(listed.json().total).toBe(2);
  });

  it('warns when the flow cannot do its work', async () => {
    const flow = await createFlow(ctx, alice);
    expect(flow.warnings.map((w) => w.code)).toEqual(['no_action_node']);

    await saveVersion(ctx, alice, flow.uuid, { nodes: linearTree([messageStep()]) });
    const noSender = (await get(alice, `/flows/api/flows/${flow.uuid}`)).json();
    expect(noSender.warnings.map((w: { code: string }) => w.code)).toEqual(['no_sender']);
    expect(noSender.warnings[0].message).toMatch(/sender_profiles/);

    const off = await makeSender(ctx, alice.teamId, 'disabled');
    await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageStep()]),
      contact_sources: [source({ sender_profiles: [off.uuid] })],
    });
    const list = (await get(alice, `/flows/api/flows?filter[uuid]=${flow.uuid}`)).json();
    expect(list.data[0].warnings.map((w: { code: string }) => w.code)).toEqual(['senders_disabled']);

    const on = await makeSender(ctx, alice.teamId, 'enabled');
    await makeSandboxSeat(ctx.db, alice.teamId, on.uuid);
    await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageStep()]),
      contact_sources: [
        source({ sender_profiles: [off.uuid] }),
        source({ id: 2, sender_profiles: [on.uuid] }),
      ],
    });
    expect((await put(alice, `/flows/api/flows/${flow.uuid}/start`)).json().warnings).toEqual([]);

    // A tree that only tags contacts needs no sender.
    const tag = (
      await ctx.request(alice, { method: 'POST', url: '/leads/api/tags', payload: { name: 'warm' } })
    ).json();
    await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([{ type: 'gs_add_tag', payload: { tag_uuid: tag.uuid } }]),
    });
    expect((await get(alice, `/flows/api/flows/${flow.uuid}`)).json().warnings).toEqual([]);
  });
});
