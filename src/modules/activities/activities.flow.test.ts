// A contact's timeline and markers as a flow runs it on the sandbox LinkedIn network: enrollment, the
// connection request and its acceptance, a message and the reply, a stage change by the flow, the end -
// each recorded once, in order, by the transaction that made it happen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContacts, makeFlow, makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';

let h: EngineHarness;

beforeAll(async () => {
  // Enrolled through the API, whose statements stamp the database's time: the engine's clock starts
  // there too (from the harness's fixed date it would walk months in 6-hour idle steps to reach it).
  h = await createEngineHarness({ start: new Date(), env: { LEADFLOW_SANDBOX_REPLY_RATE: '1' } });
});
afterAll(() => h.close());

describe('a flow on the contact\u2019s timeline', () => {
  it('records enrollment, sends, acceptance, reply, the flow\u2019s stage change and the end; markers count them', async () => {
    const { db, request } = h.ctx;
    const team = h.user.teamId;
    const sender = await makeSender(db, team);
    await makeSandboxSeat(db, team, sender.uuid);
    const stages = (
      await request(h.user, { method: 'GET', url: '/leads/api/pipeline-stages?filter[object]=lead' })
    ).json().data as Array<{ uuid: string; type: string }>;
    const replied = stages.find((s) => s.type === 'replied')!;
    const flow = await makeFlow(db, team, {
      senders: [sender.uuid],
      nodes: [
        { id: 1, type: 'linkedin_send_connection_request', payload: { template: 'Hi!' }, next: { 1: 2 } },
        {
          id: 2,
          type: 'trigger_linkedin_connection_request_accepted',
          payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 86_400 } }] },
          next: { 1: 3, 2: 5 },
        },
        {
          id: 3,
          type: 'linkedin_send_message',
          payload: { template: 'Thanks {{first_name}}', stop_on_reply_level: 'never' },
          next: { 1: 4 },
        },
        {
          id: 4,
          type: 'gs_change_pipeline_stage',
          payload: { pipeline_stage_uuid: replied.uuid },
          next: { 1: 5 },
        },
        { id: 5, type: 'end' },
      ],
    });
    const [contact] = await makeContacts(db, team, 1, 'Tim');
    const enrolled = await request(h.user, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/leads/${contact!.uuid}`,
    });
    expect(enrolled.statusCode).toBe(204);

    const timeline = async () =>
      (
        await request(h.user, {
          method: 'GET',
          url: `/leads/api/activities?filter[lead_uuid]=${contact!.uuid}&order_type=asc&limit=100`,
        })
      ).json().data as Array<{ type: string; payload: Record<string, unknown>; company_uuid: string | null }>;
    await h.run(async () => (await timeline()).some((a) => a.type === 'linkedin_message_replied'));

    const types = (await timeline()).map((a) => a.type);
    expect(types.slice(0, 4)).toEqual([
      'flow_enrolled',
      'linkedin_connection_request_sent',
      'linkedin_connection_request_accepted',
      'linkedin_message_sent',
    ]);
    // The flow's stage change and its end are one step of the engine: the same instant.
    expect(new Set(types.slice(4, 6))).toEqual(new Set(['pipeline_stage_changed', 'flow_finished']));
    expect(types.slice(6)).toEqual(['linkedin_message_replied']);
    const byType = Object.fromEntries((await timeline()).map((a) => [a.type, a.payload]));
    expect(byType.flow_enrolled).toMatchObject({ flow_uuid: flow.uuid, added_by: 'user' });
    expect(byType.linkedin_message_sent).toMatchObject({
      sender_profile_uuid: sender.uuid,
      flow_uuid: flow.uuid,
      text: 'Thanks Tim0',
    });
    expect(byType.pipeline_stage_changed).toMatchObject({ to: replied.uuid, flow_uuid: flow.uuid });
    expect(byType.flow_finished).toMatchObject({ flow_uuid: flow.uuid, reason: 'completed' });
    expect(byType.linkedin_message_replied).toMatchObject({ sender_profile_uuid: sender.uuid });

    const lead = (await request(h.user, { method: 'GET', url: `/leads/api/leads/${contact!.uuid}` })).json();
    const perSender = lead.markers.find(
      (m: { sender_profile_uuid: string }) => m.sender_profile_uuid === sender.uuid,
    );
    expect(perSender).toMatchObject({
      linkedin_messages_sent_count: 1,
      linkedin_messages_inbox_count: 1,
      email_sent_count: 0,
    });
    expect(perSender.linkedin_last_connection_sent_at).not.toBeNull();
    expect(perSender.linkedin_last_connection_accepted_at).not.toBeNull();
    expect(perSender.last_messaging_activity_at).not.toBeNull();
    expect(lead.markers.at(-1)).toMatchObject({ sender_profile_uuid: null, linkedin_messages_sent_count: 1 });
    const plain = (
      await request(h.user, {
        method: 'GET',
        url: `/leads/api/leads/${contact!.uuid}?disable_aggregation=true`,
      })
    ).json();
    expect(plain).not.toHaveProperty('markers');
  }, 120_000);
});
