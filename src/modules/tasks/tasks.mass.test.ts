// Mass moves (by uuids and by filter, in the request and in the background), what they refuse, how
// an automation's task hands its contact back to the engine, and continue-automation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { insertEnrollment, insertTasks } from './tasks.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  // A small synchronous limit, so a selection of a few dozen tasks already runs in the background.
  ctx = await createTestContext({ config: { massActionSyncLimit: 20 } });
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
});
afterAll(() => ctx.close());

const mass = (user: TestUser, move: string, payload: unknown) =>
  ctx.request(user, { method: 'PUT', url: `/flows/api/tasks/mass-${move}`, payload: payload as object });

async function statusOf(uuids: string[]) {
  const rows = await ctx.db
    .selectFrom('tasks')
    .select(['uuid', 'status'])
    .where('uuid', 'in', uuids)
    .execute();
  const byUuid = new Map(rows.map((row) => [row.uuid, row.status]));
  return uuids.map((uuid) => byUuid.get(uuid));
}

describe('mass moves of to-dos', () => {
  it('cancel and complete manual tasks by uuids, counting only real changes', async () => {
    const [a, b, c, d] = await insertTasks(ctx, alice.teamId, [
      { automation: 'manual' },
      { automation: 'manual' },
      { automation: 'manual', status: 'closed' },
      { automation: 'manual' },
    ]);
    const cancel = await mass(alice, 'cancel', { uuids: [a, b, c] });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toEqual({ affected: 2, operation: null });
    expect(await statusOf([a!, b!, c!])).toEqual(['canceled', 'canceled', 'closed']);
    const complete = await mass(alice, 'complete', { uuids: [d] });
    expect(complete.json().affected).toBe(1);
    const row = await ctx.db
      .selectFrom('tasks')
      .select(['status', 'executed_at'])
      .where('uuid', '=', d!)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('closed');
    expect(row.executed_at).not.toBeNull();
  });

  it('refuse automation tasks named in uuids and leave them out of a filter', async () => {
    const flow = newId();
    const [auto, manual] = await insertTasks(ctx, alice.teamId, [
      { automation: 'auto', flow_uuid: flow, flow_node_id: 2 },
      { automation: 'manual', note: 'by-filter' },
    ]);
    for (const move of ['cancel', 'complete']) {
      const res = await mass(alice, move, { uuids: [auto, manual] });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toContain(auto);
    }
    expect(await statusOf([auto!, manual!])).toEqual(['in_progress', 'in_progress']);
    const byFilter = await mass(alice, 'cancel', {
      uuids: [auto, manual],
      filter: { status: 'in_progress' },
    });
    expect(byFilter.statusCode).toBe(422);
    const filterOnly = await mass(alice, 'cancel', { filter: { flow_uuid: [flow], status: 'in_progress' } });
    expect(filterOnly.json().affected).toBe(0);
    expect(await statusOf([auto!])).toEqual(['in_progress']);
  });

  it('need uuids or a filter with keys, and a known filter key', async () => {
    for (const payload of [{}, { filter: {} }, { filter: null }]) {
      const res = await mass(alice, 'cancel', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error.data).toHaveProperty('uuids');
    }
    const badKey = await mass(alice, 'skip', { filter: { executed_at_from: '2026-01-01' } });
    expect(badKey.statusCode).toBe(422);
    // The body schema lists the task filter's keys, so the validator names them.
    expect(badKey.json().message).toContain('Accepted fields: flow_uuid');
    const unknown = await mass(alice, 'skip', { ids: [] });
    expect(unknown.statusCode).toBe(422);
  });

  it('keep teams apart', async () => {
    const [task] = await insertTasks(ctx, alice.teamId, [{ automation: 'manual' }]);
    const res = await mass(bob, 'cancel', { uuids: [task] });
    expect(res.json().affected).toBe(0);
    expect(await statusOf([task!])).toEqual(['in_progress']);
  });

  it('run a selection above the synchronous limit in the background', async () => {
    const note = `bulk-${newId()}`;
    const uuids = await insertTasks(
      ctx,
      alice.teamId,
      Array.from({ length: 45 }, () => ({ automation: 'manual' as const, status: 'failed' as const, note })),
    );
    const workers = await ctx.startWorkers();
    try {
      const res = await mass(alice, 'retry', { filter: { automation: 'manual', status: 'failed' } });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().operation).toMatchObject({ type: 'task_mass_retry', status: 'queued' });
      const done = await waitFor(async () => {
        const op = await ctx.request(alice, {
          method: 'GET',
          url: `/leads/api/bulk-operations/${res.json().operation.uuid}`,
        });
        return op.json().status === 'done' ? op.json() : undefined;
      });
      expect(done.affected).toBeGreaterThanOrEqual(45);
      expect(new Set(await statusOf(uuids))).toEqual(new Set(['in_progress']));
    } finally {
      await workers.stop();
    }
  });
});

describe('mass moves of automation tasks', () => {
  async function automationTask(enrollment: {
    status?: 'in_progress' | 'paused' | 'finished' | 'failed';
    node?: number;
    step?: number;
  }) {
    const flow = newId();
    const fl = await insertEnrollment(ctx, alice.teamId, {
      flow_uuid: flow,
      status: enrollment.status ?? 'in_progress',
      flow_node_id: enrollment.node ?? 2,
      step: enrollment.step ?? 1,
      next_run_at: null,
      ...(enrollment.status === 'failed' ? { reason: 'unknown', finished_at: new Date() } : {}),
    });
    const [task] = await insertTasks(ctx, alice.teamId, [
      { flow_uuid: flow, flow_lead_uuid: fl, flow_node_id: 2, step: 1, status: 'failed', attempts: 3 },
    ]);
    return { task: task!, enrollment: fl };
  }

  const enrollmentOf = (uuid: string) =>
    ctx.db
      .selectFrom('flow_leads')
      .select(['status', 'next_run_at'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();

  it('retry puts the step back in progress, keeps attempts and wakes the contact', async () => {
    const { task, enrollment } = await automationTask({});
    await ctx.db
      .updateTable('tasks')
      .set({ error_msg: 'boom', automation_error_code: 'unknown', taken_to_execute_at: new Date() })
      .where('uuid', '=', task)
      .execute();
    const res = await mass(alice, 'retry', { uuids: [task] });
    expect(res.json().affected).toBe(1);
    const row = await ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('uuid', '=', task)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'in_progress',
      attempts: 3,
      error_msg: null,
      automation_error_code: null,
    });
    expect(row.taken_to_execute_at).toBeNull();
    expect((await enrollmentOf(enrollment)).next_run_at).not.toBeNull();
  });

  it('skip lets the contact move on', async () => {
    const { task, enrollment } = await automationTask({});
    const res = await mass(alice, 'skip', { uuids: [task] });
    expect(res.json().affected).toBe(1);
    expect(await statusOf([task])).toEqual(['skipped']);
    expect((await enrollmentOf(enrollment)).next_run_at).not.toBeNull();
  });

  it('bring back a contact the engine ended because that task failed', async () => {
    const flow = newId();
    await ctx.db
      .insertInto('flows')
      .values({
        team_id: alice.teamId,
        uuid: flow,
        name: 'On',
        flow_version_uuid: newId(),
        status: 'on',
        schedule: JSON.stringify({ timezone: 'UTC', use_lead_timezone: false, timeblocks: [] }),
        settings: '{}',
      })
      .execute();
    for (const move of ['retry', 'skip'] as const) {
      const { task, enrollment } = await automationTask({ status: 'failed' });
      await ctx.db
        .updateTable('flow_leads')
        .set({ flow_uuid: flow })
        .where('uuid', '=', enrollment)
        .execute();
      const res = await mass(alice, move, { uuids: [task] });
      expect(res.json().affected, move).toBe(1);
      const row = await ctx.db
        .selectFrom('flow_leads')
        .select(['status', 'reason', 'finished_at', 'next_run_at', 'flow_active', 'claim_token'])
        .where('uuid', '=', enrollment)
        .executeTakeFirstOrThrow();
      expect(row, move).toMatchObject({
        status: 'in_progress',
        reason: null,
        finished_at: null,
        flow_active: true,
      });
      expect(row.next_run_at).not.toBeNull();
      // Bumped, so a batch the engine might be running on it cannot overwrite the move.
      expect(row.claim_token).toBeGreaterThan(0);
    }
  });

  it('leave alone a task whose contact ended or moved past it, or that failed on a reply', async () => {
    const ended = await automationTask({ status: 'finished' });
    const moved = await automationTask({ node: 5, step: 2 });
    const replied = await automationTask({});
    await ctx.db
      .updateTable('tasks')
      .set({ automation_error_code: 'replied' })
      .where('uuid', '=', replied.task)
      .execute();
    const retry = await mass(alice, 'retry', { uuids: [ended.task, moved.task, replied.task] });
    expect(retry.json().affected).toBe(0);
    const skip = await mass(alice, 'skip', { uuids: [ended.task, moved.task] });
    expect(skip.json().affected).toBe(0);
    expect(await statusOf([ended.task, moved.task, replied.task])).toEqual(['failed', 'failed', 'failed']);
    expect((await enrollmentOf(moved.enrollment)).next_run_at).toBeNull();
  });

  it('skip passes over a step already handed to its channel', async () => {
    const { task } = await automationTask({});
    await ctx.db
      .updateTable('tasks')
      .set({ status: 'in_progress', taken_to_execute_at: new Date() })
      .where('uuid', '=', task)
      .execute();
    expect((await mass(alice, 'skip', { uuids: [task] })).json().affected).toBe(0);
  });
});

describe('PUT /flows/api/tasks/continue-automation', () => {
  it('releases a held contact and answers 422 when nothing holds it', async () => {
    const contact = newId();
    const flow = newId();
    const held = await insertEnrollment(ctx, alice.teamId, {
      flow_uuid: flow,
      lead_uuid: contact,
      next_run_at: null,
      wait: JSON.stringify({ kind: 'hold' }),
    });
    const wrongFlow = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/continue-automation',
      payload: { lead_uuid: contact, flow_uuid: newId() },
    });
    expect(wrongFlow.statusCode).toBe(422);
    const other = await ctx.request(bob, {
      method: 'PUT',
      url: '/flows/api/tasks/continue-automation',
      payload: { lead_uuid: contact },
    });
    expect(other.statusCode).toBe(422);
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/continue-automation',
      payload: { lead_uuid: contact, flow_uuid: flow },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ released: 1 });
    const row = await ctx.db
      .selectFrom('flow_leads')
      .select(['wait', 'next_run_at'])
      .where('uuid', '=', held)
      .executeTakeFirstOrThrow();
    expect(row.wait).toMatchObject({ kind: 'hold', released: true });
    expect(row.next_run_at).not.toBeNull();
    const again = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/continue-automation',
      payload: { lead_uuid: contact },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toContain('Nothing is held');
    const missing = await ctx.request(alice, {
      method: 'PUT',
      url: '/flows/api/tasks/continue-automation',
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty('lead_uuid');
  });
});
