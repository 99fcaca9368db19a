// The engine end to end on a fake clock: real database, the sandbox LinkedIn network as the channel,
// one flow shape per test - outreach, replies, and contacts sent on to other flows and webhooks
// (branching and flow control: engine.flow-control.test.ts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll, makeFlow } from '../../../test/automation-factories.js';
import type { EngineHarness } from '../../../test/engine-harness.js';
import { newId } from '../../lib/ids.js';
import { flowHelpers, startFlowHarness } from './engine.flow.test-support.js';

let h: EngineHarness;
let senderUuid: string;

beforeAll(async () => {
  ({ h, senderUuid } = await startFlowHarness());
});
afterAll(() => h.close());

const { db, team, enrollment, tasksOf, start, settled } = flowHelpers(() => ({ h, senderUuid }));

describe('running flows on the sandbox network', () => {
  it('invites, waits for the acceptance, messages after the node delay and finishes', async () => {
    const { flow, leads, rows } = await start(
      [
        {
          id: 1,
          type: 'linkedin_send_connection_request',
          payload: { template: 'Hi {{first_name}}!' },
          next: { 1: 2 },
        },
        {
          id: 2,
          type: 'trigger_linkedin_connection_request_accepted',
          payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 3 * 86_400 } }] },
          next: { 1: 3, 2: 4 },
        },
        {
          id: 3,
          type: 'linkedin_send_message',
          payload: { template: 'Thanks, {{first_name}}.', stop_on_reply_level: 'never' },
          delay_in_seconds: 3600,
          next: { 1: 4 },
        },
        { id: 4, type: 'end' },
      ],
      1,
      'Ada',
    );
    const fl = rows[0]!;
    await h.run(settled([fl.uuid]));
    // The contact answers the message (stop_on_reply_level "never" kept the flow going to its end).
    await h.run(async () => {
      const reply = await db()
        .selectFrom('events')
        .select('uuid')
        .where('lead_uuid', '=', leads[0]!.uuid)
        .where('name', '=', 'contact_replied_linkedin_message')
        .executeTakeFirst();
      return reply !== undefined;
    });

    expect(await enrollment(fl.uuid)).toMatchObject({
      status: 'finished',
      reason: 'completed',
      sender_profile_uuid: senderUuid,
    });
    expect((await tasksOf(fl.uuid)).map((t) => [t.type, t.status, t.fork_result])).toEqual([
      ['linkedin_send_connection_request', 'closed', null],
      ['trigger_linkedin_connection_request_accepted', 'closed', 1],
      ['linkedin_send_message', 'closed', null],
      ['end', 'closed', null],
    ]);
    const sent = await db()
      .selectFrom('sandbox_linkedin_actions')
      .select(['action', 'text', 'performed_at'])
      .where('lead_uuid', '=', leads[0]!.uuid)
      .orderBy('id')
      .execute();
    expect(sent.map((s) => [s.action, s.text])).toEqual([
      ['linkedin_send_connection_request', 'Hi Ada0!'],
      ['linkedin_send_message', 'Thanks, Ada0.'],
    ]);
    expect(sent[1]!.performed_at.getTime() - sent[0]!.performed_at.getTime()).toBeGreaterThanOrEqual(
      3600_000,
    );
    const events = await db()
      .selectFrom('events')
      .select(['name', 'payload'])
      .where('team_id', '=', team())
      .where('lead_uuid', '=', leads[0]!.uuid)
      .orderBy('occurred_at')
      .execute();
    expect(events.map((e) => e.name)).toEqual([
      'sender_profile_sent_linkedin_connection_request',
      'contact_accepted_linkedin_connection_request',
      'sender_profile_sent_linkedin_message',
      'contact_replied_linkedin_message',
    ]);
    expect(events[0]!.payload).toMatchObject({
      sender_profile: { uuid: senderUuid },
      automation: { uuid: flow.uuid, name: 'Flow', status: 'on' },
    });
    const conversions = await sql<{ channel: string; kind: string; sender: string; n: number }>`
      select channel, kind, sender_profile_uuid as sender, sum(delta)::int as n from flow_conversion_deltas
      where team_id = ${team()} and flow_uuid = ${flow.uuid} group by 1, 2, 3 order by 1, 2
    `.execute(db());
    // Each conversion names the enrollment's sender (team analytics group by it).
    expect(conversions.rows).toEqual([
      { channel: 'linkedin_connection_request', kind: 'accepted', sender: senderUuid, n: 1 },
      { channel: 'linkedin_connection_request', kind: 'sent', sender: senderUuid, n: 1 },
      { channel: 'linkedin_message', kind: 'replied', sender: senderUuid, n: 1 },
      { channel: 'linkedin_message', kind: 'sent', sender: senderUuid, n: 1 },
    ]);
  });

  it('stops the sequence when the contact replies, before the follow-up goes out', async () => {
    const { rows, leads } = await start(
      [
        {
          id: 1,
          type: 'linkedin_send_inmail',
          payload: { subject: 'Hello', template: 'First' },
          next: { 1: 2 },
        },
        { id: 2, type: 'util_timer', payload: { wait_time: 86_400 }, next: { 1: 3 } },
        {
          id: 3,
          type: 'linkedin_send_inmail',
          payload: { subject: 'Again', template: 'Follow-up' },
          next: { 1: 4 },
        },
        { id: 4, type: 'end' },
      ],
      1,
      'Rex',
    );
    await h.run(settled([rows[0]!.uuid]));
    expect(await enrollment(rows[0]!.uuid)).toMatchObject({ status: 'finished', reason: 'replied' });
    const actions = await db()
      .selectFrom('sandbox_linkedin_actions')
      .select('text')
      .where('lead_uuid', '=', leads[0]!.uuid)
      .execute();
    expect(actions.map((a) => a.text)).toEqual(['First']);
    // The timer's task was canceled with the enrollment.
    expect((await tasksOf(rows[0]!.uuid)).map((t) => [t.type, t.status])).toEqual([
      ['linkedin_send_inmail', 'closed'],
      ['util_timer', 'canceled'],
    ]);
  });

  it('sends the contact to another flow, removes it from the others and triggers a custom webhook', async () => {
    const other = await makeFlow(db(), team(), {
      senders: [senderUuid],
      nodes: [
        { id: 1, type: 'util_timer', payload: { wait_time: 86_400 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    const waiting = await makeFlow(db(), team(), {
      senders: [senderUuid],
      nodes: [
        { id: 1, type: 'util_hodor', payload: { is_open: 0 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    const webhook = await db()
      .insertInto('webhooks')
      .values({
        team_id: team(),
        uuid: newId(),
        name: 'Custom call',
        event: 'contact_exported',
        target_url: 'https://hooks.example.test/flow',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const { rows, leads } = await start(
      [
        { id: 1, type: 'gs_send_to_flow', payload: { flow_uuid: other.uuid }, next: { 1: 2 } },
        {
          id: 2,
          type: 'gs_remove_from_all_automations',
          payload: { flow_uuids: [waiting.uuid] },
          next: { 1: 3 },
        },
        { id: 3, type: 'gs_trigger_custom_webhook', payload: { webhook_uuid: webhook.uuid }, next: { 1: 4 } },
        { id: 4, type: 'end' },
      ],
      1,
      'Multi',
    );
    const lead = leads[0]!.uuid;
    const [held] = await enroll(db(), team(), waiting, [lead], { at: h.clock.now() });
    await h.run(settled([rows[0]!.uuid]));
    const enrollments = await db()
      .selectFrom('flow_leads')
      .select(['flow_uuid', 'status', 'reason', 'added_by'])
      .where('lead_uuid', '=', lead)
      .execute();
    expect(enrollments).toEqual(
      expect.arrayContaining([
        { flow_uuid: other.uuid, status: 'in_progress', reason: null, added_by: 'flow' },
        { flow_uuid: waiting.uuid, status: 'canceled', reason: 'removed_by_automation', added_by: 'user' },
      ]),
    );
    expect(held).toBeDefined();
    const deliveries = await db()
      .selectFrom('webhook_deliveries')
      .innerJoin('events', (j) =>
        j
          .onRef('events.team_id', '=', 'webhook_deliveries.team_id')
          .onRef('events.uuid', '=', 'webhook_deliveries.event_uuid'),
      )
      .select(['events.name', 'events.payload', 'webhook_deliveries.webhook_uuid'])
      .where('events.lead_uuid', '=', lead)
      .execute();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ name: 'contact_exported', webhook_uuid: webhook.uuid });
    expect(deliveries[0]!.payload).toMatchObject({ contact: { uuid: lead }, automation: { status: 'on' } });
  });
});
