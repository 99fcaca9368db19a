// The LinkedIn messages API through HTTP on a real database, and queued messages sent through the
// sandbox network: schedule, limits, refusals, and the never-twice rule after a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { unconfirmingDriver } from '../../../test/unconfirming-driver.js';
import { linkedInMessageDeps } from '../../deps.js';
import { deliverSandboxResponses } from '../browsers/sandbox/sandbox-responder.js';
import { ingestInbox } from './linkedin-ingest.js';
import { processQueuedMessage, reconcileStaleMessages } from './linkedin-send.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let deps: ReturnType<typeof linkedInMessageDeps>;
let senderUuid: string;
let leadUuid: string;
let bobLeadUuid: string;

beforeAll(async () => {
  ctx = await createTestContext({
    env: {
      LEADFLOW_SANDBOX_ACCEPT_RATE: '1',
      LEADFLOW_SANDBOX_REPLY_RATE: '0',
      LEADFLOW_SANDBOX_MIN_RESPONSE_SECONDS: '1',
      LEADFLOW_SANDBOX_MAX_RESPONSE_SECONDS: '2',
    },
  });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  deps = linkedInMessageDeps({ db: ctx.db, config: ctx.config, clock: { now: () => new Date() } });
  const sender = await makeSender(ctx.db, alice.teamId, { limits: { linkedin_send_inmail: 2 } });
  await makeSandboxSeat(ctx.db, alice.teamId, sender.uuid);
  senderUuid = sender.uuid;
  const list = await makeList(ctx.db, alice.teamId);
  [leadUuid] = (
    await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Ann', linkedin: 'ann-lee' }])
  ).map((l) => l.uuid) as [string];
  const bobList = await makeList(ctx.db, bob.teamId);
  [bobLeadUuid] = (await makeLeads(ctx.db, bob.teamId, bobList.uuid, [{ first_name: 'Bo' }])).map(
    (l) => l.uuid,
  ) as [string];
});
afterAll(() => ctx.close());

const post = (user: TestUser, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'POST', url: '/flows/api/linkedin-messages', payload });
const get = (user: TestUser, url: string) => ctx.request(user, { method: 'GET', url });

async function message(uuid: string) {
  return ctx.db
    .selectFrom('linkedin_messages')
    .selectAll()
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
}

describe('POST /flows/api/linkedin-messages', () => {
  it('queues a message (201, status new) that a worker sends through the seat', async () => {
    const res = await post(alice, {
      sender_profile_uuid: senderUuid,
      lead_uuid: leadUuid,
      text: 'A quick InMail',
      subject: 'Hello Ann',
      linkedin_type: 'InMail',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'new',
      type: 'outbox',
      automation: 'manual',
      linkedin_type: 'InMail',
      subject: 'Hello Ann',
      text: 'A quick InMail',
      user_id: alice.userId,
      team_id: alice.teamId,
      linkedin_account_uuid: senderUuid,
      sent_at: null,
      fail_reason: null,
    });
    const worker = await ctx.startWorkers();
    try {
      const sent = await waitFor(async () => {
        const row = await message(body.uuid);
        return row.status === 'done' ? row : undefined;
      });
      expect(sent?.sent_at).toBeInstanceOf(Date);
      expect(sent?.linkedin_conversation_uuid).toBeTruthy();
    } finally {
      await worker.stop();
    }
    const network = await ctx.db
      .selectFrom('sandbox_linkedin_actions')
      .select(['action', 'text'])
      .where('task_uuid', '=', body.uuid)
      .execute();
    expect(network).toEqual([{ action: 'linkedin_send_inmail', text: 'A quick InMail' }]);
    const listed = await get(
      alice,
      `/flows/api/linkedin-messages?filter[status]=done&filter[automation]=manual`,
    );
    expect(listed.json().data.map((m: { uuid: string }) => m.uuid)).toContain(body.uuid);
  });

  it('composes the text from an AI template for the contact when text is left out', async () => {
    const template = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/ai-templates',
      payload: { name: 'Hello', type: 'message', is_public: 1, body: 'Hi {{first_name}}, good to meet you.' },
    });
    expect(template.statusCode, template.body).toBe(201);
    const res = await post(alice, {
      sender_profile_uuid: senderUuid,
      lead_uuid: leadUuid,
      template_uuid: template.json().uuid,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      text: 'Hi Ann, good to meet you.',
      template_uuid: template.json().uuid,
    });
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/flows/api/linkedin-messages/${res.json().uuid}` }))
        .statusCode,
    ).toBe(204);
  });

  it('refuses bodies it cannot send, naming the field', async () => {
    const base = { sender_profile_uuid: senderUuid, lead_uuid: leadUuid };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base }, 'text'],
      [{ ...base, text: 'x'.repeat(8001) }, 'text'],
      [{ ...base, text: 'hi', subject: 's'.repeat(512), linkedin_type: 'InMail' }, 'subject'],
      [{ ...base, text: 'n'.repeat(301), linkedin_type: 'connection_note' }, 'text'],
      [
        { ...base, text: 'hi', attachments: [{ uuid: '0190f000-0000-7000-8000-0000000000aa' }] },
        'attachments.0.uuid',
      ],
      [{ ...base, text: 'hi', template_uuid: '0190f000-0000-7000-8000-0000000000ab' }, 'template_uuid'],
      [{ ...base, lead_uuid: bobLeadUuid, text: 'hi' }, 'lead_uuid'],
      [
        { ...base, sender_profile_uuid: '0190f000-0000-7000-8000-0000000000ac', text: 'hi' },
        'sender_profile_uuid',
      ],
      [{ ...base, text: 'hi', status: 'done' }, 'status'],
      [{ ...base, text: 'hi', linkedin_type: 'post' }, 'linkedin_type'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(alice, payload);
      expect(res.statusCode, `${field}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${field}: ${res.body}`).toBeLessThan(500);
      expect(res.body, field).toContain(field);
    }
    // Another team's sender is not found either.
    const theirs = await post(bob, { ...base, lead_uuid: bobLeadUuid, text: 'hi' });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.body).toContain('sender_profile_uuid');
  });
});

describe('sending queued messages', () => {
  async function queue(payload: Record<string, unknown>) {
    const res = await post(alice, { sender_profile_uuid: senderUuid, lead_uuid: leadUuid, ...payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().uuid as string;
  }

  it('fails a message the network refuses, visibly, and sends after the connection', async () => {
    const early = await queue({ text: 'Hi before we are connected' });
    expect(await processQueuedMessage(deps, alice.teamId, early, new Date())).toMatchObject({
      outcome: 'failed',
    });
    expect(await message(early)).toMatchObject({
      status: 'failed',
      fail_reason: expect.stringMatching(/^not_connected/),
    });

    const note = await queue({ text: 'Let us connect', linkedin_type: 'connection_note' });
    expect(await processQueuedMessage(deps, alice.teamId, note, new Date())).toMatchObject({
      outcome: 'sent',
    });
    // The invitation is accepted (the sandbox answers through the seat's inbox).
    expect(await deliverSandboxResponses(ctx.db, ingestInbox, new Date(Date.now() + 5000))).toBe(1);
    const later = await queue({ text: 'Thanks for connecting' });
    expect(await processQueuedMessage(deps, alice.teamId, later, new Date())).toMatchObject({
      outcome: 'sent',
    });
    expect(await message(later)).toMatchObject({
      status: 'done',
      message_hash: expect.stringMatching(/^sandbox:/),
    });
  });

  it('waits for the sender schedule and the daily limit it shares with the flows', async () => {
    await ctx.db
      .updateTable('sender_profiles')
      .set({
        schedule: JSON.stringify({
          timezone: 'UTC',
          use_lead_timezone: false,
          timeblocks: [{ dow: 1, min: 540, max: 600 }],
        }),
      })
      .where('uuid', '=', senderUuid)
      .execute();
    const uuid = await queue({ text: 'InMail outside hours', linkedin_type: 'InMail' });
    // Sunday 2026-11-29 12:00 UTC: the window opens Monday 09:00.
    const sunday = new Date('2026-11-29T12:00:00Z');
    expect(await processQueuedMessage(deps, alice.teamId, uuid, sunday)).toEqual({
      retryAt: new Date('2026-11-30T09:00:00Z'),
      outcome: 'waiting',
    });
    expect((await message(uuid)).status).toBe('new');
    // Monday 09:05: open, but today's InMails (limit 2) are used up.
    const monday = new Date('2026-11-30T09:05:00Z');
    await ctx.db
      .updateTable('linkedin_messages')
      .set({ taken_at: monday })
      .where('sender_profile_uuid', '=', senderUuid)
      .where('linkedin_type', '=', 'InMail')
      .where('status', '=', 'done')
      .execute();
    const other = await queue({ text: 'Another', linkedin_type: 'InMail' });
    await ctx.db
      .updateTable('linkedin_messages')
      .set({ status: 'done', taken_at: monday })
      .where('uuid', '=', other)
      .execute();
    expect(await processQueuedMessage(deps, alice.teamId, uuid, monday)).toEqual({
      retryAt: new Date('2026-12-01T00:00:00Z'),
      outcome: 'waiting',
    });
    await ctx.db
      .updateTable('sender_profiles')
      .set({
        schedule: JSON.stringify({
          timezone: 'UTC',
          use_lead_timezone: false,
          timeblocks: [0, 1, 2, 3, 4, 5, 6].map((dow) => ({ dow, min: 0, max: 1440 })),
        }),
      })
      .where('uuid', '=', senderUuid)
      .execute();
  });

  it('never sends twice: a message left in progress is resolved from the channel, or failed visibly', async () => {
    const longAgo = new Date(Date.now() - 3600_000);
    const make = async (text: string) => {
      const uuid = await queue({ text, linkedin_type: 'InMail' });
      await ctx.db
        .updateTable('linkedin_messages')
        .set({ status: 'in_progress', taken_at: longAgo })
        .where('uuid', '=', uuid)
        .execute();
      return uuid;
    };
    // It went out before the crash: the network has it.
    const wentOut = await make('went out');
    await ctx.db
      .insertInto('sandbox_linkedin_actions')
      .values({
        team_id: alice.teamId,
        sender_profile_uuid: senderUuid,
        lead_uuid: leadUuid,
        action: 'linkedin_send_inmail',
        task_uuid: wentOut,
        text: 'went out',
        performed_at: longAgo,
      })
      .execute();
    // It never went out.
    const never = await make('never went out');
    expect(await reconcileStaleMessages(deps, alice.teamId, senderUuid, new Date())).toBe(2);
    expect(await message(wentOut)).toMatchObject({ status: 'done', sent_at: longAgo });
    expect(await message(never)).toMatchObject({ status: 'new', taken_at: null });
    const sends = await ctx.db
      .selectFrom('sandbox_linkedin_actions')
      .select('id')
      .where('task_uuid', '=', wentOut)
      .execute();
    expect(sends).toHaveLength(1);

    // The channel cannot tell (the seat is down): failed with the reason, never resent.
    const unknown = await make('cannot tell');
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ status: 'login_issue' })
      .where('sender_profile_uuid', '=', senderUuid)
      .execute();
    expect(await processQueuedMessage(deps, alice.teamId, unknown, new Date())).toMatchObject({
      outcome: 'failed',
    });
    expect(await message(unknown)).toMatchObject({
      status: 'failed',
      fail_reason: expect.stringMatching(/^unknown_outcome/),
    });
    // A queued message waits for the seat instead of failing.
    expect(await processQueuedMessage(deps, alice.teamId, never, new Date())).toMatchObject({
      outcome: 'waiting',
    });
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ status: 'running' })
      .where('sender_profile_uuid', '=', senderUuid)
      .execute();
  });
});

describe('a send the channel answers unconfirmed (Send clicked, no confirmation)', () => {
  it('is never resent: left in progress for the outcome check, then failed visibly (retry refused)', async () => {
    const unsure = unconfirmingDriver();
    const unsureDeps = { ...deps, drivers: { resolve: async () => unsure.driver } };
    const res = await post(alice, {
      sender_profile_uuid: senderUuid,
      lead_uuid: leadUuid,
      text: 'Only once',
    });
    const uuid = res.json().uuid as string;
    const now = new Date();
    const first = await processQueuedMessage(unsureDeps, alice.teamId, uuid, now);
    expect(first.outcome).toBe('waiting');
    expect(await message(uuid)).toMatchObject({
      status: 'in_progress',
      fail_reason: expect.stringMatching(/^unconfirmed: /),
    });
    // Looked at again before the reconcile delay: still nobody sends it.
    expect(await processQueuedMessage(unsureDeps, alice.teamId, uuid, now)).toMatchObject({
      outcome: 'waiting',
    });
    expect(await processQueuedMessage(unsureDeps, alice.teamId, uuid, first.retryAt!)).toMatchObject({
      outcome: 'failed',
    });
    expect(unsure.state.performed).toBe(1);
    expect(await message(uuid)).toMatchObject({
      status: 'failed',
      fail_reason: expect.stringMatching(/^unknown_outcome: Send was clicked; .* it is not sent again\.$/),
    });
    const retry = await ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/linkedin-messages/${uuid}/retry`,
    });
    expect(retry.statusCode).toBe(422);
  });
});

describe('lists and delete', () => {
  it('filters messages with bracket and flat parameters, and pages', async () => {
    const all = (await get(alice, '/flows/api/linkedin-messages?limit=1000')).json();
    expect(all.total).toBeGreaterThan(3);
    const inmails = (
      await get(alice, '/flows/api/linkedin-messages?filter[linkedin_type]=InMail&limit=1000')
    ).json();
    expect(inmails.data.every((m: { linkedin_type: string }) => m.linkedin_type === 'InMail')).toBe(true);
    const flat = (await get(alice, '/flows/api/linkedin-messages?linkedin_type=InMail&limit=1000')).json();
    expect(flat.total).toBe(inmails.total);
    const bySender = (
      await get(alice, `/flows/api/linkedin-messages?filter[sender_profile_uuid]=${senderUuid}`)
    ).json();
    expect(bySender.total).toBe(all.total);
    const failed = (await get(alice, '/flows/api/linkedin-messages?filter[status]=failed')).json();
    expect(failed.data.every((m: { fail_reason: string | null }) => m.fail_reason)).toBe(true);
    const page = (
      await get(alice, '/flows/api/linkedin-messages?limit=2&offset=1&order_field=created_at&order_type=asc')
    ).json();
    expect(page).toMatchObject({ limit: 2, offset: 1, has_more: true });
    expect((await get(alice, '/flows/api/linkedin-messages?filter[status]=sent')).statusCode).toBe(422);
    expect((await get(alice, '/flows/api/linkedin-messages?filter[nope]=1')).statusCode).toBe(422);
    expect(
      (await get(alice, '/flows/api/linkedin-messages?order_field=text')).statusCode,
    ).toBeGreaterThanOrEqual(400);
  });

  it('lists conversations; an unknown flat parameter is a 400 naming it', async () => {
    const conversations = (
      await get(alice, `/flows/api/linkedin-conversations?filter[lead_uuid]=${leadUuid}`)
    ).json();
    expect(conversations.data).toHaveLength(1);
    expect(conversations.data[0]).toMatchObject({
      lead_uuid: leadUuid,
      sender_profile_uuid: senderUuid,
      need_to_sync: false,
    });
    const flat = await get(
      alice,
      '/flows/api/linkedin-conversations?flow_uuid=0190f000-0000-7000-8000-000000000001',
    );
    expect(flat.statusCode).toBe(400);
    expect(flat.body).toContain('flow_uuid');
    const bracket = await get(
      alice,
      '/flows/api/linkedin-conversations?filter[flow_uuid]=0190f000-0000-7000-8000-000000000001',
    );
    expect(bracket.statusCode).toBe(422);
    expect(bracket.body).toContain('flow_uuid');
    expect((await get(bob, '/flows/api/linkedin-conversations')).json().total).toBe(0);
  });

  it('deletes a message (204); another team gets 404 and a queued message deleted is not sent', async () => {
    const res = await post(alice, {
      sender_profile_uuid: senderUuid,
      lead_uuid: leadUuid,
      text: 'To delete',
    });
    const uuid = res.json().uuid;
    expect(
      (await ctx.request(bob, { method: 'DELETE', url: `/flows/api/linkedin-messages/${uuid}` })).statusCode,
    ).toBe(404);
    expect((await get(bob, '/flows/api/linkedin-messages')).json().total).toBe(0);
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/flows/api/linkedin-messages/${uuid}` }))
        .statusCode,
    ).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/flows/api/linkedin-messages/${uuid}` }))
        .statusCode,
    ).toBe(404);
    expect(await processQueuedMessage(deps, alice.teamId, uuid, new Date())).toEqual({});
  });
});
