// The inbox sync end to end on a fake clock: a flow sends through the sandbox network, the contact's
// reply lands in the seat's inbox, the sync stores it once and the engine's stop rule ends the flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { linkedInMessageDeps } from '../../deps.js';
import { addToSandboxInbox } from '../browsers/sandbox/sandbox-inbox.js';
import { syncDueSeats, syncSeat } from './linkedin-sync.js';

let h: EngineHarness;
let senderUuid: string;
let deps: ReturnType<typeof linkedInMessageDeps>;

beforeAll(async () => {
  h = await createEngineHarness();
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  senderUuid = sender.uuid;
  deps = linkedInMessageDeps({ db: h.ctx.db, config: h.ctx.config, clock: h.clock });
});
afterAll(() => h.close());

const db = () => h.ctx.db;
const team = () => h.user.teamId;

async function list(path: string) {
  const response = await h.ctx.request(h.user, { method: 'GET', url: path });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('LinkedIn inbox sync', () => {
  it('stores a reply once, attaches it to the contact and its conversation, and the reply stops the flow', async () => {
    const flow = await makeFlow(db(), team(), {
      senders: [senderUuid],
      nodes: [
        {
          id: 1,
          type: 'linkedin_send_inmail',
          payload: { template: 'Hi {{first_name}}', subject: 'Hello' },
          next: { 1: 2 },
        },
        { id: 2, type: 'util_timer', payload: { wait_time: 5 * 86_400 }, next: { 1: 3 } },
        {
          id: 3,
          type: 'linkedin_send_inmail',
          payload: { template: 'Following up', subject: 'Again' },
          next: { 1: 4 },
        },
        { id: 4, type: 'end' },
      ],
    });
    const [lead] = await makeContacts(db(), team(), 1, 'Reply');
    const [fl] = await enroll(db(), team(), flow, [lead!.uuid], { at: h.clock.now() });
    // The first InMail goes out; the flow then waits at its timer.
    await h.run(async () => {
      const row = await db()
        .selectFrom('flow_leads')
        .select('flow_node_id')
        .where('uuid', '=', fl!.uuid)
        .executeTakeFirstOrThrow();
      return row.flow_node_id === 2;
    });
    const sent = await list(`/flows/api/linkedin-messages?filter[lead_uuid]=${lead!.uuid}`);
    expect(sent.data).toHaveLength(1);
    expect(sent.data[0]).toMatchObject({
      type: 'outbox',
      automation: 'auto',
      linkedin_type: 'InMail',
      status: 'done',
      text: 'Hi Reply0',
      flow_uuid: flow.uuid,
    });
    const conversationUuid = sent.data[0].linkedin_conversation_uuid;
    expect(conversationUuid).toBeTruthy();

    // The contact answers on LinkedIn: the message is in the seat's inbox, matched by its nickname.
    await addToSandboxInbox(db(), [
      {
        team_id: team(),
        sender_profile_uuid: senderUuid,
        lead_uuid: null,
        kind: 'message',
        conversation_id: 'conv-1',
        member: { linkedin: 'reply-0', full_name: 'Reply0 Test' },
        text: 'Not interested, thanks',
        subject: null,
        linkedin_type: 'InMail',
        occurred_at: h.clock.now(),
      },
    ]);
    const first = await syncSeat(deps, team(), senderUuid, h.clock.now());
    expect(first).toMatchObject({ stored: 1, replies: 1, error: null });

    const replies = await list(
      `/flows/api/linkedin-messages?filter[type]=inbox&filter[lead_uuid]=${lead!.uuid}`,
    );
    expect(replies.data).toHaveLength(1);
    expect(replies.data[0]).toMatchObject({
      automation: 'synced',
      status: 'done',
      text: 'Not interested, thanks',
      linkedin_conversation_uuid: conversationUuid,
      sender_profile_uuid: senderUuid,
    });
    // The stop rule ended the running flow, and the event fired once.
    const ended = await db()
      .selectFrom('flow_leads')
      .selectAll()
      .where('uuid', '=', fl!.uuid)
      .executeTakeFirstOrThrow();
    expect(ended).toMatchObject({ status: 'finished', reason: 'replied' });
    const events = () =>
      db()
        .selectFrom('events')
        .select(['name', 'payload'])
        .where('team_id', '=', team())
        .where('lead_uuid', '=', lead!.uuid)
        .where('name', '=', 'contact_replied_linkedin_inmail')
        .execute();
    expect(await events()).toHaveLength(1);
    expect((await events())[0]!.payload).toMatchObject({
      linkedin_message: { uuid: replies.data[0].uuid, text: 'Not interested, thanks', type: 'inbox' },
    });

    // Idempotent: syncing again, even from the beginning (a lost cursor), stores nothing twice.
    expect(await syncSeat(deps, team(), senderUuid, h.clock.now())).toMatchObject({ stored: 0, replies: 0 });
    await db().updateTable('linkedin_sync_state').set({ cursor: null }).execute();
    expect(await syncSeat(deps, team(), senderUuid, h.clock.now())).toMatchObject({
      items: 1,
      stored: 0,
      replies: 0,
    });
    expect(await events()).toHaveLength(1);
    const all = await list(`/flows/api/linkedin-messages?filter[lead_uuid]=${lead!.uuid}`);
    expect(all.total).toBe(2);
    // No second InMail: the flow stopped.
    await h.run(undefined, { maxTicks: 20 });
    expect(
      (await list(`/flows/api/linkedin-messages?filter[lead_uuid]=${lead!.uuid}&filter[type]=outbox`)).total,
    ).toBe(1);

    const conversations = await list(`/flows/api/linkedin-conversations?filter[lead_uuid]=${lead!.uuid}`);
    expect(conversations.data).toHaveLength(1);
    expect(conversations.data[0]).toMatchObject({
      uuid: conversationUuid,
      sender_profile_uuid: senderUuid,
      lead_nickname: 'reply-0',
      event_count: 2,
    });
  });

  it('fires the acceptance trigger from an accepted invitation found in the inbox, once', async () => {
    const flow = await makeFlow(db(), team(), {
      senders: [senderUuid],
      nodes: [
        {
          id: 1,
          type: 'trigger_linkedin_connection_request_accepted',
          payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 10 * 86_400 } }] },
          next: { 1: 2, 2: 2 },
        },
        { id: 2, type: 'end' },
      ],
    });
    const [lead] = await makeContacts(db(), team(), 1, 'Accept');
    const [fl] = await enroll(db(), team(), flow, [lead!.uuid], { at: h.clock.now() });
    await h.run(undefined, { maxTicks: 3 });
    for (let i = 0; i < 2; i += 1) {
      await addToSandboxInbox(db(), [
        {
          team_id: team(),
          sender_profile_uuid: senderUuid,
          lead_uuid: null,
          kind: 'accepted',
          conversation_id: null,
          member: { linkedin: 'accept-0' },
          text: null,
          subject: null,
          linkedin_type: null,
          occurred_at: h.clock.now(),
        },
      ]);
    }
    // Through the scheduled round: the seat's sync is due.
    await db().updateTable('linkedin_sync_state').set({ next_sync_at: h.clock.now() }).execute();
    expect(await syncDueSeats(deps, h.clock.now())).toBe(1);
    await h.run(async () => {
      const row = await db()
        .selectFrom('flow_leads')
        .select('status')
        .where('uuid', '=', fl!.uuid)
        .executeTakeFirstOrThrow();
      return row.status === 'finished';
    });
    const tasks = await db()
      .selectFrom('tasks')
      .select(['type', 'fork_result'])
      .where('flow_lead_uuid', '=', fl!.uuid)
      .orderBy('step')
      .execute();
    expect(tasks[0]).toEqual({ type: 'trigger_linkedin_connection_request_accepted', fork_result: 1 });
    const accepted = await db()
      .selectFrom('events')
      .select('uuid')
      .where('lead_uuid', '=', lead!.uuid)
      .where('name', '=', 'contact_accepted_linkedin_connection_request')
      .execute();
    expect(accepted).toHaveLength(1);
  });

  it('stores a message of no known contact without a contact, and keeps other teams apart', async () => {
    const other = await h.ctx.createUser('Other team');
    await addToSandboxInbox(db(), [
      {
        team_id: team(),
        sender_profile_uuid: senderUuid,
        lead_uuid: null,
        kind: 'message',
        conversation_id: 'conv-x',
        member: { linkedin: 'somebody-unknown' },
        text: 'Who are you?',
        subject: null,
        linkedin_type: 'MEMBER_TO_MEMBER',
        occurred_at: h.clock.now(),
      },
    ]);
    expect(await syncSeat(deps, team(), senderUuid, h.clock.now())).toMatchObject({ stored: 1, replies: 0 });
    const unknown = await list('/flows/api/linkedin-messages?filter[q]=who are');
    expect(unknown.data).toHaveLength(1);
    expect(unknown.data[0]).toMatchObject({
      lead_uuid: null,
      linkedin_conversation_uuid: null,
      automation: 'synced',
    });
    const theirs = await h.ctx.request(other, { method: 'GET', url: '/flows/api/linkedin-messages' });
    expect(theirs.json().total).toBe(0);
    const theirConversations = await h.ctx.request(other, {
      method: 'GET',
      url: '/flows/api/linkedin-conversations',
    });
    expect(theirConversations.json().total).toBe(0);
  });
});
