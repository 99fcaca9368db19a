// A sender's day on New York's spring-forward Sunday (2026-03-08, 23 hours long): its window, its tasks
// at their local times on both sides of the change, and its capacity under the warm-up ramp and the
// rolling-week cap.
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { createSender, insertTasks } from './tasks.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let sender: string;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
  sender = (
    await createSender(ctx, alice, {
      schedule: {
        timezone: 'America/New_York',
        use_lead_timezone: false,
        timeblocks: [0, 1, 2, 3, 4, 5, 6].map((dow) => ({ dow, min: 60, max: 600 })),
      },
      smart_limits_enabled: true,
      weekly_limits: { linkedin_send_connection_request: 6 },
    })
  ).uuid;
  // Created on 2026-03-01 local: the 8th is warm-up day 7 (half the daily limits).
  await sql`update sender_profiles set created_at = '2026-03-01T15:00:00Z' where uuid = ${sender}`.execute(
    ctx.db,
  );
  const done = (type: string, iso: string) => ({
    sender_profile_uuid: sender,
    type,
    status: 'closed' as const,
    taken_to_execute_at: at(iso),
    executed_at: at(iso),
  });
  await insertTasks(ctx, alice.teamId, [
    done('linkedin_send_message', '2026-03-08T06:15:00Z'), // 01:15 EST
    done('linkedin_send_connection_request', '2026-03-08T07:30:00Z'), // 03:30 EDT
    done('linkedin_send_connection_request', '2026-03-09T03:59:00Z'), // 23:59 EDT, still the 8th
    done('linkedin_send_connection_request', '2026-03-08T04:30:00Z'), // 23:30 EST on the 7th
    done('linkedin_send_connection_request', '2026-03-03T15:00:00Z'), // earlier this week
    done('linkedin_send_connection_request', '2026-03-01T15:00:00Z'), // more than 6 days before
    {
      sender_profile_uuid: sender,
      type: 'linkedin_send_connection_request',
      schedule_at: at('2026-03-08T13:00:00Z'), // 09:00 EDT, planned
    },
    {
      sender_profile_uuid: sender,
      type: 'linkedin_send_message',
      automation: 'manual',
      schedule_at: at('2026-03-08T14:30:00Z'), // a to-do for the afternoon
    },
    { sender_profile_uuid: newId(), schedule_at: at('2026-03-08T13:00:00Z') }, // another sender
  ]);
});
afterAll(() => ctx.close());

const day = (query: string, user = alice) =>
  ctx.request(user, { method: 'GET', url: `/flows/api/tasks/schedule${query}` });

describe('GET /flows/api/tasks/schedule', () => {
  it('shows the sender\u2019s day across the DST change', async () => {
    const res = await day(`?sender_profile_uuid=${sender}&date=2026-03-08`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      sender_profile_uuid: sender,
      date: '2026-03-08',
      timezone: 'America/New_York',
      status: 'enabled',
      day: { start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' },
      windows: [
        {
          start: '2026-03-08T06:00:00.000Z',
          end: '2026-03-08T14:00:00.000Z',
          local_start: '2026-03-08T01:00:00-05:00',
          local_end: '2026-03-08T10:00:00-04:00',
        },
      ],
      warm_up: { smart_limits_enabled: true, day: 7, share: 0.5 },
    });
    expect(
      body.tasks.map((t: { local_time: string; state: string; type: string }) => [
        t.local_time,
        t.state,
        t.type,
      ]),
    ).toEqual([
      ['2026-03-08T01:15:00-05:00', 'done', 'linkedin_send_message'],
      ['2026-03-08T03:30:00-04:00', 'done', 'linkedin_send_connection_request'],
      ['2026-03-08T09:00:00-04:00', 'planned', 'linkedin_send_connection_request'],
      ['2026-03-08T10:30:00-04:00', 'planned', 'linkedin_send_message'],
      ['2026-03-08T23:59:00-04:00', 'done', 'linkedin_send_connection_request'],
    ]);
    expect(body.tasks_truncated).toBe(false);
  });

  it('gives each action type\u2019s limit, usage and what is left', async () => {
    const body = (await day(`?sender_profile_uuid=${sender}&date=2026-03-08`)).json();
    expect(body.capacity.linkedin_send_connection_request).toEqual({
      daily_limit: 10, // half of 20 in warm-up week two
      weekly_limit: 6,
      used: 2,
      used_this_week: 4, // the 2nd..8th: two today, one on the 3rd, one late on the 7th
      planned: 1,
      remaining: 2, // the week's cap binds before the day's
    });
    expect(body.capacity.linkedin_send_message).toEqual({
      daily_limit: 20,
      weekly_limit: null,
      used: 1,
      used_this_week: null,
      planned: 1,
      remaining: 19,
    });
    expect(body.capacity.email_send_message).toMatchObject({ daily_limit: 20, used: 0, remaining: 20 });
  });

  it('has no window on a day the schedule is closed and full limits after the ramp', async () => {
    await ctx.db
      .updateTable('sender_profiles')
      .set({
        schedule: JSON.stringify({ timezone: 'America/New_York', use_lead_timezone: false, timeblocks: [] }),
      })
      .where('uuid', '=', sender)
      .execute();
    const body = (await day(`?sender_profile_uuid=${sender}&date=2026-04-01`)).json();
    expect(body.windows).toEqual([]);
    expect(body.warm_up.share).toBe(1);
    expect(body.capacity.linkedin_send_connection_request.daily_limit).toBe(20);
    expect(body.tasks).toEqual([]);
  });

  it('without a sender answers every sender\u2019s day, and without a date today in each zone', async () => {
    const other = (await createSender(ctx, alice, {})).uuid;
    const team = await day('?date=2026-03-08');
    expect(team.statusCode, team.body).toBe(200);
    expect(team.json().truncated).toBe(false);
    expect(team.json().data.map((d: { sender_profile_uuid: string }) => d.sender_profile_uuid)).toEqual([
      sender,
      other,
    ]);
    expect(team.json().data[0]).toEqual((await day(`?sender_profile_uuid=${sender}&date=2026-03-08`)).json());
    const today = await day(`?sender_profile_uuid=${sender}`);
    expect(today.statusCode).toBe(200);
    expect(today.json().date).toBe(DateTime.now().setZone('America/New_York').toISODate());
    const bare = await day('');
    expect(bare.statusCode).toBe(200);
    expect(bare.json().data).toHaveLength(2);
    expect((await day('', bob)).json()).toEqual({ data: [], truncated: false });
    const badDate = await day(`?sender_profile_uuid=${sender}&date=2026-02-30`);
    expect(badDate.statusCode).toBe(422);
  });

  it('answers 404 for another team\u2019s sender', async () => {
    expect((await day(`?sender_profile_uuid=${sender}&date=2026-03-08`, bob)).statusCode).toBe(404);
  });
});
