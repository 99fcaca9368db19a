// Group-counts equal a recount of the tasks, whether they come from the count deltas or from rows.
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { insertTasks } from './tasks.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const flow = newId();
const sender = newId();

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
  const seeds = Array.from({ length: 60 }, (_, i) => ({
    flow_uuid: i % 6 === 0 ? null : i % 2 ? flow : newId(),
    automation: (i % 6 === 0 ? 'manual' : 'auto') as 'manual' | 'auto',
    sender_profile_uuid: i % 3 ? sender : null,
    type: ['linkedin_send_message', 'linkedin_send_connection_request', 'email_send_message', 'util_timer'][
      i % 4
    ]!,
    status: (['in_progress', 'closed', 'failed', 'skipped', 'canceled'] as const)[i % 5],
    automation_error_code: i % 5 === 2 ? (i % 2 ? 'replied' : 'unknown') : null,
    // Executed at 04:30 UTC, the evening before in New York: day buckets differ by zone.
    executed_at: i % 5 === 1 ? new Date(Date.UTC(2026, 2, 1 + (i % 10), 4, 30)) : null,
  }));
  for (let i = 0; i < seeds.length; i += 10) await insertTasks(ctx, alice.teamId, seeds.slice(i, i + 10));
  await insertTasks(ctx, bob.teamId, [{ flow_uuid: flow, status: 'closed' }]);
  await ctx.db
    .updateTable('tasks')
    .set({ status: 'canceled' })
    .where('team_id', '=', alice.teamId)
    .where('status', '=', 'failed')
    .where('automation', '=', 'manual')
    .execute();
});
afterAll(() => ctx.close());

async function groupCounts(body: Record<string, unknown>, user = alice) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/flows/api/tasks/group-counts',
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, number>;
}

async function recount(key: RawBuilder<unknown>, where: RawBuilder<unknown> = sql`true`) {
  const { rows } = await sql<{ key: string | null; n: number }>`
    select ${key} as key, count(*)::int as n from tasks
    where team_id = ${alice.teamId} and ${where} group by 1 order by 1`.execute(ctx.db);
  return Object.fromEntries(rows.map((row) => [row.key ?? '', row.n]));
}

describe('POST /flows/api/tasks/group-counts', () => {
  it('counts by every dimension, team-wide and within a flow (from the deltas)', async () => {
    for (const field of [
      'status',
      'type',
      'flow_uuid',
      'sender_profile_uuid',
      'automation',
      'automation_error_code',
    ]) {
      expect(await groupCounts({ group_field: field }), field).toEqual(await recount(sql.ref(field)));
    }
    expect(await groupCounts({ group_field: 'status', filter: { flow_uuid: flow } })).toEqual(
      await recount(sql.ref('status'), sql`flow_uuid = ${flow}`),
    );
    expect(
      await groupCounts({
        group_field: 'type',
        filter: { status: ['closed', 'failed'], automation: 'auto' },
      }),
    ).toEqual(await recount(sql.ref('type'), sql`status in ('closed', 'failed') and automation = 'auto'`));
    // Unset values are the key "".
    expect(await groupCounts({ group_field: 'flow_uuid' })).toHaveProperty('');
  });

  it('counts rows when the filter names other keys', async () => {
    expect(
      await groupCounts({ group_field: 'status', filter: { executed_at: { '>=': '2026-03-04' } } }),
    ).toEqual(await recount(sql.ref('status'), sql`executed_at >= '2026-03-04'`));
  });

  it('counts per day, week and month of execution in a time zone', async () => {
    expect(await groupCounts({ group_field: 'day' })).toEqual(
      await recount(sql`to_char(executed_at at time zone 'UTC', 'YYYY-MM-DD')`, sql`executed_at is not null`),
    );
    const newYork = await groupCounts({ group_field: 'day', timezone: 'America/New_York' });
    expect(newYork).toEqual(
      await recount(
        sql`to_char(executed_at at time zone 'America/New_York', 'YYYY-MM-DD')`,
        sql`executed_at is not null`,
      ),
    );
    // The earliest execution, 2026-03-02 04:30 UTC, is still 2026-03-01 in New York.
    expect(Object.keys(newYork)[0]).toBe('2026-03-01');
    expect(Object.keys(await groupCounts({ group_field: 'day' }))[0]).toBe('2026-03-02');
    const weeks = await groupCounts({ group_field: 'week' });
    expect(Object.keys(weeks)).toEqual(['2026-02-23', '2026-03-02', '2026-03-09'].filter((k) => k in weeks));
    expect(Object.values(weeks).reduce((a, b) => a + b, 0)).toBe(12);
    expect(await groupCounts({ group_field: 'month', filter: { flow_uuid: flow } })).toEqual(
      await recount(sql`'2026-03-01'`, sql`executed_at is not null and flow_uuid = ${flow}`),
    );
  });

  it('requires a known group_field and a real time zone, naming them', async () => {
    for (const body of [{}, { group_field: 'colour' }, { group_field: 'day', timezone: 'Mars/Base' }]) {
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/flows/api/tasks/group-counts',
        payload: body,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/group_field|timezone/);
    }
    const badFilter = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/tasks/group-counts',
      payload: { group_field: 'status', filter: { date_start: '2026-01-01' } },
    });
    expect(badFilter.statusCode).toBe(422);
    expect(badFilter.json().message).toContain('Accepted keys');
  });

  it('keeps teams apart', async () => {
    expect(await groupCounts({ group_field: 'status', filter: { flow_uuid: flow } }, bob)).toEqual({
      closed: 1,
    });
  });
});
