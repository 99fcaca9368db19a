// Metrics and statistics fill in as the engine writes tasks, enrollments and conversions (inserted
// here as the engine would) and match a recount.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { newId } from '../../../lib/ids.js';
import { createFlow, makeEnrollments, type WireFlow } from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let flow: WireFlow;
let other: WireFlow;

const at = (iso: string) => new Date(iso);

async function task(values: {
  node: number;
  type?: string;
  status?: 'in_progress' | 'closed' | 'canceled' | 'failed' | 'skipped';
  fork?: number;
  executed?: string;
  flowUuid?: string;
}) {
  await ctx.db
    .insertInto('tasks')
    .values({
      team_id: alice.teamId,
      uuid: newId(),
      lead_uuid: newId(),
      flow_uuid: values.flowUuid ?? flow.uuid,
      flow_node_id: values.node,
      type: values.type ?? 'linkedin_send_connection_request',
      automation: 'auto',
      status: values.status ?? 'closed',
      fork_result: values.fork ?? null,
      executed_at: values.executed ? at(values.executed) : null,
    })
    .execute();
}

async function conversion(node: number, source: number, channel: string, kind: string, when: string) {
  await ctx.db
    .insertInto('flow_conversion_deltas')
    .values({
      team_id: alice.teamId,
      flow_uuid: flow.uuid,
      flow_node_id: node,
      contact_source_id: source,
      channel,
      kind,
      delta: 1,
      occurred_at: at(when),
    })
    .execute();
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  flow = await createFlow(ctx, alice);
  other = await createFlow(ctx, alice);
  await task({ node: 1, executed: '2026-03-01T10:00:00Z' });
  await task({ node: 1, executed: '2026-03-02T10:00:00Z' });
  await task({ node: 1, status: 'failed', executed: '2026-03-02T11:00:00Z' });
  await task({ node: 1, status: 'in_progress' });
  await task({ node: 2, type: 'rule_ab_test', fork: 1, executed: '2026-03-01T10:00:00Z' });
  await task({ node: 2, type: 'rule_ab_test', fork: 2, executed: '2026-03-02T10:00:00Z' });
  await task({ node: 2, type: 'rule_ab_test', fork: 2, executed: '2026-03-02T12:00:00Z' });
  await task({ node: 3, type: 'email_send_message', status: 'in_progress' });
  await task({ node: 1, status: 'in_progress', flowUuid: other.uuid });
  await conversion(1, 1, 'linkedin_connection_request', 'sent', '2026-03-01T10:00:00Z');
  await conversion(1, 1, 'linkedin_connection_request', 'accepted', '2026-03-01T15:00:00Z');
  await conversion(1, 2, 'linkedin_connection_request', 'accepted', '2026-03-03T15:00:00Z');
  await conversion(3, 2, 'email', 'opened', '2026-03-03T16:00:00Z');
  const rows = await makeEnrollments(ctx, alice.teamId, flow, [
    { node: 1 },
    { node: 1 },
    { node: 2, status: 'finished' },
    { node: 2, status: 'paused' },
  ]);
  await ctx.db
    .updateTable('flow_leads')
    .set({ contact_source_id: 2, added_by: 'filter' })
    .where('uuid', '=', rows[3]!.uuid)
    .execute();
  await ctx.db
    .updateTable('flow_leads')
    .set({ status: 'failed' })
    .where('uuid', '=', rows[1]!.uuid)
    .execute();
});
afterAll(() => ctx.close());

const post = (user: TestUser, url: string, payload: object) =>
  ctx.request(user, { method: 'POST', url, payload });

describe('POST /flows/api/flows/metrics', () => {
  it('counts enrollments by status and pending tasks by type per flow', async () => {
    const res = await post(alice, '/flows/api/flows/metrics', { uuids: [flow.uuid, other.uuid, newId()] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      [flow.uuid]: {
        leads_count: 4,
        in_progress_leads_count: 1,
        paused_leads_count: 1,
        finished_leads_count: 1,
        canceled_leads_count: 0,
        failed_leads_count: 1,
        task_counts: { linkedin_send_connection_request: 1, email_send_message: 1 },
        conversions: {
          linkedin_connection_request: { sent: 1, accepted: 2 },
          linkedin_message: { sent: 0, opened: 0, replied: 0, blocked: 0 },
          linkedin_inmail: { sent: 0, opened: 0, replied: 0 },
          email: { sent: 0, opened: 1, clicked: 0, replied: 0, bounced: 0 },
        },
      },
      [other.uuid]: {
        leads_count: 0,
        in_progress_leads_count: 0,
        paused_leads_count: 0,
        finished_leads_count: 0,
        canceled_leads_count: 0,
        failed_leads_count: 0,
        task_counts: { linkedin_send_connection_request: 1 },
        conversions: {
          linkedin_connection_request: { sent: 0, accepted: 0 },
          linkedin_message: { sent: 0, opened: 0, replied: 0, blocked: 0 },
          linkedin_inmail: { sent: 0, opened: 0, replied: 0 },
          email: { sent: 0, opened: 0, clicked: 0, replied: 0, bounced: 0 },
        },
      },
    });
    expect((await post(bob, '/flows/api/flows/metrics', { uuids: [flow.uuid] })).json()).toEqual({});
    expect((await post(alice, '/flows/api/flows/metrics', {})).statusCode).toBe(422);
  });
});

describe('POST /flows/api/flows/{flowUuid}/statistics/nodes', () => {
  it('answers statuses, conversions and branches per node', async () => {
    const res = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/nodes`, {
      node_ids: [1, 2, 3, 9],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      1: {
        node_statuses: { in_progress: 1, closed: 2, canceled: 0, failed: 1, skipped: 0 },
        node_conversions: { sent: 1, accepted: 2 },
        node_branches: {},
      },
      2: {
        node_statuses: { in_progress: 0, closed: 3, canceled: 0, failed: 0, skipped: 0 },
        node_conversions: {},
        node_branches: { 1: 1, 2: 2 },
      },
      3: {
        node_statuses: { in_progress: 1, closed: 0, canceled: 0, failed: 0, skipped: 0 },
        node_conversions: { opened: 1 },
        node_branches: {},
      },
      9: {
        node_statuses: { in_progress: 0, closed: 0, canceled: 0, failed: 0, skipped: 0 },
        node_conversions: {},
        node_branches: {},
      },
    });
  });

  it('limits to an execution range', async () => {
    const res = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/nodes`, {
      node_ids: [1, 2],
      filter: { executed_at: { '>=': '2026-03-02', '<=': '2026-03-02' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[1]).toMatchObject({
      node_statuses: { closed: 1, failed: 1, in_progress: 0 },
      node_conversions: {},
    });
    expect(res.json()[2].node_branches).toEqual({ 2: 2 });
    const day = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/nodes`, {
      node_ids: [1],
      filter: { executed_at: '2026-03-01' },
    });
    expect(day.json()[1].node_conversions).toEqual({ sent: 1, accepted: 1 });
  });

  it('requires node_ids, refuses bad ranges, and hides other teams', async () => {
    const missing = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/nodes`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty('node_ids');
    const badRange = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/nodes`, {
      node_ids: [1],
      filter: { executed_at: { after: 'yesterday' } },
    });
    expect(badRange.statusCode).toBe(422);
    expect(
      (await post(bob, `/flows/api/flows/${flow.uuid}/statistics/nodes`, { node_ids: [1] })).statusCode,
    ).toBe(404);
  });
});

describe('POST /flows/api/flows/{flowUuid}/statistics/contact-sources', () => {
  it('answers statuses, how contacts entered and conversions per channel', async () => {
    const res = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/contact-sources`, {
      contact_source_ids: [1, 2],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[1]).toEqual({
      contact_source_statuses: { in_progress: 1, paused: 0, finished: 1, canceled: 0, failed: 1 },
      contact_source_added_by: { user: 3, filter: 0, flow: 0 },
      contact_source_conversions: {
        linkedin_connection_request: { sent: 1, accepted: 1 },
        linkedin_message: { sent: 0, opened: 0, replied: 0, blocked: 0 },
        linkedin_inmail: { sent: 0, opened: 0, replied: 0 },
        email: { sent: 0, opened: 0, clicked: 0, replied: 0, bounced: 0 },
      },
    });
    expect(res.json()[2]).toMatchObject({
      contact_source_statuses: { paused: 1 },
      contact_source_added_by: { user: 0, filter: 1, flow: 0 },
      contact_source_conversions: { linkedin_connection_request: { accepted: 1 }, email: { opened: 1 } },
    });
    const missing = await post(alice, `/flows/api/flows/${flow.uuid}/statistics/contact-sources`, {});
    expect(missing.json().error.data).toHaveProperty('contact_source_ids');
    expect(
      (
        await post(bob, `/flows/api/flows/${flow.uuid}/statistics/contact-sources`, {
          contact_source_ids: [1],
        })
      ).statusCode,
    ).toBe(404);
  });
});
