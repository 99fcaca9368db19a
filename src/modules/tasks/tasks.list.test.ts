// The task list: every filter key with its operators, flat parameters, exact totals (from the count
// deltas or from rows), ordering and team isolation.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { insertTasks } from './tasks.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const flowA = newId();
const flowB = newId();
const senderA = newId();
const senderB = newId();
const lead = newId();
let all: string[];

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
  // 40 tasks: flows A/B (and manual to-dos), two senders, three types, every status, executed on
  // 2026-03-01..05 or not yet; inserted in several statements so the deltas have many rows.
  const seeds = Array.from({ length: 40 }, (_, i) => {
    const manual = i % 10 === 0;
    return {
      flow_uuid: manual ? null : i % 2 ? flowA : flowB,
      flow_node_id: manual ? null : (i % 3) + 2,
      automation: (manual ? 'manual' : 'auto') as 'manual' | 'auto',
      sender_profile_uuid: i % 4 < 2 ? senderA : senderB,
      type: ['linkedin_send_message', 'linkedin_send_connection_request', 'email_send_message'][i % 3]!,
      status: (['in_progress', 'closed', 'failed', 'skipped', 'canceled'] as const)[i % 5],
      lead_uuid: i === 7 ? lead : newId(),
      executed_at: i % 5 === 1 ? new Date(`2026-03-0${(i % 5) + (i % 4)}T12:00:00Z`) : null,
      schedule_at: new Date(Date.UTC(2026, 2, 1 + (i % 7), 9)),
      created_at: new Date(Date.UTC(2026, 1, 1, 0, i)),
    };
  });
  all = [];
  for (let i = 0; i < seeds.length; i += 8)
    all.push(...(await insertTasks(ctx, alice.teamId, seeds.slice(i, i + 8))));
  await insertTasks(ctx, bob.teamId, [{ flow_uuid: flowA }, { flow_uuid: flowA }]);
  await ctx.db.updateTable('tasks').set({ status: 'failed' }).where('uuid', '=', all[5]!).execute();
  await ctx.db.updateTable('tasks').set({ status: 'closed' }).where('uuid', '=', all[5]!).execute();
});
afterAll(() => ctx.close());

async function list(query: string, user = alice) {
  const res = await ctx.request(user, { method: 'GET', url: `/flows/api/tasks${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<Record<string, unknown>>; total: number; has_more: boolean };
}

/** The uuids of alice's tasks matching `where`, by SQL, for comparison. */
async function expected(where: ReturnType<typeof sql>) {
  const { rows } = await sql<{ uuid: string }>`
    select uuid from tasks where team_id = ${alice.teamId} and ${where} order by created_at desc, uuid desc`.execute(
    ctx.db,
  );
  return rows.map((row) => row.uuid);
}

async function check(query: string, where: ReturnType<typeof sql>) {
  const page = await list(`${query}${query.includes('?') ? '&' : '?'}limit=100`);
  const uuids = await expected(where);
  expect(uuids.length, query).toBeGreaterThan(0);
  expect(
    page.data.map((task) => task.uuid),
    query,
  ).toEqual(uuids);
  expect(page.total, query).toBe(uuids.length);
}

describe('GET /flows/api/tasks', () => {
  it('lists the team\u2019s tasks newest first with an exact total', async () => {
    const page = await list('?limit=5');
    expect(page.total).toBe(40);
    expect(page.has_more).toBe(true);
    expect(page.data.map((t) => t.uuid)).toEqual((await expected(sql`true`)).slice(0, 5));
    expect(Object.keys(page.data[0]!)).toEqual(
      expect.arrayContaining(['uuid', 'flow_lead_uuid', 'taken_to_execute_at', 'automation_error_code']),
    );
    expect(page.data[0]).not.toHaveProperty('remote_ref');
  });

  it('filters by every key, counted from deltas or rows', async () => {
    await check(`?filter[flow_uuid]=${flowA}`, sql`flow_uuid = ${flowA}`);
    await check(
      `?filter[flow_uuid]=${flowA}&filter[status]=failed`,
      sql`flow_uuid = ${flowA} and status = 'failed'`,
    );
    await check(`?filter[type]=email_send_message`, sql`type = 'email_send_message'`);
    await check('?filter[automation]=manual', sql`automation = 'manual'`);
    await check(`?filter[sender_profile_uuid]=${senderB}`, sql`sender_profile_uuid = ${senderB}`);
    await check(
      `?filter[flow_uuid]=${flowB}&filter[flow_node_id]=3`,
      sql`flow_uuid = ${flowB} and flow_node_id = 3`,
    );
    await check(`?filter[lead_uuid]=${lead}`, sql`lead_uuid = ${lead}`);
    await check('?filter[executed_at]=is_not_null', sql`executed_at is not null`);
    await check('?filter[flow_uuid]=is_null', sql`flow_uuid is null`);
  });

  it('takes lists and comparison operators', async () => {
    await check('?filter[status][]=failed&filter[status][]=skipped', sql`status in ('failed', 'skipped')`);
    await check('?filter[status][!=]=in_progress', sql`status <> 'in_progress'`);
    await check('?filter[flow_node_id][>=]=3', sql`flow_node_id >= 3`);
    await check('?filter[flow_node_id][<]=3', sql`flow_node_id < 3`);
    await check(
      '?filter[executed_at][>=]=2026-03-02&filter[executed_at][<=]=2026-03-03',
      sql`executed_at >= '2026-03-02' and executed_at < '2026-03-04'`,
    );
    await check(
      `?filter[sender_profile_uuid]=${senderA}&filter[executed_at][>]=2026-03-01T00:00:00Z`,
      sql`sender_profile_uuid = ${senderA} and executed_at > '2026-03-01T00:00:00Z'`,
    );
    await check('?filter[schedule_at][<]=2026-03-03', sql`schedule_at < '2026-03-03'`);
  });

  it('filters with flat parameters like their bracket form', async () => {
    await check(`?status=closed&flow_uuid=${flowA}`, sql`status = 'closed' and flow_uuid = ${flowA}`);
  });

  it('refuses range-style keys and bad values with 422 naming the accepted keys', async () => {
    for (const query of ['?filter[executed_at_from]=2026-03-01', '?filter[date_start]=2026-03-01']) {
      const res = await ctx.request(alice, { method: 'GET', url: `/flows/api/tasks${query}` });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().message).toContain('Accepted keys');
      expect(res.json().message).toContain('executed_at');
    }
    const badStatus = await ctx.request(alice, {
      method: 'GET',
      url: '/flows/api/tasks?filter[status]=done',
    });
    expect(badStatus.statusCode).toBe(422);
    expect(badStatus.json().message).toContain('in_progress');
    const badOp = await ctx.request(alice, {
      method: 'GET',
      url: '/flows/api/tasks?filter[executed_at][~]=x',
    });
    expect(badOp.statusCode).toBe(422);
    const badOrder = await ctx.request(alice, { method: 'GET', url: '/flows/api/tasks?order_field=note' });
    expect(badOrder.statusCode).toBe(422);
  });

  it('orders by schedule_at and executed_at', async () => {
    const page = await list('?order_field=schedule_at&order_type=asc&limit=100');
    const times = page.data.map((t) => String(t.schedule_at));
    expect(times).toEqual([...times].sort());
    const executed = await list('?order_field=executed_at&order_type=desc&filter[executed_at]=is_not_null');
    const done = executed.data.map((t) => String(t.executed_at));
    expect(done).toEqual([...done].sort().reverse());
  });

  it('keeps teams apart', async () => {
    const page = await list(`?filter[flow_uuid]=${flowA}`, bob);
    expect(page.total).toBe(2);
    expect(page.data.every((task) => task.team_id === bob.teamId)).toBe(true);
    const other = await ctx.request(bob, { method: 'GET', url: `/flows/api/tasks/${all[0]}` });
    expect(other.statusCode).toBe(404);
  });
});
