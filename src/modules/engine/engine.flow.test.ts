// The engine end to end on a fake clock: real database, the sandbox LinkedIn network as the channel,
// one flow shape per test.
import { sql } from 'kysely';
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
import { newId } from '../../lib/ids.js';
import { releaseHolds } from '../enrollments/enrollment-signals.js';

let h: EngineHarness;
let senderUuid: string;

beforeAll(async () => {
  h = await createEngineHarness({ env: { LEADFLOW_SANDBOX_REPLY_RATE: '1' } });
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  senderUuid = sender.uuid;
});
afterAll(() => h.close());

const db = () => h.ctx.db;
const team = () => h.user.teamId;

async function enrollment(uuid: string) {
  return db().selectFrom('flow_leads').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
}

async function tasksOf(flowLeadUuid: string) {
  return db()
    .selectFrom('tasks')
    .select(['type', 'status', 'fork_result', 'step', 'automation_error_code'])
    .where('flow_lead_uuid', '=', flowLeadUuid)
    .orderBy('step')
    .execute();
}

/** A flow with `nodes`, `count` fresh contacts enrolled now; returns the enrollments. */
async function start(nodes: NodeSpec[], count = 1, name = 'Lead') {
  const flow = await makeFlow(db(), team(), { senders: [senderUuid], nodes });
  const leads = await makeContacts(db(), team(), count, name);
  const rows = await enroll(
    db(),
    team(),
    flow,
    leads.map((l) => l.uuid),
    { at: h.clock.now() },
  );
  return { flow, leads, rows };
}

const settled = (uuids: string[]) => async () => {
  const live = await db()
    .selectFrom('flow_leads')
    .select('uuid')
    .where('uuid', 'in', uuids)
    .where('status', 'in', ['in_progress', 'paused'])
    .execute();
  return live.length === 0;
};

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

  it('splits an A/B test by its weights, deterministically per enrollment', async () => {
    const { rows } = await start(
      [
        {
          id: 1,
          type: 'rule_ab_test',
          payload: {
            branches: [
              { branch_id: 1, value: 30, is_enabled: true },
              { branch_id: 2, value: 70, is_enabled: true },
            ],
          },
          next: { 1: 2, 2: 3 },
        },
        { id: 2, type: 'end' },
        { id: 3, type: 'end' },
      ],
      400,
      'Ab',
    );
    await h.run(settled(rows.map((r) => r.uuid)));
    const forks = await sql<{ fork: number; n: number }>`
      select fork_result as fork, count(*)::int as n from tasks
      where team_id = ${team()} and type = 'rule_ab_test' and flow_lead_uuid = any(${rows.map((r) => r.uuid)}::uuid[])
      group by 1 order by 1
    `.execute(db());
    const [a, b] = forks.rows;
    expect(a!.n + b!.n).toBe(400);
    // 30% of 400 = 120; a binomial 99.9% band is about +-30.
    expect(a!.n).toBeGreaterThan(90);
    expect(a!.n).toBeLessThan(150);
    // Every enrollment went to the end node of its branch.
    const ends = await sql<{ node: number; n: number }>`
      select flow_node_id as node, count(*)::int as n from flow_leads
      where uuid = any(${rows.map((r) => r.uuid)}::uuid[]) group by 1 order by 1
    `.execute(db());
    expect(ends.rows).toEqual([
      { node: 2, n: a!.n },
      { node: 3, n: b!.n },
    ]);
  });

  it('branches on a contact filter and a json_logic rule at the moment it runs, and tags the contact', async () => {
    const tag = await db()
      .insertInto('tags')
      .values({ team_id: team(), uuid: newId(), name: 'VIP' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const marked = await db()
      .insertInto('tags')
      .values({ team_id: team(), uuid: newId(), name: 'Seen by flow' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const { rows, leads } = await start(
      [
        {
          id: 1,
          type: 'rule_filter',
          payload: {
            branches: [
              {
                branch_id: 1,
                filters: {
                  mass_actions_filter: { tags: [tag.uuid] },
                  json_logic: { '!=': [{ var: 'first_name' }, 'Fil2'] },
                },
              },
              { branch_id: 0 },
            ],
          },
          next: { 1: 2, 0: 3 },
        },
        { id: 2, type: 'gs_add_tag', payload: { tag_uuid: marked.uuid }, next: { 1: 3 } },
        { id: 3, type: 'end' },
      ],
      3,
      'Fil',
    );
    // Fil0 and Fil2 are VIPs; Fil2 is excluded by the json_logic rule.
    await db()
      .updateTable('leads')
      .set({ tags: [tag.uuid] })
      .where('uuid', 'in', [leads[0]!.uuid, leads[2]!.uuid])
      .execute();
    await h.run(settled(rows.map((r) => r.uuid)));
    const forks = await Promise.all(rows.map(async (r) => (await tasksOf(r.uuid))[0]!.fork_result));
    expect(forks).toEqual([1, 0, 0]);
    const tagged = await db()
      .selectFrom('leads')
      .select(['first_name', 'tags'])
      .where(
        'uuid',
        'in',
        leads.map((l) => l.uuid),
      )
      .orderBy('first_name')
      .execute();
    expect(tagged.map((l) => l.tags.includes(marked.uuid))).toEqual([true, false, false]);
  });

  it('holds a contact at util_hodor until released, then moves on', async () => {
    const { rows } = await start(
      [
        { id: 1, type: 'util_hodor', payload: { is_open: 0 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
      1,
      'Hold',
    );
    await h.run(undefined, { maxTicks: 5 });
    expect(await enrollment(rows[0]!.uuid)).toMatchObject({
      status: 'in_progress',
      flow_node_id: 1,
      next_run_at: null,
    });
    expect(await releaseHolds(db(), team(), { uuids: [rows[0]!.uuid] }, h.clock.now())).toBe(1);
    await h.run(settled([rows[0]!.uuid]));
    expect((await tasksOf(rows[0]!.uuid)).map((t) => [t.type, t.status])).toEqual([
      ['util_hodor', 'closed'],
      ['end', 'closed'],
    ]);
  });

  it('skips nodes whose outside service is not configured, without stranding the contact', async () => {
    const { rows } = await start(
      [
        { id: 1, type: 'integration_export_to_crm', payload: { integration_uuid: newId() }, next: { 1: 2 } },
        { id: 2, type: 'email_search_waterflow', payload: { waterflow_sequence: [] }, next: { 1: 3, 2: 3 } },
        { id: 3, type: 'phone_call_phone', payload: { note: 'Call them' }, next: { 1: 4 } },
        { id: 4, type: 'end' },
      ],
      1,
      'Skip',
    );
    await h.run(settled([rows[0]!.uuid]));
    const tasks = await db()
      .selectFrom('tasks')
      .select(['type', 'status', 'automation', 'fork_result'])
      .where('flow_lead_uuid', '=', rows[0]!.uuid)
      .orderBy('step')
      .execute();
    expect(tasks).toEqual([
      { type: 'integration_export_to_crm', status: 'skipped', automation: 'auto', fork_result: null },
      { type: 'email_search_waterflow', status: 'closed', automation: 'auto', fork_result: 1 },
      // A to-do for a person; the contact did not wait for it.
      { type: 'phone_call_phone', status: 'in_progress', automation: 'manual', fork_result: null },
      { type: 'end', status: 'closed', automation: 'auto', fork_result: null },
    ]);
  });

  it('ends enrollments whose contact was deleted or blacklisted', async () => {
    const { rows, leads } = await start(
      [
        { id: 1, type: 'util_timer', payload: { wait_time: 600 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
      2,
      'Gone',
    );
    await h.run(undefined, { maxTicks: 2 });
    await db()
      .updateTable('leads')
      .set({ is_blacklisted: true })
      .where('uuid', '=', leads[0]!.uuid)
      .execute();
    await db().deleteFrom('leads').where('uuid', '=', leads[1]!.uuid).execute();
    await h.run(settled(rows.map((r) => r.uuid)));
    expect((await enrollment(rows[0]!.uuid)).reason).toBe('blacklisted');
    expect((await enrollment(rows[1]!.uuid)).reason).toBe('contact_deleted');
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

  it('waits at a manual router until a person completes its to-do with the branch to take', async () => {
    const { rows } = await start(
      [
        {
          id: 1,
          type: 'rule_manual_router',
          payload: {
            branches: [
              { branch_id: 1, name: 'Call' },
              { branch_id: 2, name: 'Skip' },
            ],
            note: 'Decide',
          },
          next: { 1: 2, 2: 3 },
        },
        { id: 2, type: 'end' },
        { id: 3, type: 'end' },
      ],
      1,
      'Router',
    );
    await h.run(undefined, { maxTicks: 3 });
    const todo = await db()
      .selectFrom('tasks')
      .select(['uuid', 'automation', 'status'])
      .where('flow_lead_uuid', '=', rows[0]!.uuid)
      .executeTakeFirstOrThrow();
    expect(todo).toMatchObject({ automation: 'manual', status: 'in_progress' });
    const wrong = await h.ctx.request(h.user, {
      method: 'PUT',
      url: `/flows/api/tasks/${todo.uuid}/complete`,
      payload: { fork_result: 7 },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toContain('1, 2');
    const done = await h.ctx.request(h.user, {
      method: 'PUT',
      url: `/flows/api/tasks/${todo.uuid}/complete`,
      payload: { fork_result: 2 },
    });
    expect(done.statusCode).toBe(200);
    // The API woke the enrollment with the database clock: bring the engine's clock there.
    h.clock.set(new Date(Math.max(h.clock.now().getTime(), Date.now() + 1000)));
    await h.run(settled([rows[0]!.uuid]));
    expect(await enrollment(rows[0]!.uuid)).toMatchObject({ status: 'finished', flow_node_id: 3 });
  });
});
