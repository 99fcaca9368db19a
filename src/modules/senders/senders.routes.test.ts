import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { defaultSchedule } from '../../lib/schedule.js';
import { DEFAULT_DAILY_LIMITS } from './sender-limits.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
});
afterAll(() => ctx.close());

const PATH = '/flows/api/sender-profiles';

async function createSender(user: TestUser, body: Record<string, unknown> = {}) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: PATH,
    payload: { first_name: 'Jane', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('sender profiles', () => {
  it('creates a profile with safe defaults, the caller as assignee and the team\u2019s time zone', async () => {
    await ctx.db
      .updateTable('users')
      .set({ timezone: 'Europe/Berlin' })
      .where('id', '=', alice.userId)
      .execute();
    const profile = await createSender(alice, { last_name: ' Doe ', label: 'Sales Team - US' });
    expect(profile).toMatchObject({
      team_id: alice.teamId,
      first_name: 'Jane',
      last_name: 'Doe',
      label: 'Sales Team - US',
      assignee_user_id: alice.userId,
      user_id: alice.userId,
      status: 'enabled',
      smart_limits_enabled: false,
      hold_tasks_till: null,
      linkedin_browser_id: null,
      mailbox_uuid: null,
      action_interval_seconds: null,
      limits: DEFAULT_DAILY_LIMITS,
      weekly_limits: { linkedin_send_connection_request: 100 },
    });
    expect(profile.schedule).toEqual(defaultSchedule('Europe/Berlin'));
  });

  it('requires first_name and refuses unknown fields, naming them', async () => {
    const missing = await ctx.request(alice, { method: 'POST', url: PATH, payload: { last_name: 'X' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty('first_name');
    expect(missing.json().message).toContain('first_name');
    const blank = await ctx.request(alice, { method: 'POST', url: PATH, payload: { first_name: '  ' } });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().error.data).toHaveProperty('first_name');
    const unknown = await ctx.request(alice, {
      method: 'POST',
      url: PATH,
      payload: { first_name: 'A', team_id: 5 },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.data).toHaveProperty('team_id');
  });

  it('takes an assignee only from the team', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: PATH,
      payload: { first_name: 'A', assignee_user_id: bob.userId },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('assignee_user_id');
  });

  it('checks schedules, limits and notification addresses', async () => {
    const zone = await ctx.request(alice, {
      method: 'POST',
      url: PATH,
      payload: { first_name: 'A', schedule: { ...defaultSchedule(), timezone: 'Mars/Base' } },
    });
    expect(zone.statusCode).toBe(422);
    expect(zone.json().error.data).toHaveProperty(['schedule.timezone']);
    const tooMany = await ctx.request(alice, {
      method: 'POST',
      url: PATH,
      payload: { first_name: 'A', limits: { linkedin_send_connection_request: 500 } },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(JSON.stringify(tooMany.json().error.data)).toContain('linkedin_send_connection_request');
    const unknownAction = await ctx.request(alice, {
      method: 'POST',
      url: PATH,
      payload: { first_name: 'A', limits: { linkedin_dance: 3 } },
    });
    expect(unknownAction.statusCode).toBe(422);
    expect(JSON.stringify(unknownAction.json().error.data)).toContain('linkedin_dance');
    const email = await ctx.request(alice, {
      method: 'POST',
      url: PATH,
      payload: { first_name: 'A', notification_emails: 'ops@example.test, nope' },
    });
    expect(email.statusCode).toBe(422);
    expect(email.json().error.data).toHaveProperty('notification_emails');
    const listed = await createSender(alice, { notification_emails: ['a@example.test', 'b@example.test'] });
    expect(listed.notification_emails).toBe('a@example.test, b@example.test');
  });

  it('updates only what is sent and merges limits key by key', async () => {
    const profile = await createSender(alice, {
      limits: { linkedin_send_message: 30, linkedin_send_inmail: 5 },
      weekly_limits: { linkedin_send_connection_request: 80 },
      smart_limits_enabled: true,
    });
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: `${PATH}/${profile.uuid}`,
      payload: { label: 'EU', limits: { linkedin_send_inmail: null, email_send_message: 25 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated.label).toBe('EU');
    expect(updated.first_name).toBe('Jane');
    expect(updated.smart_limits_enabled).toBe(true);
    expect(updated.limits).toMatchObject({
      linkedin_send_message: 30,
      linkedin_send_inmail: DEFAULT_DAILY_LIMITS.linkedin_send_inmail,
      email_send_message: 25,
    });
    expect(updated.weekly_limits.linkedin_send_connection_request).toBe(80);
    const stored = await ctx.db
      .selectFrom('sender_profiles')
      .select('limits')
      .where('uuid', '=', profile.uuid)
      .executeTakeFirstOrThrow();
    expect(stored.limits).toEqual({ linkedin_send_message: 30, email_send_message: 25 });
  });

  it('enables and disables', async () => {
    const profile = await createSender(alice);
    const off = await ctx.request(alice, { method: 'PUT', url: `${PATH}/${profile.uuid}/disable` });
    expect(off.statusCode).toBe(200);
    expect(off.json().status).toBe('disabled');
    const list = await ctx.request(alice, { method: 'GET', url: `${PATH}?filter[status]=disabled` });
    expect(list.json().data.map((p: { uuid: string }) => p.uuid)).toEqual([profile.uuid]);
    const on = await ctx.request(alice, { method: 'PUT', url: `${PATH}/${profile.uuid}/enable` });
    expect(on.json().status).toBe('enabled');
  });

  it('lists with the envelope, filter[q] and flat parameters', async () => {
    await createSender(alice, { first_name: 'Zelda', label: 'Needle' });
    const byQ = await ctx.request(alice, { method: 'GET', url: `${PATH}?filter[q]=needl` });
    expect(byQ.statusCode).toBe(200);
    expect(byQ.json()).toMatchObject({ total: 1, limit: 20, offset: 0, has_more: false });
    expect(byQ.json().data[0].first_name).toBe('Zelda');
    const flat = await ctx.request(alice, { method: 'GET', url: `${PATH}?q=zeld` });
    expect(flat.json().total).toBe(1);
    const badKey = await ctx.request(alice, { method: 'GET', url: `${PATH}?filter[nickname]=x` });
    expect(badKey.statusCode).toBe(422);
    expect(badKey.json().message).toContain('Accepted keys');
    const paged = await ctx.request(alice, {
      method: 'GET',
      url: `${PATH}?limit=1&order_field=first_name&order_type=asc`,
    });
    expect(paged.json().data).toHaveLength(1);
    expect(paged.json().has_more).toBe(true);
  });

  it('keeps teams apart', async () => {
    const profile = await createSender(alice);
    for (const [method, url] of [
      ['GET', `${PATH}/${profile.uuid}`],
      ['PUT', `${PATH}/${profile.uuid}`],
      ['PUT', `${PATH}/${profile.uuid}/disable`],
      ['DELETE', `${PATH}/${profile.uuid}`],
    ] as const) {
      const res = await ctx.request(bob, { method, url, ...(method === 'PUT' ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await ctx.request(bob, { method: 'GET', url: PATH });
    expect(list.json().total).toBe(0);
  });
});

describe('deleting a sender profile', () => {
  async function flowWithSources(sources: Array<{ id: number; sender_profiles: string[] }>) {
    const flow = newId();
    const version = newId();
    await ctx.db
      .insertInto('flows')
      .values({
        team_id: alice.teamId,
        uuid: flow,
        name: 'Flow',
        flow_version_uuid: version,
        schedule: JSON.stringify(defaultSchedule()),
        settings: '{}',
      })
      .execute();
    await ctx.db
      .insertInto('flow_versions')
      .values({
        team_id: alice.teamId,
        uuid: version,
        flow_uuid: flow,
        nodes: '[]',
        contact_sources: JSON.stringify(
          sources.map((s) => ({ rotation_strategy: 'fair', after_id: 2, ...s })),
        ),
      })
      .execute();
    return { flow, version };
  }

  async function enroll(
    flow: { flow: string; version: string },
    sender: string,
    rows: Array<{ source: number; status?: 'in_progress' | 'paused' | 'finished'; reason?: string }>,
  ) {
    const values = rows.map((row) => ({
      team_id: alice.teamId,
      uuid: newId(),
      flow_uuid: flow.flow,
      flow_version_uuid: flow.version,
      lead_uuid: newId(),
      contact_source_id: row.source,
      sender_profile_uuid: sender,
      status: row.status ?? 'in_progress',
      reason: row.reason ?? null,
      flow_node_id: 2,
      next_run_at: row.status === 'paused' ? null : new Date('2030-01-01T00:00:00Z'),
    }));
    await ctx.db.insertInto('flow_leads').values(values).execute();
    return values.map((v) => v.uuid);
  }

  async function enrollment(uuid: string) {
    return ctx.db
      .selectFrom('flow_leads')
      .select(['status', 'reason', 'sender_profile_uuid', 'next_run_at', 'claim_token'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
  }

  it('reassigns where the source has another enabled sender and pauses the rest', async () => {
    const gone = (await createSender(alice)).uuid;
    const other = (await createSender(alice)).uuid;
    const disabled = (await createSender(alice, { status: 'disabled' })).uuid;
    const flow = await flowWithSources([
      { id: 1, sender_profiles: [gone, other] },
      { id: 2, sender_profiles: [gone, disabled] },
      { id: 3, sender_profiles: [gone] },
    ]);
    const [running, waitingForEnable, alone, pausedAlone, finished] = await enroll(flow, gone, [
      { source: 1 },
      { source: 1, status: 'paused', reason: 'sender_disabled' },
      { source: 2 },
      { source: 3, status: 'paused', reason: 'sender_disabled' },
      { source: 1, status: 'finished' },
    ]);
    const task = (flowLead: string | null, extra: Record<string, unknown> = {}) => ({
      team_id: alice.teamId,
      uuid: newId(),
      lead_uuid: newId(),
      flow_uuid: flow.flow,
      flow_lead_uuid: flowLead,
      step: flowLead ? 0 : null,
      sender_profile_uuid: gone,
      type: 'linkedin_send_message',
      automation: (flowLead ? 'auto' : 'manual') as 'auto' | 'manual',
      ...extra,
    });
    const planned = task(running!);
    const handedOver = task(alone!, { taken_to_execute_at: new Date() });
    const todo = task(null);
    await ctx.db.insertInto('tasks').values([planned, handedOver, todo]).execute();

    const res = await ctx.request(alice, { method: 'DELETE', url: `${PATH}/${gone}` });
    expect(res.statusCode).toBe(204);

    const reassigned = await enrollment(running!);
    expect(reassigned).toMatchObject({
      status: 'in_progress',
      reason: null,
      sender_profile_uuid: null,
      claim_token: 1,
    });
    // Due now, so the engine picks another sender at once.
    expect(reassigned.next_run_at!.getTime()).toBeLessThan(new Date('2030-01-01T00:00:00Z').getTime());
    const left = await ctx.db
      .selectFrom('tasks')
      .select('uuid')
      .where('uuid', 'in', [planned.uuid, handedOver.uuid, todo.uuid])
      .execute();
    expect(left.map((row) => row.uuid).sort()).toEqual([handedOver.uuid, todo.uuid].sort());
    const resumed = await enrollment(waitingForEnable!);
    expect(resumed).toMatchObject({ status: 'in_progress', reason: null, sender_profile_uuid: null });
    expect(resumed.next_run_at).not.toBeNull();
    expect(await enrollment(alone!)).toMatchObject({
      status: 'paused',
      reason: 'no_sender',
      sender_profile_uuid: null,
      next_run_at: null,
    });
    expect(await enrollment(pausedAlone!)).toMatchObject({ status: 'paused', reason: 'no_sender' });
    expect(await enrollment(finished!)).toMatchObject({ status: 'finished', sender_profile_uuid: gone });

    const again = await ctx.request(alice, { method: 'GET', url: `${PATH}/${gone}` });
    expect(again.statusCode).toBe(404);
    const twice = await ctx.request(alice, { method: 'DELETE', url: `${PATH}/${gone}` });
    expect(twice.statusCode).toBe(404);
  });

  it('leaves other senders\u2019 enrollments alone', async () => {
    const gone = (await createSender(alice)).uuid;
    const other = (await createSender(alice)).uuid;
    const flow = await flowWithSources([{ id: 1, sender_profiles: [gone, other] }]);
    const [mine] = await enroll(flow, other, [{ source: 1 }]);
    await ctx.request(alice, { method: 'DELETE', url: `${PATH}/${gone}` });
    const { rows } = await sql<{ sender_profile_uuid: string; claim_token: number }>`
      select sender_profile_uuid, claim_token from flow_leads where uuid = ${mine}`.execute(ctx.db);
    expect(rows[0]).toEqual({ sender_profile_uuid: other, claim_token: 0 });
  });
});
