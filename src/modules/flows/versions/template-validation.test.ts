// Every text the engine renders is parsed with the engine's own renderer when a version is saved and by
// validate-node: a template typo is a 422 naming the node, the field, and the parser's line and column -
// never a version that sends a broken (or empty) message later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { createFlow, linearTree, saveVersion, source, type WireFlow } from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let flow: WireFlow;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  flow = await createFlow(ctx, alice);
});
afterAll(() => ctx.close());

const UNCLOSED_OUTPUT = 'Hi {{first_name}, quick question';
const UNCLOSED_IF = '<p>Hello,</p>\n{% if company_name %}<p>Love what {{company_name}} does.</p>';

/** One node of each type with text, each with a broken text where the engine would render it. */
const broken = [
  { type: 'linkedin_send_connection_request', payload: { template: UNCLOSED_OUTPUT } },
  { type: 'linkedin_send_message', payload: { template: UNCLOSED_OUTPUT } },
  { type: 'linkedin_send_inmail', payload: { subject: 'For {{first_name}', template: 'Hi' } },
  { type: 'linkedin_comment_latest_post', payload: { template: '{Great|Nice} post{% if x %}!' } },
  { type: 'email_send_message', payload: { subject: 'Hi {{first_name}', template: UNCLOSED_IF } },
  {
    type: 'gs_call_api',
    payload: {
      method: 'POST',
      endpoint: 'https://crm.example/{{ uuid }',
      headers: { 'X-Name': '{{ first_name | shout }}' },
      query: { q: '{% if first_name %}' },
      post: { email: '{{work_email}}', note: '{% endif %}' },
    },
  },
];

describe('texts the engine renders', () => {
  it('refuses a version with a broken text in any node type, naming node, field, line and column', async () => {
    const res = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree(broken),
      contact_sources: [source()],
    });
    expect(res.statusCode, res.body).toBe(422);
    const data = res.json().error.data as Record<string, string[]>;
    expect(Object.keys(data).sort()).toEqual(
      [
        'nodes[id=1].payload.template',
        'nodes[id=2].payload.template',
        'nodes[id=3].payload.subject',
        'nodes[id=4].payload.template',
        'nodes[id=5].payload.subject',
        'nodes[id=5].payload.template',
        'nodes[id=6].payload.endpoint',
        'nodes[id=6].payload.headers.X-Name',
        'nodes[id=6].payload.query.q',
        'nodes[id=6].payload.post.note',
      ].sort(),
    );
    expect(data['nodes[id=2].payload.template']).toEqual([
      'Node 2 (linkedin_send_message): payload.template is not a valid template: output "{{first_name}, quick question" not closed, line:1, col:4.',
    ]);
    expect(data['nodes[id=1].payload.template']![0]).toMatch(
      /^Node 1 \(linkedin_send_connection_request\): .* not closed, line:1, col:4\.$/,
    );
    expect(data['nodes[id=3].payload.subject']![0]).toMatch(/not closed, line:1, col:5\.$/);
    // Spintax options are parsed too; the column counts in the author's source.
    expect(data['nodes[id=4].payload.template']![0]).toMatch(
      /tag \{% if x %\} not closed, line:1, col:18\.$/,
    );
    expect(data['nodes[id=5].payload.template']![0]).toMatch(
      /^Node 5 \(email_send_message\): payload.template is not a valid template: tag \{% if company_name %\} not closed, line:2, col:1\.$/,
    );
    expect(data['nodes[id=6].payload.headers.X-Name']![0]).toMatch(/undefined filter: shout/);
    expect(data['nodes[id=6].payload.post.note']![0]).toMatch(/endif/);
    expect(data).not.toHaveProperty(['nodes[id=6].payload.post.email']);
    expect(res.json().error.message).toMatch(/^Node 1 \(linkedin_send_connection_request\)/);
  });

  it('saves the same nodes once their texts parse', async () => {
    const fixed = linearTree([
      { type: 'linkedin_send_connection_request', payload: { template: 'Hi {{first_name}}' } },
      { type: 'linkedin_send_inmail', payload: { subject: 'For {{first_name}}', template: 'Hi' } },
      { type: 'email_send_message', payload: { subject: '{Hi|Hello} {{first_name}}', template: 'Body' } },
      {
        type: 'gs_call_api',
        payload: { method: 'POST', endpoint: 'https://crm.example/{{ uuid }}', post: { n: 5, s: '{{x}}' } },
      },
    ]);
    const res = await saveVersion(ctx, alice, flow.uuid, { nodes: fixed, contact_sources: [source()] });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('validate-node answers the same 422 for one node, and 204 once it parses', async () => {
    const node = (payload: Record<string, unknown>) => ({
      id: 7,
      type: 'email_send_message',
      before: [],
      after: [{ node_id: 8, branch_id: 1 }],
      payload,
    });
    const bad = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-node',
      payload: node({ subject: 'Hi {{first_name}', template: UNCLOSED_IF }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toEqual({
      'nodes[id=7].payload.subject': [
        'Node 7 (email_send_message): payload.subject is not a valid template: output "{{first_name}" not closed, line:1, col:4.',
      ],
      'nodes[id=7].payload.template': [
        'Node 7 (email_send_message): payload.template is not a valid template: tag {% if company_name %} not closed, line:2, col:1.',
      ],
    });
    const good = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flow-versions/validate-node',
      payload: node({ subject: 'Hi {{first_name}}', template: `${UNCLOSED_IF}{% endif %}` }),
    });
    expect(good.statusCode, good.body).toBe(204);
  });
});
