// Never twice: a crash between an action's intent and its recorded outcome never leads to a second
// send. The sandbox network records every send it is asked for, so these tests count real sends.
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
import { unconfirmingDriver } from '../../../test/unconfirming-driver.js';
import { createLogger } from '../../lib/logger.js';
import type { ChannelDriver, DriverRegistry, OutcomeCheck } from '../channels/driver.js';
import { noLlm } from '../llm/llm-client.js';
import { fixedLlms } from '../llm/team-llms.js';
import { SimulatedCrash } from './engine.js';
import { runTeamBatch } from './run/batch.js';
import { claimDueEnrollments } from './run/claim.js';
import type { CrashPoint } from './run/send-once.js';
import { createTemplateRenderer } from './template-renderer.js';

const inviteThenEnd: NodeSpec[] = [
  {
    id: 1,
    type: 'linkedin_send_connection_request',
    payload: { template: 'Hello {{first_name}}' },
    next: { 1: 2 },
  },
  { id: 2, type: 'end' },
];

/** Crashes once at `point`, as a worker killed there would. */
function crashOnceAt(target: CrashPoint) {
  let armed = true;
  return (point: CrashPoint) => {
    if (armed && point === target) {
      armed = false;
      throw new SimulatedCrash(`killed at ${point}`);
    }
  };
}

async function sendsTo(h: EngineHarness, leadUuid: string) {
  return h.ctx.db
    .selectFrom('sandbox_linkedin_actions')
    .select('id')
    .where('lead_uuid', '=', leadUuid)
    .execute();
}

async function setup(h: EngineHarness, name: string) {
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  const flow = await makeFlow(h.ctx.db, h.user.teamId, { senders: [sender.uuid], nodes: inviteThenEnd });
  const [lead] = await makeContacts(h.ctx.db, h.user.teamId, 1, name);
  const [row] = await enroll(h.ctx.db, h.user.teamId, flow, [lead!.uuid], { at: h.clock.now() });
  return { lead: lead!, row: row! };
}

const finished = (h: EngineHarness, uuid: string) => async () =>
  (
    await h.ctx.db
      .selectFrom('flow_leads')
      .select('status')
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow()
  ).status !== 'in_progress';

/** Runs ticks, treating a simulated crash as a worker restart. */
async function runThroughCrashes(h: EngineHarness, until: () => Promise<boolean>) {
  for (let i = 0; i < 20; i += 1) {
    try {
      await h.run(until, { maxTicks: 200 });
      return;
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
    }
  }
}

describe('crash between the send and its record', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness({ engine: { crashPoint: crashOnceAt('after_perform') } });
  });
  afterAll(() => h.close());

  it('is reconciled from the channel: recorded as sent once, never sent again', async () => {
    const { lead, row } = await setup(h, 'Crash');
    await runThroughCrashes(h, finished(h, row.uuid));
    expect(await sendsTo(h, lead.uuid)).toHaveLength(1);
    const task = await h.ctx.db
      .selectFrom('tasks')
      .select(['status', 'remote_ref', 'attempts'])
      .where('flow_lead_uuid', '=', row.uuid)
      .where('type', '=', 'linkedin_send_connection_request')
      .executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'closed', remote_ref: 'reconciled', attempts: 1 });
  });
});

describe('crash after the intent, before the send', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness({ engine: { crashPoint: crashOnceAt('after_intent') } });
  });
  afterAll(() => h.close());

  it('is sent once after the channel confirms it never went out', async () => {
    const { lead, row } = await setup(h, 'Intent');
    await runThroughCrashes(h, finished(h, row.uuid));
    expect(await sendsTo(h, lead.uuid)).toHaveLength(1);
    expect(
      await h.ctx.db
        .selectFrom('flow_leads')
        .select(['status', 'reason'])
        .where('uuid', '=', row.uuid)
        .executeTakeFirst(),
    ).toEqual({ status: 'finished', reason: 'completed' });
  });
});

describe('a channel that cannot tell whether it sent', () => {
  let h: EngineHarness;
  let performed = 0;
  const flaky: ChannelDriver = {
    name: 'flaky',
    async perform() {
      performed += 1;
      throw new Error('browser crashed while clicking Send');
    },
    async checkOutcome() {
      return 'unknown';
    },
  };
  const drivers: DriverRegistry = { resolve: async () => flaky };
  beforeAll(async () => {
    h = await createEngineHarness({
      engine: { drivers },
      expectedErrors: /browser crashed while clicking Send/,
    });
  });
  afterAll(() => h.close());

  it('fails the step with unknown_outcome instead of sending again', async () => {
    const { row } = await setup(h, 'Unknown');
    await h.run(finished(h, row.uuid));
    expect(performed).toBe(1);
    expect(
      await h.ctx.db
        .selectFrom('flow_leads')
        .select(['status', 'reason'])
        .where('uuid', '=', row.uuid)
        .executeTakeFirst(),
    ).toEqual({ status: 'failed', reason: 'unknown_outcome' });
    const task = await h.ctx.db
      .selectFrom('tasks')
      .select(['status', 'automation_error_code'])
      .where('flow_lead_uuid', '=', row.uuid)
      .executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'failed', automation_error_code: 'unknown_outcome' });
  });
});

describe('an action the channel answers unconfirmed (past its irreversible step)', () => {
  let h: EngineHarness;
  const unsure = unconfirmingDriver();
  beforeAll(async () => {
    h = await createEngineHarness({ engine: { drivers: { resolve: async () => unsure.driver } } });
  });
  afterAll(() => h.close());
  const taskOf = (row: { uuid: string }) =>
    h.ctx.db
      .selectFrom('tasks')
      .select(['status', 'automation_error_code', 'error_msg', 'remote_ref'])
      .where('flow_lead_uuid', '=', row.uuid)
      .where('type', '=', 'linkedin_send_connection_request')
      .executeTakeFirstOrThrow();
  const answering = (answer: OutcomeCheck) =>
    Object.assign(unsure.state, { performed: 0, checks: 0, answer });

  it('is never retried: the outcome check decides (unknown -> unknown_outcome with the cause)', async () => {
    answering('unknown');
    const { row } = await setup(h, 'Unsure');
    await h.run(finished(h, row.uuid));
    expect([unsure.state.performed, unsure.state.checks]).toEqual([1, 1]);
    const task = await taskOf(row);
    expect(task).toMatchObject({ status: 'failed', automation_error_code: 'unknown_outcome' });
    expect(task.error_msg).toMatch(/^unconfirmed: Send was clicked.*it is not sent again\.$/);
  });

  it('is recorded as sent when the check finds it done', async () => {
    answering('done');
    const { row } = await setup(h, 'Found');
    await h.run(finished(h, row.uuid));
    expect([unsure.state.performed, unsure.state.checks]).toEqual([1, 1]);
    expect(await taskOf(row)).toMatchObject({ status: 'closed', remote_ref: 'reconciled' });
  });

  it('is tried again only after a sure not_done, and at most the attempts allowed', async () => {
    answering('not_done');
    const { row } = await setup(h, 'Again');
    await h.run(finished(h, row.uuid));
    expect(unsure.state.performed).toBe(h.ctx.config.engine.maxAttempts);
    expect(unsure.state.checks).toBe(unsure.state.performed);
    expect(await taskOf(row)).toMatchObject({ status: 'failed', automation_error_code: 'too_many_attempts' });
  });
});

describe('claims', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(() => h.close());

  it('fence out a worker whose lease ran out: its late writes change nothing', async () => {
    const sender = await makeSender(h.ctx.db, h.user.teamId);
    const flow = await makeFlow(h.ctx.db, h.user.teamId, {
      senders: [sender.uuid],
      nodes: [
        { id: 1, type: 'util_timer', payload: { wait_time: 3600 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    const leads = await makeContacts(h.ctx.db, h.user.teamId, 3, 'Fence');
    await enroll(
      h.ctx.db,
      h.user.teamId,
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    const now = h.clock.now();
    const slow = await claimDueEnrollments(h.ctx.db, now, 10, 1000);
    expect(slow).toHaveLength(3);
    // Nobody else can claim them while the lease holds; after it, another worker does.
    expect(await claimDueEnrollments(h.ctx.db, now, 10, 1000)).toHaveLength(0);
    const later = new Date(now.getTime() + 2000);
    const fast = await claimDueEnrollments(h.ctx.db, later, 10, 60_000);
    expect(fast).toHaveLength(3);
    const deps = {
      db: h.ctx.db,
      log: createLogger('silent'),
      renderer: createTemplateRenderer({ llms: fixedLlms(noLlm) }),
      triggerDefaultWaitSeconds: 60,
      http: { client: undefined as never, sleep: async () => {} },
    };
    expect((await runTeamBatch(deps, h.user.teamId, fast, later)).written).toBe(3);
    expect((await runTeamBatch(deps, h.user.teamId, slow, now)).written).toBe(0);
    const timers = await h.ctx.db
      .selectFrom('tasks')
      .select('uuid')
      .where('flow_uuid', '=', flow.uuid)
      .execute();
    expect(timers).toHaveLength(3);
  });
});
