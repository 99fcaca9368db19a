// One test per rule of a flow tree: each checks the 422 names the node (or contact source) and field,
// and says what is wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { NODE_TYPE_NAMES, nodeDefinition } from '../../engine/index.js';
import {
  createFlow,
  linearTree,
  makeSender,
  messageStep,
  saveVersion,
  source,
  type TestNode,
  type WireFlow,
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

/** Saves and expects a 422; answers path → messages. */
async function problems(body: {
  nodes: unknown[];
  contact_sources?: unknown[];
  first_common_node_id?: number | null;
}) {
  const res = await saveVersion(ctx, alice, flow.uuid, body);
  expect(res.statusCode, res.body).toBe(422);
  return res.json().error.data as Record<string, string[]>;
}

const withNode = (index: number, change: Partial<TestNode>, nodes = linearTree([messageStep()])) => {
  nodes[index] = { ...nodes[index]!, ...change };
  return nodes;
};

/** A branching tree: 1 = `type` with branches `ids`, each branch to its own end node. */
function branching(type: string, payload: Record<string, unknown>, ids: number[]): TestNode[] {
  return [
    {
      id: 1,
      type,
      before: [],
      after: ids.map((branch, index) => ({ node_id: 10 + index, branch_id: branch })),
      payload,
    },
    ...ids.map((branch, index) => ({
      id: 10 + index,
      type: 'end',
      before: [{ node_id: 1, branch_id: branch }],
      after: [],
    })),
  ];
}

describe('tree validation', () => {
  it('accepts every node type of the catalogue', async () => {
    const tag = (
      await ctx.request(alice, { method: 'POST', url: '/leads/api/tags', payload: { name: 'hot' } })
    ).json();
    const list = (
      await ctx.request(alice, { method: 'POST', url: '/leads/api/lists', payload: { name: 'L' } })
    ).json();
    const stage = (
      await ctx.request(alice, { method: 'GET', url: '/leads/api/pipeline-stages?filter[object]=lead' })
    ).json().data[0];
    const sender = await makeSender(ctx, alice.teamId);
    const other = await createFlow(ctx, alice, { name: 'Other' });
    const webhook = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: { name: 'w', event: 'contact_exported', target_url: 'https://8.8.8.8/hook' },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const payloads: Record<string, Record<string, unknown>> = {
      trigger_message_replied: {
        subtasks: [{ type: 'util_timer', payload: { wait_time: 86400 } }],
        check_period_type: 'last_response',
      },
      trigger_linkedin_connection_request_accepted: {
        subtasks: [{ id: 99, type: 'util_timer', payload: { wait_time: 3600 } }],
      },
      trigger_email_opened: { subtasks: [] },
      trigger_link_clicked: { subtasks: [] },
      trigger_website_page_visited: { wait_time: 60, wildcard: 'https://site.com/pricing*' },
      linkedin_send_connection_request: { template: 'Hi', fallback_send: true, template_uuid: null },
      linkedin_send_message: {
        template: 'Hi',
        attachments: [],
        template_uuid: null,
        stop_on_reply_level: 'always',
      },
      linkedin_send_inmail: { subject: 'S', template: 'Hi', attachments: [], template_uuid: null },
      linkedin_comment_latest_post: { template: 'Nice', template_uuid: null },
      linkedin_endorse_skills: { number: 3 },
      linkedin_find_contact: { linkedin_filters: [], save_limit: 10, list_uuid: list.uuid },
      linkedin_withdraw_connection_request: { note: 'n', withdraw_key: 'k' },
      email_send_message: {
        subject: 'Hello',
        template: '<p>Hi</p>',
        add_history: 0,
        attachments: [],
        email_field: 'work_email',
        cc: [{ to_name: 'A', to_email: 'a@example.com' }],
        template_uuid: null,
        stop_on_reply_level: 'always',
      },
      email_search_waterflow: {
        waterflow_sequence: [{ provider: 'hunter' }],
        verification_provider: { provider: 'email_list_verify' },
        accept_catch_all: false,
      },
      rule_ab_test: {
        branches: [
          { value: 50, branch_id: 1, is_enabled: true },
          { value: 50, branch_id: 2, is_enabled: true },
        ],
      },
      rule_filter: {
        branches: [
          { branch_id: 1, filters: { mass_actions_filter: { list_uuid: list.uuid }, json_logic: {} } },
          { branch_id: 0 },
        ],
      },
      rule_manual_router: {
        branches: [
          { branch_id: 1, name: 'Yes' },
          { branch_id: 2, name: 'No' },
        ],
        note: 'n',
      },
      ai_rule_filter: {
        branches: [{ branch_id: 1, name: 'Buyer', description: 'wants to buy' }, { branch_id: 0 }],
        classification_instructions: 'c',
      },
      util_timer: { wait_time: 3600 },
      util_hodor: { is_open: 0 },
      gs_add_tag: { tag_uuid: tag.uuid },
      gs_remove_tag: { tag_uuid: tag.uuid },
      gs_change_list: { list_uuid: list.uuid },
      gs_change_pipeline_stage: { pipeline_stage_uuid: stage.uuid },
      gs_change_sender_profile: { sender_profile_uuid: sender.uuid },
      gs_rotate_sender_profile: { rotations: [{ contact_source_id: 1 }] },
      gs_remove_from_all_automations: { flow_uuids: null },
      gs_send_to_flow: { flow_uuid: other.uuid },
      gs_call_api: {
        method: 'POST',
        endpoint: 'https://example.com/hook',
        headers: {},
        query: {},
        post: { a: 1 },
        timeout_secs: 10,
      },
      gs_trigger_custom_webhook: { webhook_uuid: webhook.json().uuid },
      integration_export_to_crm: { integration_uuid: '0190f000-0000-7000-8000-000000000009' },
      phone_call_phone: { note: 'call' },
      gs_enqueue_for_enrichment: { run_settings: 'outdated_only', outdated_older_than_in_seconds: 2592000 },
      custom: { anything: true },
    };
    const branchesOf: Record<string, number[]> = {
      rule_filter: [1, 0],
      rule_manual_router: [1, 2],
      ai_rule_filter: [1, 0],
    };
    const types = NODE_TYPE_NAMES.filter((type) => type !== 'end');
    // Each type as the first node of its own flow, every branch to an end node.
    for (const type of types) {
      const definition = nodeDefinition(type)!;
      const ids =
        branchesOf[type] ?? (definition.branches.kind === 'fixed' ? [...definition.branches.ids] : [1]);
      const target = await createFlow(ctx, alice, { name: type });
      const res = await saveVersion(ctx, alice, target.uuid, {
        nodes: branching(type, payloads[type] ?? {}, ids),
      });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(201);
    }
  });

  it('refuses an unknown node type, listing the types', async () => {
    const data = await problems({ nodes: withNode(0, { type: 'linkedin_teleport' }) });
    expect(data['nodes[id=1].type']![0]).toMatch(
      /^Node 1: unknown node type "linkedin_teleport". Types: .*linkedin_send_message/,
    );
  });

  it('refuses a node without before or after with a 422 naming the field (never a 500)', async () => {
    const { before: _b, ...node } = linearTree([])[0]!;
    const res = await saveVersion(ctx, alice, flow.uuid, { nodes: [node] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data['nodes.0.before']).toEqual(['The nodes.0.before field is required.']);
    const single = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-node',
      payload: { id: 1, type: 'end', before: [] },
    });
    expect(single.statusCode).toBe(422);
    expect(single.json().error.data.after).toEqual(['The after field is required.']);
  });

  it('refuses a node id used twice', async () => {
    const nodes = linearTree([messageStep()]);
    nodes.push({ ...nodes[1]!, before: [] });
    const data = await problems({ nodes });
    expect(data['nodes[id=2].id']).toEqual(['Node id 2 is used twice; node ids are unique.']);
  });

  it('refuses an edge to a node that is not in the tree', async () => {
    const data = await problems({ nodes: withNode(0, { after: [{ node_id: 7, branch_id: 1 }] }) });
    expect(data['nodes[id=1].after.0.node_id']).toEqual([
      'Node 1 (linkedin_send_message): after.0 names node 7, which is not in the tree.',
    ]);
  });

  it('refuses asymmetric edges', async () => {
    const data = await problems({ nodes: withNode(1, { before: [] }) });
    expect(data['nodes[id=1].after.0']![0]).toMatch(
      /Node 1 \(linkedin_send_message\): the edge to node 2 \(branch 1\) has no matching before edge \{node_id: 1, branch_id: 1\} on node 2/,
    );
  });

  it('refuses branch ids a node type does not have', async () => {
    const filter = await problems({
      nodes: branching(
        'rule_filter',
        { branches: [{ branch_id: 1, filters: { mass_actions_filter: { all: true } } }, { branch_id: 0 }] },
        [1, 2],
      ),
    });
    expect(filter['nodes[id=1].after.1.branch_id']).toEqual([
      'Node 1 (rule_filter): branch 2 is not a branch of rule_filter (branches: 1, 0).',
    ]);
    const linear = await problems({ nodes: branching('util_timer', { wait_time: 5 }, [1, 2]) });
    expect(linear['nodes[id=1].after.1.branch_id']![0]).toMatch(
      /branch 2 is not a branch of util_timer \(branches: 1\)/,
    );
    const twice = withNode(0, {
      after: [
        { node_id: 2, branch_id: 1 },
        { node_id: 2, branch_id: 1 },
      ],
    });
    expect((await problems({ nodes: twice }))['nodes[id=1].after.1.branch_id']![0]).toMatch(
      /branch 1 leads to two nodes/,
    );
    const endWithEdge = linearTree([]);
    endWithEdge[0]!.after = [{ node_id: 1, branch_id: 1 }];
    expect((await problems({ nodes: endWithEdge }))['nodes[id=1].after.0.branch_id']).toEqual([
      'Node 1 (end): an end node has no outgoing edges.',
    ]);
  });

  it('refuses a branch that does not end in an end node', async () => {
    const trigger = branching('trigger_linkedin_connection_request_accepted', { subtasks: [] }, [1, 2]);
    trigger[0]!.after = [trigger[0]!.after[0]!];
    trigger.pop();
    const data = await problems({ nodes: trigger });
    expect(data['nodes[id=1].after']).toEqual([
      'Node 1 (trigger_linkedin_connection_request_accepted): branch 2 leads nowhere; every branch must end in an end node.',
    ]);
  });

  it('refuses A/B values that do not add up to 100', async () => {
    const data = await problems({
      nodes: branching(
        'rule_ab_test',
        {
          branches: [
            { value: 50, branch_id: 1 },
            { value: 40, branch_id: 2, is_enabled: true },
          ],
        },
        [1, 2],
      ),
    });
    expect(data['nodes[id=1].payload.branches']).toEqual([
      'Node 1 (rule_ab_test): the values of the enabled branches must add up to 100 (they add up to 90).',
    ]);
    const disabled = await saveVersion(ctx, alice, flow.uuid, {
      nodes: branching(
        'rule_ab_test',
        {
          branches: [
            { value: 100, branch_id: 1 },
            { value: 50, branch_id: 2, is_enabled: false },
          ],
        },
        [1, 2],
      ),
    });
    expect(disabled.statusCode, disabled.body).toBe(201);
  });

  it('refuses a filter rule without the contact filter of branch 1, or with a bad one', async () => {
    const missing = await problems({
      nodes: branching('rule_filter', { branches: [{ branch_id: 1 }, { branch_id: 0 }] }, [1, 0]),
    });
    expect(missing['nodes[id=1].payload.branches']![0]).toMatch(/branch 1 needs filters.mass_actions_filter/);
    const bad = await problems({
      nodes: branching(
        'rule_filter',
        {
          branches: [{ branch_id: 1, filters: { mass_actions_filter: { shoe_size: 42 } } }, { branch_id: 0 }],
        },
        [1, 0],
      ),
    });
    expect(bad['nodes[id=1].payload.branches.0.filters.mass_actions_filter.shoe_size']![0]).toMatch(
      /^Node 1 \(rule_filter\): payload.branches.0.filters.mass_actions_filter: Unknown contact filter key "shoe_size"/,
    );
  });

  it('refuses cycles', async () => {
    const nodes = linearTree([messageStep(), { type: 'util_timer', payload: { wait_time: 60 } }]);
    nodes[1]!.after = [{ node_id: 1, branch_id: 1 }];
    nodes[0]!.before = [{ node_id: 2, branch_id: 1 }];
    nodes[2]!.before = [];
    const data = await problems({ nodes });
    expect(Object.values(data).flat()).toContain(
      'Nodes 1 → 2 → 1 form a cycle; every path must run forward to an end node.',
    );
  });

  it('refuses nodes no contact source reaches', async () => {
    const nodes = linearTree([messageStep()]);
    nodes.push({ id: 9, type: 'end', before: [], after: [] });
    const data = await problems({ nodes });
    expect(data['nodes[id=9]']).toEqual([
      'Node 9 (end) cannot be reached from the after_id of any contact source.',
    ]);
  });

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

  it('lists every problem of a tree in one answer', async () => {
    const nodes = linearTree([{ type: 'nope' }, { type: 'util_timer', payload: {} }]);
    const res = await saveVersion(ctx, alice, flow.uuid, { nodes, first_common_node_id: 42 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.data).sort()).toEqual([
      'first_common_node_id',
      'nodes[id=1].type',
      'nodes[id=2].payload.wait_time',
    ]);
    expect(res.json().error.message).toMatch(/\(and 2 more problems; see data\)$/);
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

  it('lists the node type catalogue with payload schemas', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/flows/api/flow-versions/node-types' });
    expect(res.statusCode).toBe(200);
    const timer = res.json().find((t: { type: string }) => t.type === 'util_timer');
    expect(timer).toMatchObject({ category: 'delay', branches: [1], needs_sender: false });
    expect(timer.payload_schema.properties.wait_time.maximum).toBe(31_536_000);
    expect(res.json()).toHaveLength(NODE_TYPE_NAMES.length);
  });
});
