// Tasks as integrations use them (issue 21 item 4): the filter keys the hosted MCP server sends
// (automation_error_code, schedule_at_before/_after, assignee_uuid) on list, group-counts and mass moves;
// the body form of the list and the query form of group-counts; to-dos for a contact selection (in the
// request and in the background); per-task retry and skip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { createFlow, linearTree, messageStep, saveVersion, source } from '../flows/flows.fixtures.js';
import { createContacts, createSender, insertEnrollment, insertTasks } from './tasks.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let aliceUuid: string;

beforeAll(async () => {
  ctx = await createTestContext({ config: { massActionSyncLimit: 5 } });
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
  aliceUuid = (
    await ctx.db.selectFrom('users').select('uuid').where('id', '=', alice.userId).executeTakeFirstOrThrow()
  ).uuid;
});
afterAll(() => ctx.close());

const get = (user: TestUser, url: string) => ctx.request(user, { method: 'GET', url });
const uuidsOf = (res: { json(): { data: Array<{ uuid: string }> } }) =>
  res
    .json()
    .data.map((t) => t.uuid)
    .sort();

describe('task filter keys of real clients', () => {
  it('filter by error code, schedule bounds and assignee on list, list by body, group-counts and mass moves', async () => {
    const flow = newId();
    const [replied, unknown, early, late, mine] = await insertTasks(ctx, alice.teamId, [
      {
        flow_uuid: flow,
        status: 'failed',
        automation_error_code: 'replied',
        schedule_at: new Date('2026-05-01T10:00:00Z'),
      },
      {
        flow_uuid: flow,
        status: 'failed',
        automation_error_code: 'unknown',
        schedule_at: new Date('2026-05-02T10:00:00Z'),
      },
      { automation: 'manual', schedule_at: new Date('2026-05-03T10:00:00Z') },
      { automation: 'manual', schedule_at: new Date('2026-05-05T10:00:00Z') },
      { automation: 'manual', schedule_at: new Date('2026-05-04T10:00:00Z'), assigned_to: alice.userId },
    ]);
    const byCode = await get(
      alice,
      `/flows/api/tasks?filter[automation_error_code]=replied&filter[flow_uuid]=${flow}`,
    );
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(uuidsOf(byCode)).toEqual([replied]);
    expect(byCode.json().total).toBe(1);

    const window = await get(
      alice,
      '/flows/api/tasks?filter[automation]=manual&filter[schedule_at_after]=2026-05-03T12:00:00Z&filter[schedule_at_before]=2026-05-05',
    );
    expect(window.statusCode, window.body).toBe(200);
    expect(uuidsOf(window)).toEqual([mine]);

    const assignee = await get(alice, `/flows/api/tasks?filter[assignee_uuid]=${aliceUuid}`);
    expect(uuidsOf(assignee)).toEqual([mine]);
    const badAssignee = await get(alice, '/flows/api/tasks?filter[assignee_uuid]=me');
    expect(badAssignee.statusCode).toBe(422);
    expect(badAssignee.json().error.data).toHaveProperty(['filter.assignee_uuid']);

    const byBody = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/tasks/list',
      payload: {
        filter: { automation: 'manual', schedule_at_before: '2026-05-05' },
        limit: 10,
        order_field: 'schedule_at',
        order_type: 'asc',
      },
    });
    expect(byBody.statusCode, byBody.body).toBe(200);
    expect(byBody.json().data.map((t: { uuid: string }) => t.uuid)).toEqual([early, mine]);

    const counts = await get(alice, `/flows/api/tasks/group-counts?filter[flow_uuid]=${flow}`);
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json()).toEqual({ failed: 2 });
    const byCodeCounts = await get(
      alice,
      `/flows/api/tasks/group-counts?group_field=automation_error_code&filter[flow_uuid]=${flow}`,
    );
    expect(byCodeCounts.json()).toEqual({ replied: 1, unknown: 1 });
    const posted = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/tasks/group-counts',
      payload: {
        group_field: 'status',
        filter: { automation: 'manual', schedule_at_before: '2026-05-04T12:00:00Z' },
      },
    });
    expect(posted.json()).toEqual({ in_progress: 2 });
    expect((await get(bob, `/flows/api/tasks/group-counts?filter[flow_uuid]=${flow}`)).json()).toEqual({});

    const cancel = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/mass-cancel',
      payload: { filter: { automation: 'manual', schedule_at_after: '2026-05-04T12:00:00Z' } },
    });
    expect(cancel.json()).toEqual({ affected: 1, operation: null });
    const rows = await ctx.db
      .selectFrom('tasks')
      .select(['uuid', 'status'])
      .where('uuid', 'in', [late!, unknown!])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.uuid, r.status]))).toEqual({
      [late!]: 'canceled',
      [unknown!]: 'failed',
    });
  });
});

describe('to-dos for a contact selection', () => {
  it('makes one to-do per selected contact, lead_uuid included, blacklisted left out', async () => {
    const sender = await createSender(ctx, alice);
    const contacts = await createContacts(ctx, alice, 4);
    await ctx.db
      .updateTable('leads')
      .set({ is_blacklisted: true })
      .where('uuid', '=', contacts[3]!.uuid)
      .execute();
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/tasks',
      payload: {
        lead_uuid: contacts[0]!.uuid,
        sender_profile_uuid: sender.uuid,
        type: 'linkedin_send_message',
        automation: 'manual',
        status: 'new',
        payload: { template: 'Hi {{first_name}}', note: null },
        schedule_at: '2026-06-01T10:00:00.000000Z',
        timezone: 'UTC',
        filter: { all: false, ids: contacts.slice(1).map((c) => c.uuid), excludeIds: [contacts[2]!.uuid] },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().affected).toBe(2);
    expect(res.json().operation).toBeNull();
    expect(
      res
        .json()
        .data.map((t: { lead_uuid: string }) => t.lead_uuid)
        .sort(),
    ).toEqual([contacts[0]!.uuid, contacts[1]!.uuid].sort());
    expect(res.json().data[0]).toMatchObject({
      automation: 'manual',
      status: 'in_progress',
      type: 'linkedin_send_message',
      sender_profile_uuid: sender.uuid,
      schedule_at: '2026-06-01T10:00:00.000Z',
      timezone: 'UTC',
      payload: { template: 'Hi {{first_name}}' },
    });

    // The single-contact shape still answers the task itself.
    const single = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/tasks',
      payload: { lead_uuid: contacts[0]!.uuid, sender_profile_uuid: sender.uuid, text: 'Hello' },
    });
    expect(single.statusCode).toBe(201);
    expect(single.json()).toMatchObject({ lead_uuid: contacts[0]!.uuid, automation: 'manual' });

    const neither = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/tasks',
      payload: { sender_profile_uuid: sender.uuid, text: 'Hello' },
    });
    expect(neither.statusCode).toBe(422);
    const foreign = await ctx.request(bob, {
      method: 'POST',
      url: '/flows/api/tasks',
      payload: { sender_profile_uuid: sender.uuid, text: 'Hello', filter: { all: true } },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.data).toHaveProperty('sender_profile_uuid');
  });

  it('makes them in the background above the synchronous limit, once per contact', async () => {
    const sender = await createSender(ctx, bob);
    const contacts = await createContacts(ctx, bob, 12);
    const res = await ctx.request(bob, {
      method: 'POST',
      url: '/flows/api/tasks',
      payload: { sender_profile_uuid: sender.uuid, type: 'linkedin_like_latest_post', filter: { all: true } },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ affected: null, data: [] });
    const operation = res.json().operation.uuid as string;
    const worker = await ctx.startWorkers();
    try {
      await waitFor(async () => {
        const op = await get(bob, `/leads/api/bulk-operations/${operation}`);
        return op.json().status === 'done';
      });
    } finally {
      await worker.stop();
    }
    const made = await ctx.db
      .selectFrom('tasks')
      .select('lead_uuid')
      .where('team_id', '=', bob.teamId)
      .where('type', '=', 'linkedin_like_latest_post')
      .execute();
    expect(made.map((t) => t.lead_uuid).sort()).toEqual(contacts.map((c) => c.uuid).sort());
    expect((await get(bob, `/leads/api/bulk-operations/${operation}`)).json().affected).toBe(12);
  });
});

describe('per-task retry and skip', () => {
  it('move one task by the mass moves\u2019 rules and say why not', async () => {
    const [failed, replied, manual] = await insertTasks(ctx, alice.teamId, [
      { automation: 'manual', status: 'failed', automation_error_code: 'unknown' },
      { automation: 'manual', status: 'failed', automation_error_code: 'replied' },
      { automation: 'manual' },
    ]);
    const retry = await ctx.request(alice, { method: 'PUT', url: `/flows/api/tasks/${failed}/retry` });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ uuid: failed, status: 'in_progress', automation_error_code: null });
    const noRetry = await ctx.request(alice, { method: 'PUT', url: `/flows/api/tasks/${replied}/retry` });
    expect(noRetry.statusCode).toBe(422);
    expect(noRetry.json().message).toContain('replied');
    const skip = await ctx.request(alice, { method: 'PUT', url: `/flows/api/tasks/${manual}/skip` });
    expect(skip.json()).toMatchObject({ uuid: manual, status: 'skipped' });
    const again = await ctx.request(alice, { method: 'PUT', url: `/flows/api/tasks/${manual}/skip` });
    expect(again.statusCode).toBe(200);
    expect(
      (await ctx.request(bob, { method: 'PUT', url: `/flows/api/tasks/${failed}/skip` })).statusCode,
    ).toBe(404);

    // A flow's failed task whose contact is still at that step: retry hands the contact back.
    const flow = newId();
    const enrollment = await insertEnrollment(ctx, alice.teamId, {
      flow_uuid: flow,
      status: 'failed',
      step: 3,
    });
    const [step] = await insertTasks(ctx, alice.teamId, [
      { flow_uuid: flow, flow_lead_uuid: enrollment, flow_node_id: 2, step: 3, status: 'failed' },
    ]);
    const autoRetry = await ctx.request(alice, { method: 'PUT', url: `/flows/api/tasks/${step}/retry` });
    expect(autoRetry.statusCode, autoRetry.body).toBe(200);
    const fl = await ctx.db
      .selectFrom('flow_leads')
      .select('status')
      .where('uuid', '=', enrollment)
      .executeTakeFirstOrThrow();
    expect(fl.status).toBe('in_progress');
  });
});

describe('mass-restart-from-top', () => {
  it('starts the selected tasks\u2019 enrollments again at the entry node, with another sender', async () => {
    const senderA = await createSender(ctx, alice);
    const senderB = await createSender(ctx, alice);
    const flow = await createFlow(ctx, alice);
    const saved = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([{ type: 'util_timer', payload: { wait_time: 60 } }, messageStep()]),
      contact_sources: [
        source({ id: 1, after_id: 1, sender_profiles: [senderA.uuid] }),
        source({ id: 2, after_id: 2 }),
      ],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const [lead] = await createContacts(ctx, alice, 1);
    const enrollment = await insertEnrollment(ctx, alice.teamId, {
      flow_uuid: flow.uuid,
      flow_version_uuid: saved.json().uuid,
      lead_uuid: lead!.uuid,
      status: 'failed',
      flow_node_id: 2,
      step: 4,
      sender_profile_uuid: senderA.uuid,
      contact_source_id: 1,
    });
    const [failedTask, openTask] = await insertTasks(ctx, alice.teamId, [
      {
        flow_uuid: flow.uuid,
        flow_lead_uuid: enrollment,
        lead_uuid: lead!.uuid,
        flow_node_id: 2,
        step: 4,
        status: 'failed',
      },
      {
        flow_uuid: flow.uuid,
        flow_lead_uuid: enrollment,
        lead_uuid: lead!.uuid,
        flow_node_id: 1,
        step: 3,
        status: 'in_progress',
      },
    ]);
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/mass-restart-from-top',
      payload: {
        filter: { status: 'failed' },
        flow_uuid: flow.uuid,
        flow_origin: 'automation',
        new_contact_source_id: 1,
        sender_profile_uuid: senderB.uuid,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ affected: 1, operation: null });
    const fl = await ctx.db
      .selectFrom('flow_leads')
      .selectAll()
      .where('uuid', '=', enrollment)
      .executeTakeFirstOrThrow();
    expect(fl).toMatchObject({
      status: 'in_progress',
      flow_node_id: 1,
      step: 5,
      sender_profile_uuid: senderB.uuid,
      wait: null,
    });
    expect(fl.next_run_at).not.toBeNull();
    const tasks = await ctx.db
      .selectFrom('tasks')
      .select(['uuid', 'status', 'error_msg'])
      .where('uuid', 'in', [failedTask!, openTask!])
      .execute();
    expect(Object.fromEntries(tasks.map((t) => [t.uuid, t.status]))).toEqual({
      [failedTask!]: 'failed',
      [openTask!]: 'canceled',
    });

    const badSource = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/mass-restart-from-top',
      payload: { filter: { status: 'failed' }, flow_uuid: flow.uuid, new_contact_source_id: 9 },
    });
    expect(badSource.statusCode).toBe(422);
    expect(badSource.json().error.data).toHaveProperty('new_contact_source_id');
    const foreign = await ctx.request(bob, {
      method: 'PUT',
      url: '/flows/api/tasks/mass-restart-from-top',
      payload: { filter: { status: 'failed' }, flow_uuid: flow.uuid },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.data).toHaveProperty('flow_uuid');
  });
});
