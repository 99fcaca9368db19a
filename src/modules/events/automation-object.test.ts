import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { createFlow } from '../flows/flows.fixtures.js';
import { automationObject, automationObjects } from './automation-object.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

describe('the automation object of events', () => {
  it('carries uuid, name, status and priority of the team’s flows only', async () => {
    const flow = await createFlow(ctx, alice, { name: 'Launch', priority: 7 });
    await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/${flow.uuid}/start` });
    expect(await automationObject(ctx.db, alice.teamId, flow.uuid)).toEqual({
      uuid: flow.uuid,
      name: 'Launch',
      status: 'on',
      priority: 7,
    });
    expect(await automationObject(ctx.db, bob.teamId, flow.uuid)).toBeNull();
    expect(await automationObject(ctx.db, alice.teamId, null)).toBeNull();
    const many = await automationObjects(ctx.db, alice.teamId, [flow.uuid, flow.uuid, newId()]);
    expect([...many.keys()]).toEqual([flow.uuid]);
  });
});
