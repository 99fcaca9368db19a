// PUT /flows/api/linkedin-messages/{uuid}/retry and POST /flows/api/linkedin-messages/group-counts through
// HTTP on a real database; a retried message is sent again by the worker through the sandbox seat. And a
// queued message's attachments reach the sandbox network, which records their file names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { PDF_BYTES } from '../../../test/zip.js';
import { linkedInMessageDeps } from '../../deps.js';
import { multipart } from '../files/files.test-support.js';
import { processQueuedMessage } from './linkedin-send.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let senderUuid: string;
let otherSenderUuid: string;
let leadUuid: string;
let otherLeadUuid: string;

beforeAll(async () => {
  ctx = await createTestContext({
    env: { LEADFLOW_SANDBOX_ACCEPT_RATE: '1', LEADFLOW_SANDBOX_REPLY_RATE: '0' },
  });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const sender = await makeSender(ctx.db, alice.teamId);
  await makeSandboxSeat(ctx.db, alice.teamId, sender.uuid);
  senderUuid = sender.uuid;
  otherSenderUuid = (await makeSender(ctx.db, alice.teamId)).uuid;
  const list = await makeList(ctx.db, alice.teamId);
  [leadUuid, otherLeadUuid] = (
    await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Ann', linkedin: 'ann-lee' },
      { first_name: 'Cy', linkedin: 'cy-doe' },
    ])
  ).map((l) => l.uuid) as [string, string];
});
afterAll(() => ctx.close());

const queue = async (sender: string, lead: string, text: string) => {
  const res = await ctx.request(alice, {
    method: 'POST',
    url: '/flows/api/linkedin-messages',
    payload: { sender_profile_uuid: sender, lead_uuid: lead, text },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().uuid as string;
};
const setRow = (uuid: string, values: Record<string, unknown>) =>
  ctx.db.updateTable('linkedin_messages').set(values).where('uuid', '=', uuid).execute();
const retry = (user: TestUser, uuid: string) =>
  ctx.request(user, { method: 'PUT', url: `/flows/api/linkedin-messages/${uuid}/retry` });
const counts = (user: TestUser, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'POST', url: '/flows/api/linkedin-messages/group-counts', payload });

describe('PUT /flows/api/linkedin-messages/{uuid}/retry', () => {
  it('queues a failed message again and the worker sends it', async () => {
    const status = (uuid: string) =>
      ctx.db
        .selectFrom('linkedin_messages')
        .select(['status', 'sent_at', 'fail_reason', 'attempts', 'taken_at'])
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow();
    const uuid = await queue(senderUuid, leadUuid, 'Second try');
    // Not connected yet: the sandbox refuses the message.
    let worker = await ctx.startWorkers();
    try {
      const failed = await waitFor(async () => {
        const r = await status(uuid);
        return r.status === 'failed' ? r : undefined;
      });
      expect(failed?.fail_reason).toMatch(/^not_connected: /);
    } finally {
      await worker.stop();
    }
    // Ann accepts an invitation meanwhile; the message is retried.
    await ctx.db
      .insertInto('sandbox_linkedin_actions')
      .values({
        team_id: alice.teamId,
        sender_profile_uuid: senderUuid,
        lead_uuid: leadUuid,
        action: 'linkedin_send_connection_request',
        task_uuid: '0190f000-0000-7000-8000-00000000c0c0',
        text: null,
        performed_at: new Date(Date.now() - 3_600_000),
        response: 'accept',
        respond_at: new Date(Date.now() - 1_800_000),
        responded_at: new Date(Date.now() - 1_800_000),
      })
      .execute();
    await setRow(uuid, { attempts: 2 });
    const res = await retry(alice, uuid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uuid, status: 'new', fail_reason: null, sent_at: null });
    expect(await status(uuid)).toMatchObject({ attempts: 0, taken_at: null });

    worker = await ctx.startWorkers();
    try {
      const sent = await waitFor(async () => {
        const r = await status(uuid);
        return r.status === 'done' ? r : undefined;
      });
      expect(sent?.sent_at).toBeInstanceOf(Date);
    } finally {
      await worker.stop();
    }
    const network = await ctx.db
      .selectFrom('sandbox_linkedin_actions')
      .select(['action', 'text'])
      .where('task_uuid', '=', uuid)
      .execute();
    expect(network).toEqual([{ action: 'linkedin_send_message', text: 'Second try' }]);

    // Sent now: not retryable.
    const again = await retry(alice, uuid);
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json().error.message).toContain('only a failed message can be retried (this one is done)');
    expect(again.json().error.data).toHaveProperty('status');
  });

  it('refuses a message that is not failed (422) and another team\u2019s message (404)', async () => {
    const uuid = await queue(otherSenderUuid, leadUuid, 'Waiting');
    const queued = await retry(alice, uuid);
    expect(queued.statusCode, queued.body).toBe(422);
    expect(queued.json().error.message).toContain('retryable statuses: failed');
    // A message whose outcome is unknown may have gone out: it is never sent again, not even on request.
    await setRow(uuid, { status: 'failed', fail_reason: 'unknown_outcome: the worker stopped' });
    const unknown = await retry(alice, uuid);
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(unknown.json().error.message).toContain('may already have gone out');
    await setRow(uuid, { status: 'failed', fail_reason: 'not_connected: no' });
    expect((await retry(bob, uuid)).statusCode).toBe(404);
    expect((await retry(alice, '0190f000-0000-7000-8000-00000000dead')).statusCode).toBe(404);
    expect((await retry(alice, uuid)).statusCode).toBe(200);
    await ctx.request(alice, { method: 'DELETE', url: `/flows/api/linkedin-messages/${uuid}` });
  });
});

describe('POST /flows/api/linkedin-messages/group-counts', () => {
  it('counts per status, type and sender, within the filter and the team', async () => {
    // Fixtures of their own: counted by lead so earlier tests' messages stay out.
    const [a, b, c, d] = [
      await queue(senderUuid, otherLeadUuid, 'one'),
      await queue(senderUuid, otherLeadUuid, 'two'),
      await queue(otherSenderUuid, otherLeadUuid, 'three'),
      await queue(otherSenderUuid, otherLeadUuid, 'four'),
    ];
    await setRow(a, { status: 'done', sent_at: new Date('2026-03-05T10:00:00Z') });
    await setRow(b, { status: 'failed', fail_reason: 'x: y' });
    await setRow(c, { status: 'done', sent_at: new Date('2026-04-05T10:00:00Z') });
    await setRow(d, {
      type: 'inbox',
      automation: 'synced',
      status: 'done',
      sent_at: new Date('2026-03-06T10:00:00Z'),
    });

    const byStatus = await counts(alice, { group_field: 'status', filter: { lead_uuid: otherLeadUuid } });
    expect(byStatus.statusCode, byStatus.body).toBe(200);
    expect(byStatus.json()).toEqual({ done: 3, failed: 1 });

    const byType = await counts(alice, { group_field: 'type', filter: { lead_uuid: otherLeadUuid } });
    expect(byType.json()).toEqual({ inbox: 1, outbox: 3 });

    const bySender = await counts(alice, {
      group_field: 'linkedin_account_uuid',
      filter: {
        lead_uuid: otherLeadUuid,
        status: 'done',
        sent_at: { '>=': '2026-03-01', '<=': '2026-03-31' },
      },
    });
    expect(bySender.json()).toEqual({ [senderUuid]: 1, [otherSenderUuid]: 1 });

    const outboxBySender = await counts(alice, {
      group_field: 'sender_profile_uuid',
      filter: { lead_uuid: otherLeadUuid, type: 'outbox', sender_profile_uuid: [otherSenderUuid] },
    });
    expect(outboxBySender.json()).toEqual({ [otherSenderUuid]: 1 });

    // Another team sees none of them.
    const bobs = await counts(bob, { group_field: 'status', filter: { lead_uuid: otherLeadUuid } });
    expect(bobs.statusCode).toBe(200);
    expect(bobs.json()).toEqual({});
  });

  it('refuses a bad group_field, an unknown filter key and a bad value, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ group_field: 'flow_uuid' }, 'group_field'],
      [{}, 'group_field'],
      [{ group_field: 'status', filter: { flow_uuid: otherLeadUuid } }, 'filter'],
      [{ group_field: 'status', filter: { status: 'sent' } }, 'filter.status'],
      [{ group_field: 'status', filter: { sent_at: { '~': 'x' } } }, 'filter.sent_at'],
      [{ group_field: 'status', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await counts(alice, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json().error.data).join(' '), JSON.stringify(payload)).toContain(field);
    }
  });
});

describe('attachments through the sandbox seat', () => {
  it('sends the files with an InMail and the network records their names', async () => {
    const body = multipart([
      { name: 'payload', content: JSON.stringify({ name: 'brochure.pdf', type: 'application/pdf' }) },
      { name: 'attachment', content: PDF_BYTES, filename: 'brochure.pdf', contentType: 'application/pdf' },
    ]);
    const uploaded = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/attachments',
      payload: body.payload,
      headers: body.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/linkedin-messages',
      payload: {
        sender_profile_uuid: senderUuid,
        lead_uuid: otherLeadUuid,
        text: 'Our brochure',
        subject: 'Brochure',
        linkedin_type: 'InMail',
        attachments: [{ uuid: uploaded.json().uuid }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const deps = linkedInMessageDeps({ db: ctx.db, config: ctx.config, clock: { now: () => new Date() } });
    expect(await processQueuedMessage(deps, alice.teamId, res.json().uuid, new Date())).toMatchObject({
      outcome: 'sent',
    });
    const network = await ctx.db
      .selectFrom('sandbox_linkedin_actions')
      .select(['action', 'attachment_names'])
      .where('task_uuid', '=', res.json().uuid)
      .execute();
    expect(network).toEqual([{ action: 'linkedin_send_inmail', attachment_names: ['brochure.pdf'] }]);
  });
});
