// Team analytics per day: actions per sender against its limits, conversions grouped by sender, flow or
// contact source - rows inserted as the engine writes them, answers checked against them by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { newId } from '../../../lib/ids.js';
import { createFlow, makeSender, type WireFlow } from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let flow: WireFlow;
let other: WireFlow;
let sam: string;
let kim: string;
let bobSender: string;

async function task(sender: string, type: string, taken: string, status = 'closed', flowUuid = flow.uuid) {
  await ctx.db
    .insertInto('tasks')
    .values({
      team_id: alice.teamId,
      uuid: newId(),
      lead_uuid: newId(),
      flow_uuid: flowUuid,
      flow_node_id: 1,
      sender_profile_uuid: sender,
      type,
      automation: 'auto',
      status: status as 'closed',
      taken_to_execute_at: new Date(taken),
      executed_at: new Date(taken),
    })
    .execute();
}

async function conversion(
  sender: string | null,
  source: number,
  kind: string,
  when: string,
  flowUuid = flow.uuid,
) {
  await ctx.db
    .insertInto('flow_conversion_deltas')
    .values({
      team_id: alice.teamId,
      flow_uuid: flowUuid,
      flow_node_id: 1,
      contact_source_id: source,
      sender_profile_uuid: sender,
      channel: 'linkedin_connection_request',
      kind,
      delta: 1,
      occurred_at: new Date(when),
    })
    .execute();
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  flow = await createFlow(ctx, alice);
  other = await createFlow(ctx, alice);
  sam = (await makeSender(ctx, alice.teamId)).uuid;
  kim = (await makeSender(ctx, alice.teamId)).uuid;
  bobSender = (await makeSender(ctx, bob.teamId)).uuid;
  await ctx.db
    .updateTable('sender_profiles')
    .set({ limits: JSON.stringify({ linkedin_send_connection_request: 12 }) })
    .where('uuid', '=', kim)
    .execute();
  await task(sam, 'linkedin_send_connection_request', '2026-03-01T10:00:00Z');
  await task(sam, 'linkedin_send_connection_request', '2026-03-01T11:00:00Z');
  await task(sam, 'linkedin_send_connection_request', '2026-03-01T12:00:00Z', 'failed'); // not counted
  await task(sam, 'linkedin_visit_profile', '2026-03-02T03:00:00Z'); // 1 March in New York
  await task(kim, 'linkedin_send_message', '2026-03-03T09:00:00Z', 'in_progress', other.uuid);
  await task(kim, 'linkedin_send_message', '2026-04-03T09:00:00Z'); // after the period
  await conversion(sam, 1, 'sent', '2026-03-01T10:00:00Z');
  await conversion(sam, 1, 'sent', '2026-03-01T11:00:00Z');
  await conversion(sam, 1, 'accepted', '2026-03-02T15:00:00Z');
  await conversion(kim, 2, 'accepted', '2026-03-03T15:00:00Z');
  await conversion(null, 2, 'accepted', '2026-03-03T16:00:00Z', other.uuid);
});
afterAll(() => ctx.close());

const team = (user: TestUser, payload: object) =>
  ctx.request(user, { method: 'POST', url: '/flows/api/statistics/team', payload });
const march = { from: '2026-03-01', to: '2026-03-03', time_zone: 'UTC' };

describe('POST /flows/api/statistics/team', () => {
  it('counts each sender day by day against its limits, and conversions per sender', async () => {
    const res = await team(alice, march);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.days).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    const [first, second] = body.senders;
    expect(first).toMatchObject({
      sender_profile_uuid: sam,
      name: 'Sam',
      actions: { linkedin_send_connection_request: [2, 0, 0], linkedin_visit_profile: [0, 1, 0] },
    });
    expect(first.daily_limits.linkedin_send_connection_request).toEqual([20, 20, 20]);
    expect(second.actions).toEqual({ linkedin_send_message: [0, 0, 1] });
    expect(second.daily_limits.linkedin_send_connection_request).toEqual([12, 12, 12]);
    const bySender = Object.fromEntries(
      body.conversions.map((group: { sender_profile_uuid: string | null; channels: object }) => [
        String(group.sender_profile_uuid),
        group.channels,
      ]),
    );
    expect(bySender).toEqual({
      [sam]: { linkedin_connection_request: { sent: [2, 0, 0], accepted: [0, 1, 0] } },
      [kim]: { linkedin_connection_request: { accepted: [0, 0, 1] } },
      null: { linkedin_connection_request: { accepted: [0, 0, 1] } },
    });
  });

  it('counts days in the zone asked for, and narrows to flows and senders', async () => {
    const ny = (
      await team(alice, { ...march, time_zone: 'America/New_York', sender_profile_uuids: [sam] })
    ).json();
    expect(ny.senders).toHaveLength(1);
    expect(ny.senders[0].actions.linkedin_visit_profile).toEqual([1, 0, 0]);

    const onlyFlow = (await team(alice, { ...march, flow_uuids: [flow.uuid], group_by: 'flow' })).json();
    expect(onlyFlow.senders[1].actions).toEqual({});
    expect(onlyFlow.conversions).toEqual([
      {
        sender_profile_uuid: null,
        flow_uuid: flow.uuid,
        contact_source_id: null,
        channels: { linkedin_connection_request: { sent: [2, 0, 0], accepted: [0, 1, 1] } },
      },
    ]);
    const sources = (await team(alice, { ...march, group_by: 'contact_source' })).json().conversions;
    expect(
      sources
        .map((s: { flow_uuid: string; contact_source_id: number }) => `${s.flow_uuid}/${s.contact_source_id}`)
        .sort(),
    ).toEqual([`${flow.uuid}/1`, `${flow.uuid}/2`, `${other.uuid}/2`].sort());
  });

  it("refuses a bad period and another team's flows and senders, naming the field", async () => {
    const refused = async (payload: object, field: string) => {
      const res = await team(alice, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.body).toContain(field);
    };
    await refused({ from: '2026-03-02', to: '2026-03-01' }, 'to');
    await refused({ from: '2026-01-01', to: '2026-04-03' }, 'to');
    await refused({ ...march, flow_uuids: [newId()] }, 'flow_uuids');
    await refused({ ...march, sender_profile_uuids: [bobSender] }, 'sender_profile_uuids');
    await refused({ ...march, time_zone: 'Mars/Olympus' }, 'time_zone');
    await refused({ ...march, unknown: 1 }, 'unknown');
    const bobs = (await team(bob, march)).json();
    expect(bobs.senders.map((s: { sender_profile_uuid: string }) => s.sender_profile_uuid)).toEqual([
      bobSender,
    ]);
    expect(bobs.conversions).toEqual([]);
  });
});
