// End to end: a flow whose sender has a chromium seat sends its connection request through the engine,
// the seat's real headless Chromium and the LinkedIn replica - once; a lost LinkedIn session turns the
// seat to login_issue, parks the sender's enrollment and emits sender_profile_issue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll, makeContacts, makeFlow, makeSender } from '../../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../../test/engine-harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import { secretBoxOf } from '../../../deps.js';
import { saveSession } from '../seat-session.js';
import { createChromiumDriver } from './chromium-driver.js';
import { createSeatBrowsers, type SeatBrowsers } from './seat-browsers.js';
import { guardLoopback } from './test-guard.js';

const CHROMIUM = hasPrograms('the chromium-seat flow test', ['chromium']);

describe('a flow on a chromium seat', { skip: !CHROMIUM, timeout: 180_000 }, () => {
  let h: EngineHarness;
  let replica: Replica;
  let browsers: SeatBrowsers;
  let token: string;
  let senderUuid: string;
  let seatId: number;
  const guard = guardLoopback();

  beforeAll(async () => {
    replica = await startReplica();
    let pool: SeatBrowsers | undefined;
    h = await createEngineHarness({
      env: { LEADFLOW_LINKEDIN_URL: replica.url },
      engine: {
        linkedinDrivers: {
          chromium: (seat) =>
            createChromiumDriver(
              { teamId: seat.team_id, seatId: seat.id },
              { browsers: pool!, baseUrl: replica.url, confirmTimeoutMs: 5_000 },
            ),
        },
      },
    });
    browsers = createSeatBrowsers({
      config: { linkedin: h.ctx.config.linkedin },
      db: h.ctx.db,
      secretBox: secretBoxOf(h.ctx.config),
      onContext: guard.install,
    });
    pool = browsers;
    const sender = await makeSender(h.ctx.db, h.user.teamId);
    senderUuid = sender.uuid;
    const seat = await h.ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: h.user.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'chromium',
        status: 'running',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    seatId = seat.id;
    token = replica.signIn('sam-sender');
    await saveSession(
      h.ctx.db,
      secretBoxOf(h.ctx.config),
      h.user.teamId,
      seat.id,
      replica.sessionOf(token),
      new Date(),
    );
  });
  afterAll(async () => {
    await browsers?.closeAll();
    await replica?.close();
    await h?.close();
    guard.assertNothingLeft();
  });

  async function startFlow(slug: string, type = 'linkedin_send_connection_request') {
    const flow = await makeFlow(h.ctx.db, h.user.teamId, {
      senders: [senderUuid],
      nodes: [{ id: 1, type, payload: { template: 'Hi {{first_name}}!' } }],
    });
    const [lead] = await makeContacts(h.ctx.db, h.user.teamId, 1, slug);
    await h.ctx.db
      .updateTable('leads')
      .set({ linkedin: slug, first_name: 'First' })
      .where('uuid', '=', lead!.uuid)
      .execute();
    const [row] = await enroll(h.ctx.db, h.user.teamId, flow, [lead!.uuid], { at: h.clock.now() });
    return row!;
  }

  const task = (flowLeadUuid: string) =>
    h.ctx.db
      .selectFrom('tasks')
      .select(['status', 'automation_error_code'])
      .where('flow_lead_uuid', '=', flowLeadUuid)
      .executeTakeFirst();

  it('sends the connection request through the browser, exactly once', async () => {
    const enrollment = await startFlow('person-1');
    await h.run(async () => (await task(enrollment.uuid))?.status === 'closed', { maxTicks: 50 });
    expect(replica.actions('invite')).toEqual([
      expect.objectContaining({ account: 'sam-sender', to: 'person-1', note: 'Hi First!' }),
    ]);
    await h.run(undefined, { maxTicks: 5 });
    expect(replica.actions('invite')).toHaveLength(1);
  });

  it('a message LinkedIn received but never confirmed is never sent again: the outcome check records it', async () => {
    replica.accept('sam-sender', 'person-3');
    replica.faults.afterAction = 'hang';
    const enrollment = await startFlow('person-3', 'linkedin_send_message');
    const messages = () => replica.actions('message').filter((m) => m.to === 'person-3');
    const waiting = async () =>
      (
        await h.ctx.db
          .selectFrom('tasks')
          .select('error_msg')
          .where('flow_lead_uuid', '=', enrollment.uuid)
          .executeTakeFirst()
      )?.error_msg?.startsWith('unconfirmed:') ?? false;
    await h.run(waiting, { maxTicks: 50 });
    replica.faults.afterAction = null;
    expect(messages()).toHaveLength(1);
    // No retry: the reconciler asks the driver, which finds the message in the conversation.
    await h.run(async () => (await task(enrollment.uuid))?.status === 'closed', { maxTicks: 200 });
    expect(messages()).toEqual([expect.objectContaining({ text: 'Hi First!' })]);
  });

  it('a lost session turns the seat to login_issue and parks the sender, sending nothing', async () => {
    delete replica.state.sessions[token];
    const enrollment = await startFlow('person-2');
    const seat = () =>
      h.ctx.db
        .selectFrom('linkedin_browsers')
        .select(['status', 'error_reason'])
        .where('id', '=', seatId)
        .executeTakeFirstOrThrow();
    await h.run(async () => (await seat()).status === 'login_issue', { maxTicks: 50 });
    expect((await seat()).error_reason).toMatch(/session/i);
    const events = await h.ctx.db
      .selectFrom('events')
      .select('name')
      .where('team_id', '=', h.user.teamId)
      .where('name', '=', 'sender_profile_issue')
      .execute();
    expect(events.length).toBeGreaterThan(0);
    expect((await task(enrollment.uuid))?.status).not.toBe('closed');
    expect(replica.actions('invite')).toHaveLength(1);
  });
});
