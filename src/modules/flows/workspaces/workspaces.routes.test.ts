import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { createFlow } from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.request(user, { method, url, ...(payload ? { payload } : {}) });

describe('/flows/api/flow-workspaces', () => {
  it('creates, lists, updates and deletes folders; deleting one leaves its flows without a folder', async () => {
    const created = await call(alice, 'POST', '/flows/api/flow-workspaces', {
      name: 'Q2 Campaigns',
      order: 2,
    });
    expect(created.statusCode, created.body).toBe(201);
    const folder = created.json();
    expect(folder).toMatchObject({
      name: 'Q2 Campaigns',
      order: 2,
      team_id: alice.teamId,
      user_id: alice.userId,
    });
    await call(alice, 'POST', '/flows/api/flow-workspaces', { name: 'Archive' });

    const byOrder = (
      await call(alice, 'GET', '/flows/api/flow-workspaces?order_field=order&order_type=asc')
    ).json();
    expect(byOrder).toMatchObject({ total: 2, has_more: false });
    expect(byOrder.data.map((w: { name: string }) => w.name)).toEqual(['Archive', 'Q2 Campaigns']);
    expect((await call(alice, 'GET', '/flows/api/flow-workspaces?filter[q]=q2')).json().total).toBe(1);

    const updated = await call(alice, 'PUT', `/flows/api/flow-workspaces/${folder.uuid}`, {
      name: 'Q3',
      order: 0,
    });
    expect(updated.json()).toMatchObject({ name: 'Q3', order: 0 });
    expect(
      (await call(alice, 'PUT', `/flows/api/flow-workspaces/${folder.uuid}`, { colour: 'x' })).statusCode,
    ).toBe(422);

    const flow = await createFlow(ctx, alice, { flow_workspace_uuid: folder.uuid });
    expect(flow.flow_workspace_uuid).toBe(folder.uuid);
    const deleted = await call(alice, 'DELETE', `/flows/api/flow-workspaces/${folder.uuid}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().uuid).toBe(folder.uuid);
    expect((await call(alice, 'GET', `/flows/api/flows/${flow.uuid}`)).json().flow_workspace_uuid).toBeNull();
    expect((await call(alice, 'DELETE', `/flows/api/flow-workspaces/${folder.uuid}`)).statusCode).toBe(404);
  });

  it('keeps each team to its own folders', async () => {
    const folder = (await call(alice, 'POST', '/flows/api/flow-workspaces', { name: 'Mine' })).json();
    expect(
      (await call(bob, 'PUT', `/flows/api/flow-workspaces/${folder.uuid}`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(bob, 'DELETE', `/flows/api/flow-workspaces/${folder.uuid}`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', '/flows/api/flow-workspaces')).json().total).toBe(0);
    const moved = await call(bob, 'POST', '/flows/api/flows', {
      name: 'x',
      schedule: { timezone: 'UTC', timeblocks: [] },
      flow_workspace_uuid: folder.uuid,
    });
    expect(moved.statusCode).toBe(422);
  });
});
