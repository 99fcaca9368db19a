// Read state end to end: messages a contact sends through the seat's inbox sync (and e-mails stored by
// the mailbox sync) are unread - counted on the conversation and the contact, found by the has_unread
// filter - until the contact_mark_read mass action marks them read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContacts, makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { linkedInMessageDeps } from '../../deps.js';
import { newId } from '../../lib/ids.js';
import { addToSandboxInbox } from '../browsers/sandbox/sandbox-inbox.js';
import { syncSeat } from '../linkedin-messages/linkedin-sync.js';

let h: EngineHarness;
let senderUuid: string;

beforeAll(async () => {
  h = await createEngineHarness();
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  senderUuid = sender.uuid;
});
afterAll(() => h.close());

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await h.ctx.request(h.user, { method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

/** An incoming e-mail as the mailbox sync stores it (unread until marked). */
async function receiveEmail(leadUuid: string, classification: 'reply' | 'bounce' = 'reply') {
  const mailbox = await h.ctx.db
    .insertInto('mailboxes')
    .values({
      team_id: h.user.teamId,
      uuid: newId(),
      sender_profile_uuid: senderUuid,
      email: `box-${newId().slice(-12)}@example.test`,
      sender_name: 'Sam',
      provider: 'smtp',
      connection_settings: '{}',
    })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  const uuid = newId();
  await h.ctx.db
    .insertInto('emails')
    .values({
      team_id: h.user.teamId,
      uuid,
      sender_profile_uuid: senderUuid,
      mailbox_uuid: mailbox.uuid,
      lead_uuid: leadUuid,
      type: 'inbox',
      status: 'sync',
      classification,
      message_id: `<${uuid}@example.test>`,
      thread_uuid: uuid,
      sent_at: h.clock.now(),
    })
    .execute();
}

describe('read state', () => {
  it('counts received messages as unread until contact_mark_read, and filters contacts by has_unread', async () => {
    const [ann, ben, cat] = await makeContacts(h.ctx.db, h.user.teamId, 3, 'Reader');
    const message = (text: string, id: string) => ({
      team_id: h.user.teamId,
      sender_profile_uuid: senderUuid,
      lead_uuid: null,
      kind: 'message' as const,
      conversation_id: id,
      member: { linkedin: 'reader-0', full_name: 'Reader0 Test' },
      text,
      subject: null,
      linkedin_type: 'MEMBER_TO_MEMBER',
      occurred_at: h.clock.now(),
    });
    await addToSandboxInbox(h.ctx.db, [message('Hello?', 'conv-ann'), message('Still there?', 'conv-ann')]);
    const deps = linkedInMessageDeps({ db: h.ctx.db, config: h.ctx.config, clock: h.clock });
    expect(await syncSeat(deps, h.user.teamId, senderUuid, h.clock.now())).toMatchObject({ stored: 2 });
    await receiveEmail(ben!.uuid);
    await receiveEmail(cat!.uuid, 'bounce');

    const conversations = await api(
      'GET',
      `/flows/api/linkedin-conversations?filter[lead_uuid]=${ann!.uuid}`,
    );
    expect(conversations.data).toEqual([expect.objectContaining({ unread_count: 2, event_count: 2 })]);
    const unreadConversations = await api(
      'GET',
      '/flows/api/linkedin-conversations?filter[unread_count][>]=0',
    );
    expect(unreadConversations.total).toBe(1);

    const annDetail = await api('GET', `/leads/api/leads/${ann!.uuid}`);
    expect(annDetail.unread_counts).toEqual([
      { category: 'linkedin', sender_profile_uuid: senderUuid, count: 2 },
    ]);
    expect((await api('GET', `/leads/api/leads/${ben!.uuid}`)).unread_counts).toEqual([
      { category: 'email', sender_profile_uuid: senderUuid, count: 1 },
    ]);
    // A bounce report is not something to read.
    expect((await api('GET', `/leads/api/leads/${cat!.uuid}`)).unread_counts).toEqual([]);

    const unread = await api('POST', '/leads/api/leads/search', { filter: { has_unread: true } });
    expect(unread.data.map((l: { uuid: string }) => l.uuid).sort()).toEqual([ann!.uuid, ben!.uuid].sort());
    const count = await api('POST', '/leads/api/leads/count', { filter: { has_unread: false, all: true } });
    expect(count.total).toBe(1);

    const marked = await api('PUT', '/leads/api/leads/mass-action', {
      type: 'contact_mark_read',
      filter: { ids: [ann!.uuid, ben!.uuid, cat!.uuid] },
    });
    expect(marked).toMatchObject({ affected: 2 });
    const again = await api('PUT', '/leads/api/leads/mass-action', {
      type: 'contact_mark_read',
      filter: { ids: [ann!.uuid] },
    });
    expect(again).toMatchObject({ affected: 0 });

    expect((await api('GET', `/leads/api/leads/${ann!.uuid}`)).unread_counts).toEqual([]);
    expect((await api('POST', '/leads/api/leads/search', { filter: { has_unread: true } })).total).toBe(0);
    const messages = await api(
      'GET',
      `/flows/api/linkedin-messages?filter[lead_uuid]=${ann!.uuid}&filter[type]=inbox`,
    );
    expect(messages.data.every((m: { read_at: string | null }) => m.read_at !== null)).toBe(true);
    const emails = await api('GET', `/emails/api/emails?filter[lead_uuid]=${ben!.uuid}`);
    expect(emails.data[0].read_at).not.toBeNull();

    // A new message is unread again.
    await addToSandboxInbox(h.ctx.db, [message('One more thing', 'conv-ann')]);
    await syncSeat(deps, h.user.teamId, senderUuid, h.clock.now());
    const after = await api('GET', `/flows/api/linkedin-conversations?filter[lead_uuid]=${ann!.uuid}`);
    expect(after.data[0]).toMatchObject({ unread_count: 1, event_count: 3 });
  });

  it('refuses a payload on contact_mark_read', async () => {
    const res = await h.ctx.request(h.user, {
      method: 'PUT',
      url: '/leads/api/leads/mass-action',
      payload: { type: 'contact_mark_read', payload: { all: true }, filter: { all: true } },
    });
    expect(res.statusCode).toBe(422);
  });
});
