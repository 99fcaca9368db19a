// Tasks one at a time: creating a to-do, reading it, and its moves by hand with their refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { createContacts, createSender, insertTasks } from './tasks.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let sender: { uuid: string; assignee_user_id: number };
let contact: string;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
  sender = await createSender(ctx, alice, {
    schedule: { timezone: 'Europe/Berlin', use_lead_timezone: false, timeblocks: [] },
  });
  contact = (await createContacts(ctx, alice, 1))[0]!.uuid;
});
afterAll(() => ctx.close());

const create = (user: TestUser, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'POST', url: '/flows/api/tasks', payload });

describe('creating a to-do', () => {
  it('answers 201 with a manual task in progress', async () => {
    const res = await create(alice, {
      lead_uuid: contact,
      sender_profile_uuid: sender.uuid,
      type: 'linkedin_send_message',
      text: 'Hi there',
      note: 'Mention the webinar',
      schedule_at: '2026-03-02T10:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      team_id: alice.teamId,
      lead_uuid: contact,
      sender_profile_uuid: sender.uuid,
      flow_uuid: null,
      flow_lead_uuid: null,
      type: 'linkedin_send_message',
      automation: 'manual',
      status: 'in_progress',
      payload: { template: 'Hi there', note: 'Mention the webinar' },
      note: 'Mention the webinar',
      attempts: 0,
      timezone: 'Europe/Berlin',
      schedule_at: '2026-03-02T10:00:00.000Z',
      executed_at: null,
      assigned_to: sender.assignee_user_id,
      user_id: alice.userId,
    });
    const got = await ctx.request(alice, { method: 'GET', url: `/flows/api/tasks/${res.json().uuid}` });
    expect(got.json()).toEqual(res.json());
  });

  it('takes the {payload: {template, note}} shape and defaults the type and the time', async () => {
    const res = await create(alice, {
      lead_uuid: contact,
      sender_profile_uuid: sender.uuid,
      automation: 'manual',
      status: 'new',
      payload: { template: 'Hello', note: 'n' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'linkedin_send_message',
      payload: { template: 'Hello' },
      note: 'n',
    });
    expect(res.json().schedule_at).not.toBeNull();
  });

  it('refuses other types, a missing text and unknown records, naming the field', async () => {
    const base = { lead_uuid: contact, sender_profile_uuid: sender.uuid, text: 'x' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, type: 'email_send_message' }, 'type'],
      [{ ...base, type: 'util_timer' }, 'type'],
      [{ lead_uuid: contact, sender_profile_uuid: sender.uuid, type: 'linkedin_send_inmail' }, 'text'],
      [{ ...base, lead_uuid: newId() }, 'lead_uuid'],
      [{ ...base, sender_profile_uuid: newId() }, 'sender_profile_uuid'],
      [{ ...base, timezone: 'Mars/Base' }, 'timezone'],
      [{ ...base, assigned_to: bob.userId }, 'assigned_to'],
      [{ ...base, status: 'closed' }, 'status'],
      [{ sender_profile_uuid: sender.uuid, text: 'x' }, 'lead_uuid'],
      [{ ...base, flow_uuid: newId() }, 'flow_uuid'],
    ];
    for (const [payload, field] of cases) {
      const res = await create(alice, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().error.data), JSON.stringify(payload)).toContain(field);
      expect(res.json().message).toContain(field);
    }
  });

  it('needs no text for likes, endorsements and connection requests', async () => {
    for (const type of [
      'linkedin_like_latest_post',
      'linkedin_endorse_skills',
      'linkedin_send_connection_request',
    ]) {
      const res = await create(alice, { lead_uuid: contact, sender_profile_uuid: sender.uuid, type });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('keeps teams apart', async () => {
    const res = await create(bob, { lead_uuid: contact, sender_profile_uuid: sender.uuid, text: 'x' });
    expect(res.statusCode).toBe(422);
    const [task] = await insertTasks(ctx, alice.teamId, [{ automation: 'manual' }]);
    for (const [method, url] of [
      ['GET', `/flows/api/tasks/${task}`],
      ['PUT', `/flows/api/tasks/${task}/complete`],
      ['PUT', `/flows/api/tasks/${task}/cancel`],
      ['PUT', `/flows/api/tasks/${task}/fail`],
    ] as const) {
      expect((await ctx.request(bob, { method, url })).statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe('moving one task by hand', () => {
  const put = (uuid: string, move: string, payload?: Record<string, unknown>) =>
    ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/tasks/${uuid}/${move}`,
      ...(payload ? { payload } : {}),
    });

  it('completes, cancels and fails to-dos', async () => {
    const [a, b, c] = await insertTasks(ctx, alice.teamId, [
      { automation: 'manual' },
      { automation: 'manual' },
      { automation: 'manual' },
    ]);
    const done = await put(a!, 'complete');
    expect(done.statusCode).toBe(200);
    expect(done.json().status).toBe('closed');
    expect(done.json().executed_at).not.toBeNull();
    expect((await put(b!, 'cancel')).json().status).toBe('canceled');
    const failed = await put(c!, 'fail', { error_msg: 'Profile gone' });
    expect(failed.json()).toMatchObject({ status: 'failed', error_msg: 'Profile gone' });
    // A failed to-do can still be completed later.
    expect((await put(c!, 'complete')).json().status).toBe('closed');
  });

  it('repeats a move harmlessly and refuses one the status does not allow', async () => {
    const [task] = await insertTasks(ctx, alice.teamId, [{ automation: 'manual' }]);
    const first = await put(task!, 'complete');
    const again = await put(task!, 'complete');
    expect(again.statusCode).toBe(200);
    expect(again.json().executed_at).toBe(first.json().executed_at);
    const cancel = await put(task!, 'cancel');
    expect(cancel.statusCode).toBe(422);
    expect(cancel.json().message).toContain('closed');
    const fail = await put(task!, 'fail');
    expect(fail.statusCode).toBe(422);
  });

  it('refuses every hand move of an automation\u2019s task', async () => {
    const [task] = await insertTasks(ctx, alice.teamId, [
      { automation: 'auto', flow_uuid: newId(), flow_node_id: 2 },
    ]);
    for (const move of ['complete', 'cancel', 'fail']) {
      const res = await put(task!, move);
      expect(res.statusCode, move).toBe(422);
      expect(res.json().message).toContain('Only manual tasks move by hand');
    }
    const stored = await ctx.request(alice, { method: 'GET', url: `/flows/api/tasks/${task}` });
    expect(stored.json().status).toBe('in_progress');
  });

  it('records no "sent" event when a person completes a LinkedIn to-do', async () => {
    await ctx.db
      .insertInto('webhooks')
      .values({
        team_id: alice.teamId,
        uuid: newId(),
        name: 'sent',
        event: 'sender_profile_sent_linkedin_message',
        target_url: 'https://example.test/hook',
        secret: 'whsec_dGVzdA==',
      } as never)
      .execute();
    const created = await create(alice, { lead_uuid: contact, sender_profile_uuid: sender.uuid, text: 'Hi' });
    expect((await put(created.json().uuid, 'complete')).statusCode).toBe(200);
    const events = await ctx.db
      .selectFrom('events')
      .select('name')
      .where('team_id', '=', alice.teamId)
      .execute();
    expect(events).toEqual([]);
  });
});

describe('deleting a contact', () => {
  it('cancels its open to-dos once the purge runs', async () => {
    const other = (await createContacts(ctx, alice, 1))[0]!.uuid;
    const created = await create(alice, { lead_uuid: other, sender_profile_uuid: sender.uuid, text: 'Hi' });
    const [done] = await insertTasks(ctx, alice.teamId, [
      { automation: 'manual', lead_uuid: other, status: 'closed' },
    ]);
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/leads/api/leads/${other}` })).statusCode,
    ).toBe(204);
    const workers = await ctx.startWorkers();
    try {
      const task = await waitFor(async () => {
        const res = await ctx.request(alice, {
          method: 'GET',
          url: `/flows/api/tasks/${created.json().uuid}`,
        });
        return res.json().status === 'canceled' ? res.json() : undefined;
      });
      expect(task.error_msg).toBe('contact_deleted');
      const kept = await ctx.request(alice, { method: 'GET', url: `/flows/api/tasks/${done}` });
      expect(kept.json().status).toBe('closed');
    } finally {
      await workers.stop();
    }
  });
});
