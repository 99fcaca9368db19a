// Flow nodes name AI templates by template_uuid: a version that names one the team does not have (never
// had, another team's, or deleted) is refused like any other dangling reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { createFlow, linearTree, saveVersion } from '../flows/flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function template(user: TestUser, isPublic: 0 | 1 = 1): Promise<string> {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/flows/api/ai-templates',
    payload: { name: 'T', type: 'message', is_public: isPublic, body: 'Hi {{first_name}}' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().uuid;
}

const messageNode = (templateUuid: string) => ({
  type: 'linkedin_send_message',
  payload: { template_uuid: templateUuid },
});

describe('template_uuid in flow nodes', () => {
  it('accepts the team\u2019s templates, private ones included', async () => {
    const flow = await createFlow(ctx, alice);
    const res = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageNode(await template(alice)), messageNode(await template(alice, 0))]),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses another team\u2019s template and a deleted one, naming the node', async () => {
    const foreign = await template(bob);
    const deleted = await template(alice);
    const del = await ctx.request(alice, { method: 'DELETE', url: `/flows/api/ai-templates/${deleted}` });
    expect(del.statusCode).toBe(204);
    const flow = await createFlow(ctx, alice);
    const res = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageNode(foreign), messageNode(deleted)]),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toMatchObject({
      'nodes[id=1].payload.template_uuid': [
        `Node 1 (linkedin_send_message): payload.template_uuid: no AI template of yours has the UUID ${foreign}.`,
      ],
      'nodes[id=2].payload.template_uuid': [expect.stringMatching(/no AI template of yours/)],
    });
  });
});
