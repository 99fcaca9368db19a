// When actions go out: schedule windows in the right zone, daily limits per sender-local day, human
// spacing, flow priority and fair turns, paused senders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
  type NodeSpec,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { isOpenAt, type Schedule } from '../../lib/schedule.js';

const BERLIN_OFFICE: Schedule = {
  timezone: 'Europe/Berlin',
  use_lead_timezone: false,
  timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
};

const visitThenEnd: NodeSpec[] = [
  { id: 1, type: 'linkedin_visit_profile', next: { 1: 2 } },
  { id: 2, type: 'end' },
];

let h: EngineHarness;
const db = () => h.ctx.db;
const team = () => h.user.teamId;

// Saturday 2026-06-06, 10:00 UTC.
beforeAll(async () => {
  h = await createEngineHarness({ start: new Date('2026-06-06T10:00:00Z') });
});
afterAll(() => h.close());

async function senderWithSeat(fields: Parameters<typeof makeSender>[2] = {}) {
  const sender = await makeSender(db(), team(), fields);
  await makeSandboxSeat(db(), team(), sender.uuid);
  return sender;
}

async function actionsOf(senderUuid: string) {
  return db()
    .selectFrom('sandbox_linkedin_actions')
    .select(['performed_at', 'lead_uuid', 'action'])
    .where('sender_profile_uuid', '=', senderUuid)
    .orderBy('id')
    .execute();
}

const allDone = (uuids: string[]) => async () =>
  (
    await db()
      .selectFrom('flow_leads')
      .select('uuid')
      .where('uuid', 'in', uuids)
      .where('status', 'in', ['in_progress', 'paused'])
      .execute()
  ).length === 0;

describe('the dispatcher', () => {
  it('waits for the flow schedule: enrolled on a Saturday, the first action goes out Monday 09:00 Berlin', async () => {
    const sender = await senderWithSeat();
    const flow = await makeFlow(db(), team(), {
      senders: [sender.uuid],
      nodes: visitThenEnd,
      schedule: BERLIN_OFFICE,
    });
    const leads = await makeContacts(db(), team(), 3, 'Week');
    const rows = await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    await h.run(allDone(rows.map((r) => r.uuid)), { stepMs: 15 * 60_000 });
    const actions = await actionsOf(sender.uuid);
    expect(actions).toHaveLength(3);
    // Monday 2026-06-08 09:00 CEST is 07:00Z; every action lies inside the window.
    expect(actions[0]!.performed_at.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-06-08T07:00:00Z'));
    for (const action of actions) expect(isOpenAt(BERLIN_OFFICE, action.performed_at)).toBe(true);
    const planned = await db()
      .selectFrom('tasks')
      .select('schedule_at')
      .where('flow_lead_uuid', '=', rows[0]!.uuid)
      .where('type', '=', 'linkedin_visit_profile')
      .executeTakeFirstOrThrow();
    expect(planned.schedule_at?.toISOString()).toBe('2026-06-08T07:00:00.000Z');
  });

  it('plans in the contact\u2019s own time zone when the flow says so', async () => {
    const sender = await senderWithSeat();
    const schedule = { ...BERLIN_OFFICE, use_lead_timezone: true };
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: visitThenEnd, schedule });
    h.clock.set(new Date('2026-06-13T10:00:00Z')); // Saturday
    const [lead] = await makeContacts(db(), team(), 1, 'Tokyo');
    await db().updateTable('leads').set({ timezone: 'Asia/Tokyo' }).where('uuid', '=', lead!.uuid).execute();
    const [row] = await enroll(db(), team(), flow, [lead!.uuid], { at: h.clock.now() });
    await h.run(undefined, { maxTicks: 3 });
    const task = await db()
      .selectFrom('tasks')
      .select(['schedule_at', 'timezone'])
      .where('flow_lead_uuid', '=', row!.uuid)
      .executeTakeFirstOrThrow();
    expect(task.timezone).toBe('Asia/Tokyo');
    // Monday 09:00 in Tokyo (00:00Z), not 09:00 in Berlin.
    expect(task.schedule_at?.toISOString()).toBe('2026-06-15T00:00:00.000Z');
  });

  it('keeps to the daily limit per sender-local day and carries the rest to the next day', async () => {
    const sender = await senderWithSeat({ limits: { linkedin_visit_profile: 2 } });
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: visitThenEnd });
    const leads = await makeContacts(db(), team(), 5, 'Limit');
    const rows = await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    await h.run(allDone(rows.map((r) => r.uuid)), { stepMs: 30 * 60_000 });
    const perDay = new Map<string, number>();
    for (const action of await actionsOf(sender.uuid)) {
      const day = action.performed_at.toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect([...perDay.values()]).toEqual([2, 2, 1]);
  });

  it('spaces one sender\u2019s actions by its randomised interval instead of a burst', async () => {
    const sender = await senderWithSeat({ action_interval_seconds: 120 });
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: visitThenEnd });
    const leads = await makeContacts(db(), team(), 6, 'Gap');
    const rows = await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    await h.run(allDone(rows.map((r) => r.uuid)), { stepMs: 10_000 });
    const times = (await actionsOf(sender.uuid)).map((a) => a.performed_at.getTime());
    const gaps = times.slice(1).map((t, i) => (t - times[i]!) / 1000);
    expect(gaps).toHaveLength(5);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(60);
      expect(gap).toBeLessThanOrEqual(190);
    }
    expect(new Set(gaps.map((g) => Math.round(g / 10))).size).toBeGreaterThan(1);
  });

  it('serves the higher-priority flow first, and takes turns between flows of one priority', async () => {
    const sender = await senderWithSeat({ limits: { linkedin_visit_profile: 6 } });
    const urgent = await makeFlow(db(), team(), {
      senders: [sender.uuid],
      nodes: visitThenEnd,
      priority: 9,
      name: 'Urgent',
    });
    const a = await makeFlow(db(), team(), {
      senders: [sender.uuid],
      nodes: visitThenEnd,
      priority: 2,
      name: 'A',
    });
    const b = await makeFlow(db(), team(), {
      senders: [sender.uuid],
      nodes: visitThenEnd,
      priority: 2,
      name: 'B',
    });
    const flowOf = new Map<string, string>();
    for (const [flow, name] of [
      [a, 'A'],
      [b, 'B'],
      [urgent, 'U'],
    ] as const) {
      const leads = await makeContacts(db(), team(), 4, `P${name}`);
      for (const lead of leads) flowOf.set(lead.uuid, name);
      await enroll(
        db(),
        team(),
        flow,
        leads.map((l) => l.uuid),
        { at: h.clock.now() },
      );
    }
    // Six a day: the first day must be the four urgent ones, then A and B alternately.
    await h.run(async () => (await actionsOf(sender.uuid)).length >= 6, { stepMs: 10 * 60_000 });
    const order = (await actionsOf(sender.uuid)).slice(0, 6).map((x) => flowOf.get(x.lead_uuid));
    expect(order.slice(0, 4)).toEqual(['U', 'U', 'U', 'U']);
    expect(new Set(order.slice(4))).toEqual(new Set(['A', 'B']));
  });

  it('parks a disabled sender\u2019s contacts with a reason and resumes them when it is enabled again', async () => {
    const sender = await senderWithSeat();
    await db()
      .updateTable('sender_profiles')
      .set({ status: 'disabled' })
      .where('uuid', '=', sender.uuid)
      .execute();
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: visitThenEnd });
    const leads = await makeContacts(db(), team(), 2, 'Park');
    const rows = await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    await h.run(undefined, { maxTicks: 4 });
    const parked = await db()
      .selectFrom('flow_leads')
      .select(['status', 'reason'])
      .where(
        'uuid',
        'in',
        rows.map((r) => r.uuid),
      )
      .execute();
    expect(parked).toEqual([
      { status: 'paused', reason: 'sender_disabled' },
      { status: 'paused', reason: 'sender_disabled' },
    ]);
    const enabled = await h.ctx.request(h.user, {
      method: 'PUT',
      url: `/flows/api/sender-profiles/${sender.uuid}/enable`,
    });
    expect(enabled.statusCode).toBe(200);
    await h.run(allDone(rows.map((r) => r.uuid)));
    expect(await actionsOf(sender.uuid)).toHaveLength(2);
  });

  it('rotates a source\u2019s senders fairly and keeps a contact with the sender it already talks to', async () => {
    const s1 = await senderWithSeat({ first_name: 'One' });
    const s2 = await senderWithSeat({ first_name: 'Two' });
    const earlier = await makeFlow(db(), team(), { senders: [s2.uuid], nodes: visitThenEnd });
    const leads = await makeContacts(db(), team(), 6, 'Rot');
    await enroll(db(), team(), earlier, [leads[0]!.uuid], { at: h.clock.now() });
    await h.run(undefined, { maxTicks: 3 });
    const flow = await makeFlow(db(), team(), { senders: [s1.uuid, s2.uuid], nodes: visitThenEnd });
    const rows = await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    await h.run(allDone(rows.map((r) => r.uuid)));
    const assigned = await db()
      .selectFrom('flow_leads')
      .select(['lead_uuid', 'sender_profile_uuid'])
      .where('flow_uuid', '=', flow.uuid)
      .execute();
    const senderOf = new Map(assigned.map((r) => [r.lead_uuid, r.sender_profile_uuid]));
    expect(senderOf.get(leads[0]!.uuid)).toBe(s2.uuid);
    const counts = [s1.uuid, s2.uuid].map((s) => assigned.filter((r) => r.sender_profile_uuid === s).length);
    expect(counts.sort()).toEqual([3, 3]);
  });

  it('parks a sender without a seat and resumes when a sandbox seat is created', async () => {
    const sender = await makeSender(db(), team());
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: visitThenEnd });
    const [lead] = await makeContacts(db(), team(), 1, 'Seatless');
    const [row] = await enroll(db(), team(), flow, [lead!.uuid], { at: h.clock.now() });
    await h.run(undefined, { maxTicks: 4 });
    expect(
      await db()
        .selectFrom('flow_leads')
        .select(['status', 'reason'])
        .where('uuid', '=', row!.uuid)
        .executeTakeFirst(),
    ).toEqual({
      status: 'paused',
      reason: 'no_linkedin_seat',
    });
    const seat = await h.ctx.request(h.user, {
      method: 'POST',
      url: '/browsers/api/linkedin-browsers',
      payload: { sender_profile_uuid: sender.uuid, driver: 'sandbox' },
    });
    expect(seat.statusCode).toBe(201);
    expect(seat.json()).toMatchObject({ driver: 'sandbox', status: 'running' });
    await h.run(allDone([row!.uuid]));
    expect(await actionsOf(sender.uuid)).toHaveLength(1);
  });
  it('waits while someone holds the seat’s live view, without parking or failing anything', async () => {
    const sender = await senderWithSeat();
    const leaseEnd = new Date(h.clock.now().getTime() + 30 * 60_000);
    await db()
      .updateTable('linkedin_browsers')
      .set({ viewer_lease_until: leaseEnd })
      .where('team_id', '=', team())
      .where('sender_profile_uuid', '=', sender.uuid)
      .execute();
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: visitThenEnd });
    const [lead] = await makeContacts(db(), team(), 1, 'Watched');
    const [row] = await enroll(db(), team(), flow, [lead!.uuid], { at: h.clock.now() });
    await h.run(undefined, { maxTicks: 8, stepMs: 60_000 }); // at most 8 minutes of the half hour
    expect(h.clock.now() < leaseEnd).toBe(true);
    expect(await actionsOf(sender.uuid)).toEqual([]);
    expect(
      await db()
        .selectFrom('flow_leads')
        .select(['status', 'reason'])
        .where('uuid', '=', row!.uuid)
        .executeTakeFirst(),
    ).toEqual({ status: 'in_progress', reason: null });
    await h.run(allDone([row!.uuid]));
    const actions = await actionsOf(sender.uuid);
    expect(actions).toHaveLength(1);
    expect(actions[0]!.performed_at.getTime()).toBeGreaterThanOrEqual(leaseEnd.getTime());
  });
});
