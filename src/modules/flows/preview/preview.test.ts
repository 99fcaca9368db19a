// The preview against the engine: what POST /flows/{uuid}/preview predicts for a flow is what the
// engine then does with the same contacts on the sandbox network over the same simulated days.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
  type NodeSpec,
} from '../../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../../test/engine-harness.js';
import { newId } from '../../../lib/ids.js';
import type { Schedule } from '../../../lib/schedule.js';
import { localDate } from '../../../lib/schedule.js';

const START = new Date('2026-06-01T07:00:00Z'); // a Monday
const DAYS = 5;
const officeHours = (timezone: string): Schedule => ({
  timezone,
  use_lead_timezone: false,
  timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1020 })),
});

const NODES: NodeSpec[] = [
  {
    id: 1,
    type: 'linkedin_send_connection_request',
    payload: { template: 'Hi {{first_name}}!' },
    next: { 1: 2 },
  },
  {
    id: 2,
    type: 'trigger_linkedin_connection_request_accepted',
    payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 2 * 86_400 } }] },
    next: { 1: 3, 2: 7 },
  },
  {
    id: 3,
    type: 'linkedin_send_message',
    payload: { template: 'Thanks for connecting, {{first_name}}.' },
    delay_in_seconds: 3600,
    next: { 1: 4 },
  },
  {
    id: 4,
    type: 'trigger_message_replied',
    payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 86_400 } }] },
    next: { 1: 7, 2: 5 },
  },
  {
    id: 5,
    type: 'linkedin_send_message',
    payload: { template: 'Any thoughts, {{first_name}}?' },
    next: { 1: 7 },
  },
  { id: 7, type: 'end' },
];

let h: EngineHarness;
beforeAll(async () => {
  h = await createEngineHarness({
    start: START,
    env: {
      LEADFLOW_SANDBOX_ACCEPT_RATE: '0.6',
      LEADFLOW_SANDBOX_REPLY_RATE: '0.4',
      LEADFLOW_SANDBOX_MIN_RESPONSE_SECONDS: '600',
      LEADFLOW_SANDBOX_MAX_RESPONSE_SECONDS: '14400',
    },
  });
});
afterAll(() => h.close());

async function setup(name = 'Pat') {
  const { db } = h.ctx;
  const teamId = h.user.teamId;
  const sender = await makeSender(db, teamId, {
    schedule: officeHours('Europe/Berlin'),
    limits: { linkedin_send_connection_request: 8, linkedin_send_message: 6 },
    action_interval_seconds: 300,
  });
  await makeSandboxSeat(db, teamId, sender.uuid);
  const flow = await makeFlow(db, teamId, { nodes: NODES, senders: [sender.uuid], useSenderSchedule: true });
  const leads = await makeContacts(db, teamId, 24, name);
  return { sender, flow, leads };
}

/** Drives the engine from START for DAYS days, as the simulation does (bench/simulation.ts). */
async function runEngine() {
  const end = START.getTime() + DAYS * 86_400_000;
  while (h.clock.now().getTime() < end) {
    const result = await h.engine.tick();
    if (result.claimed + result.actions + result.answers + result.reconciled > 0) continue;
    const next = (await h.engine.nextWakeAt())?.getTime() ?? end;
    const now = h.clock.now().getTime();
    h.clock.set(new Date(Math.min(end, Math.max(now + 1000, next))));
  }
}

describe('POST /flows/api/flows/{uuid}/preview', () => {
  it('predicts what the engine then does on the sandbox, day by day, without touching anything', async () => {
    const { sender, flow, leads } = await setup();
    const contacts = leads.map((l) => l.uuid);
    const res = await h.ctx.request(h.user, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/preview`,
      payload: { contacts, days: DAYS, start_at: START.toISOString(), detail: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview.complete).toBe(true);
    expect(preview.contacts).toMatchObject({ total: 24, source: 'contacts' });
    // Nothing was written: no enrollment, task or network action.
    const written = await sql<{ n: number }>`
      select (select count(*) from flow_leads where team_id = ${h.user.teamId})
        + (select count(*) from tasks where team_id = ${h.user.teamId})
        + (select count(*) from sandbox_linkedin_actions where team_id = ${h.user.teamId}) as n`.execute(
      h.ctx.db,
    );
    expect(Number(written.rows[0]?.n)).toBe(0);

    // The same contacts enter at START and the engine runs the same days.
    await h.ctx.db
      .insertInto('flow_leads')
      .values(
        contacts.map((lead) => ({
          team_id: h.user.teamId,
          uuid: newId(),
          flow_uuid: flow.uuid,
          flow_version_uuid: flow.versionUuid,
          lead_uuid: lead,
          contact_source_id: 1,
          status: 'in_progress' as const,
          flow_node_id: 1,
          next_run_at: START,
          flow_active: true,
          started_at: START,
        })),
      )
      .execute();
    await runEngine();

    const done = await h.ctx.db
      .selectFrom('sandbox_linkedin_actions')
      .select(['action', 'performed_at', 'lead_uuid', 'text'])
      .where('team_id', '=', h.user.teamId)
      .execute();
    const perDay: Record<string, Record<string, number>> = {};
    for (const a of done) {
      const day = localDate(a.performed_at, 'Europe/Berlin');
      perDay[day] = perDay[day] ?? {};
      perDay[day][a.action] = (perDay[day][a.action] ?? 0) + 1;
    }
    const predicted = Object.fromEntries(
      (preview.senders[0].days as Array<{ date: string; actions: Record<string, number> }>)
        .filter((d) => Object.keys(d.actions).length > 0)
        .map((d) => [d.date, d.actions]),
    );
    expect(preview.senders[0].uuid).toBe(sender.uuid);
    expect(predicted).toEqual(perDay);
    // Limits shown are the sender's; invitations waited on them on the first days.
    expect(preview.senders[0].days[0].limits.linkedin_send_connection_request).toBe(8);
    expect(preview.senders[0].days[0].waiting_on_limits).toBeGreaterThan(0);

    const statuses = await sql<{ status: string; n: number }>`
      select status || coalesce(':' || reason, '') as status, count(*)::int as n from flow_leads
      where team_id = ${h.user.teamId} group by 1`.execute(h.ctx.db);
    const predictedStatuses: Record<string, number> = {};
    for (const [status, n] of Object.entries(preview.totals.statuses as Record<string, number>))
      if (status === 'in_progress') predictedStatuses[status] = n;
    const actual = Object.fromEntries(statuses.rows.map((r) => [r.status, r.n]));
    expect(actual.in_progress ?? 0).toBe(predictedStatuses.in_progress ?? 0);
    expect(actual['finished:replied'] ?? 0).toBe(preview.totals.reasons.replied ?? 0);
    expect(actual['finished:completed'] ?? 0).toBe(preview.totals.reasons.completed ?? 0);

    // Rendered texts are the engine's: the first contact's invitation went out as previewed.
    const first = preview.enrollments[0];
    const sent = done.find(
      (a) => a.lead_uuid === first.lead_uuid && a.action === 'linkedin_send_connection_request',
    );
    expect(first.steps[0]).toMatchObject({ node_id: 1, status: 'closed', text: sent?.text });
    const node1 = preview.nodes.find((n: { id: number }) => n.id === 1);
    expect(node1.reached).toBe(24);
  }, 120_000);

  it('validates a draft like a save, bounds its input and stays within the team', async () => {
    const { flow } = await setup('Kim');
    const bad = await h.ctx.request(h.user, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/preview`,
      payload: {
        version: {
          nodes: [{ id: 1, type: 'linkedin_send_message', before: [], after: [], payload: {} }],
          contact_sources: [{ id: 1, sender_profiles: [], after_id: 1 }],
        },
        sample: 5,
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/nodes/);
    const tooMany = await h.ctx.request(h.user, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/preview`,
      payload: { days: 91 },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.body).toMatch(/days/);
    const other = await h.ctx.createUser();
    const foreign = await h.ctx.request(other, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/preview`,
      payload: {},
    });
    expect(foreign.statusCode).toBe(404);
    const unknownContact = await h.ctx.request(h.user, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/preview`,
      payload: { contacts: [newId()] },
    });
    expect(unknownContact.statusCode).toBe(422);
    expect(unknownContact.body).toMatch(/contacts/);
  });
});
