// One test per rule of a flow tree's shape: each checks the 422 names the node (or contact source) and
// field, and says what is wrong. What nodes and sources hold (payloads, references):
// version-contents.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { NODE_TYPE_NAMES, nodeDefinition } from '../../engine/index.js';
import {
  createFlow,
  linearTree,
  makeSender,
  messageStep,
  saveVersion,
  type TestNode,
  versionProblems,
  type WireFlow,
  withNode,
} from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let _bob: TestUser;
let flow: WireFlow;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  _bob = await ctx.createUser();
  flow = await createFlow(ctx, alice);
});
afterAll(() => ctx.close());

const problems = (body: Parameters<typeof versionProblems>[3]) =>
  versionProblems(ctx, alice, flow.uuid, body);
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
  it('accepts every node type of the catalog', async () => {
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
