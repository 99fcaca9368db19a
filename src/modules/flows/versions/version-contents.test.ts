// What the nodes and contact sources of a version hold: payloads checked per type, references to the
// team's records, contact sources; and the validate-node / validate-contact-source endpoints and the
// node type catalog. The tree's shape: tree-validation.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { NODE_TYPE_NAMES } from '../../engine/index.js';
import {
  createFlow,
  linearTree,
  makeSender,
  messageStep,
  saveVersion,
  source,
  versionProblems,
  type WireFlow,
  withNode,
} from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let flow: WireFlow;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  flow = await createFlow(ctx, alice);
});
afterAll(() => ctx.close());

const problems = (body: Parameters<typeof versionProblems>[3]) =>
  versionProblems(ctx, alice, flow.uuid, body);

describe('payloads, references and contact sources', () => {
  it('checks payloads per type: lengths, bounds, required and unknown keys', async () => {
    const long = await problems({ nodes: linearTree([messageStep('x'.repeat(8001))]) });
    expect(long['nodes[id=1].payload.template']![0]).toMatch(
      /^Node 1 \(linkedin_send_message\): payload.template must/,
    );
    expect(long['nodes[id=1].payload.template']![0]).toMatch(/8000/);
    const subject = await problems({
      nodes: linearTree([
        { type: 'linkedin_send_inmail', payload: { subject: 's'.repeat(512), template: 'Hi' } },
      ]),
    });
    expect(subject['nodes[id=1].payload.subject']![0]).toMatch(/511/);
    const delay = await saveVersion(ctx, alice, flow.uuid, { nodes: withNode(0, { delay_in_seconds: -1 }) });
    expect(delay.statusCode).toBe(422);
    expect(delay.json().error.data['nodes.0.delay_in_seconds']).toEqual([
      'nodes.0.delay_in_seconds must be at least 0.',
    ]);
    const unknownKey = await problems({
      nodes: linearTree([{ type: 'util_timer', payload: { wait_time: 5, wait: 6 } }]),
    });
    expect(unknownKey['nodes[id=1].payload.wait']![0]).toMatch(
      /^Node 1 \(util_timer\): The payload.wait field is not accepted/,
    );
    const required = await problems({ nodes: linearTree([{ type: 'gs_add_tag', payload: {} }]) });
    expect(required['nodes[id=1].payload.tag_uuid']).toEqual([
      'Node 1 (gs_add_tag): The payload.tag_uuid field is required.',
    ]);
    const noText = await problems({
      nodes: linearTree([{ type: 'linkedin_send_message', payload: { template: ' ' } }]),
    });
    expect(noText['nodes[id=1].payload.template']).toEqual([
      'Node 1 (linkedin_send_message): payload.template (the text) or payload.template_uuid (an AI template) is required.',
    ]);
  });

  it('checks that referenced tags, lists, stages, senders and flows exist in the team', async () => {
    const bobTag = (
      await ctx.request(bob, { method: 'POST', url: '/leads/api/tags', payload: { name: 'b' } })
    ).json();
    const bobList = (
      await ctx.request(bob, { method: 'POST', url: '/leads/api/lists', payload: { name: 'b' } })
    ).json();
    const bobSender = await makeSender(ctx, bob.teamId);
    const bobFlow = await createFlow(ctx, bob);
    const missing = '0190f000-0000-7000-8000-0000000000aa';
    const data = await problems({
      nodes: linearTree([
        { type: 'gs_add_tag', payload: { tag_uuid: bobTag.uuid } },
        { type: 'gs_change_list', payload: { list_uuid: bobList.uuid } },
        { type: 'gs_change_pipeline_stage', payload: { pipeline_stage_uuid: missing } },
        { type: 'gs_change_sender_profile', payload: { sender_profile_uuid: bobSender.uuid } },
        { type: 'gs_send_to_flow', payload: { flow_uuid: bobFlow.uuid } },
        { type: 'gs_remove_from_all_automations', payload: { flow_uuids: [missing] } },
      ]),
      contact_sources: [source({ sender_profiles: [bobSender.uuid] })],
    });
    expect(data).toMatchObject({
      'nodes[id=1].payload.tag_uuid': [
        `Node 1 (gs_add_tag): payload.tag_uuid: no tag of yours has the UUID ${bobTag.uuid}.`,
      ],
      'nodes[id=2].payload.list_uuid': [
        `Node 2 (gs_change_list): payload.list_uuid: no list of yours has the UUID ${bobList.uuid}.`,
      ],
      'nodes[id=3].payload.pipeline_stage_uuid': [
        `Node 3 (gs_change_pipeline_stage): payload.pipeline_stage_uuid: no contact pipeline stage of yours has the UUID ${missing}.`,
      ],
      'nodes[id=4].payload.sender_profile_uuid': [expect.stringMatching(/no sender profile of yours/)],
      'nodes[id=5].payload.flow_uuid': [expect.stringMatching(/no flow of yours/)],
      'nodes[id=6].payload.flow_uuids.0': [expect.stringMatching(/no flow of yours/)],
      'contact_sources[id=1].sender_profiles.0': [
        `Contact source 1: sender_profiles.0: no sender profile of yours has the UUID ${bobSender.uuid}.`,
      ],
    });
  });

  it('checks that attachments exist in the team', async () => {
    const missing = '0190f000-0000-7000-8000-0000000000ab';
    const data = await problems({
      nodes: linearTree([
        { type: 'linkedin_send_message', payload: { template: 'Hi', attachments: [{ uuid: missing }] } },
      ]),
    });
    expect(data['nodes[id=1].payload.attachments.0']).toEqual([
      `Node 1 (linkedin_send_message): payload.attachments.0: no attachment of yours has the UUID ${missing}.`,
    ]);
  });

  it('refuses sending a contact to the flow it is in', async () => {
    const data = await problems({
      nodes: linearTree([{ type: 'gs_send_to_flow', payload: { flow_uuid: flow.uuid } }]),
    });
    expect(data['nodes[id=1].payload.flow_uuid']).toEqual([
      'Node 1 (gs_send_to_flow): payload.flow_uuid names this flow; a contact is never enrolled twice in a flow.',
    ]);
  });

  it('refuses a rotation to a contact source the version does not have', async () => {
    const data = await problems({
      nodes: linearTree([
        { type: 'gs_rotate_sender_profile', payload: { rotations: [{ contact_source_id: 4 }] } },
      ]),
    });
    expect(data['nodes[id=1].payload.rotations.0.contact_source_id']![0]).toMatch(
      /names contact source 4, which this version does not have/,
    );
  });

  it('requires at least one contact source, with the hosted message', async () => {
    const res = await saveVersion(ctx, alice, flow.uuid, { nodes: linearTree([]), contact_sources: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      message: 'The contact sources field is required.',
      data: { contact_sources: ['The contact sources field is required.'] },
    });
  });

  it('checks contact sources: entry node, unique ids, rotation strategy and filter', async () => {
    const data = await problems({
      nodes: linearTree([]),
      contact_sources: [
        source({ after_id: 5 }),
        source({ after_id: null }),
        source({ id: 2, mass_actions_filter: { planet: 'x' } }),
      ],
    });
    expect(data['contact_sources[id=1].after_id']).toEqual([
      'Contact source 1: after_id names node 5, which is not in the tree.',
      'Contact source 1: after_id is required: the node its contacts start at.',
    ]);
    expect(data['contact_sources[id=1].id']).toEqual(['Contact source id 1 is used twice; ids are unique.']);
    expect(data['contact_sources[id=2].mass_actions_filter.planet']![0]).toMatch(
      /Unknown contact filter key "planet"/,
    );
    const strategy = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([]),
      contact_sources: [source({ rotation_strategy: 'random' })],
    });
    expect(strategy.statusCode).toBe(422);
    expect(strategy.json().error.data['contact_sources.0.rotation_strategy']).toEqual([
      'contact_sources.0.rotation_strategy must be fair.',
    ]);
  });

  it('refuses a first_common_node_id that names no node', async () => {
    const data = await problems({ nodes: linearTree([]), first_common_node_id: 3 });
    expect(data.first_common_node_id).toEqual([
      'first_common_node_id names node 3, which is not in the tree.',
    ]);
  });
});

describe('validate-node and validate-contact-source', () => {
  it('answer 204 for a valid node and 422 naming what is wrong', async () => {
    const valid = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-node',
      payload: {
        id: 3,
        type: 'util_timer',
        before: [],
        after: [{ node_id: 4, branch_id: 1 }],
        payload: { wait_time: 60 },
      },
    });
    expect(valid.statusCode, valid.body).toBe(204);
    const invalid = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-node',
      payload: {
        id: 3,
        type: 'rule_ab_test',
        before: [],
        after: [{ node_id: 4, branch_id: 3 }],
        payload: {
          branches: [
            { value: 10, branch_id: 1 },
            { value: 10, branch_id: 2 },
          ],
        },
      },
    });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().error.data).sort()).toEqual([
      'nodes[id=3].after.0.branch_id',
      'nodes[id=3].payload.branches',
    ]);
  });

  it('validate-node takes every node of a saved version as GET answers it (timestamps included)', async () => {
    const saved = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([
        { type: 'util_timer', payload: { wait_time: 60 } },
        messageStep(),
        { type: 'linkedin_visit_profile' },
      ]),
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const read = await ctx.request(alice, {
      method: 'GET',
      url: `/flows/api/flow-versions/${saved.json().uuid}`,
    });
    const nodes = read.json().nodes as Array<Record<string, unknown>>;
    expect(nodes).toHaveLength(4);
    for (const node of nodes) {
      expect(node).toHaveProperty('created_at');
      expect(node).toHaveProperty('updated_at');
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/flows/api/flow-versions/validate-node',
        payload: node,
      });
      expect(res.statusCode, `${node.type}: ${res.body}`).toBe(204);
    }
  });

  it('answer 200 with the normalized source, or 422', async () => {
    const sender = await makeSender(ctx, alice.teamId);
    const ok = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-contact-source',
      payload: { id: 2, type: 'manual', sender_profiles: [sender.uuid], after_id: 3 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      id: 2,
      rotation_strategy: 'fair',
      sender_profiles: [sender.uuid],
      after_id: 3,
    });
    const bad = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-contact-source',
      payload: { id: 2, sender_profiles: ['0190f000-0000-7000-8000-0000000000aa'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty(['contact_sources[id=2].sender_profiles.0']);
  });

  it('lists the node type catalog with payload schemas', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/flows/api/flow-versions/node-types' });
    expect(res.statusCode).toBe(200);
    const timer = res.json().find((t: { type: string }) => t.type === 'util_timer');
    expect(timer).toMatchObject({ category: 'delay', branches: [1], needs_sender: false });
    expect(timer.payload_schema.properties.wait_time.maximum).toBe(31_536_000);
    expect(res.json()).toHaveLength(NODE_TYPE_NAMES.length);
  });
});
