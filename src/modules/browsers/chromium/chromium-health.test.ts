// The selector health tour on the replica: on the known layouts every page shows what the driver needs and
// the tour says which hook matched; on an unknown layout it names each miss and saves the page - and it
// never acts (the replica records no action but profile visits).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import type { ActionType } from '../../channels/driver.js';
import { runDueHealthTour, type SeatHealthDeps } from '../seat-health.jobs.js';
import { applyHealthReport, BREAKER_MISSES, seatBreakers } from '../seat-health.js';
import { createChromiumDriver } from './chromium-driver.js';
import { healthTour } from './chromium-health.js';
import { openReplicaSeat, type ReplicaSeat, replicaActionRequest } from './replica-seat.test-support.js';
import { guardLoopback } from './test-guard.js';

describe('the selector health tour', { timeout: 180_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica(undefined, { spa: true, hydrationMs: 400 });
    seat = await openReplicaSeat(ctx, replica, guard, { account: me });
    replica.accept(me, 'person-2', '2026-05-01T10:00:00Z');
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  const tour = (contentTimeoutMs: number) =>
    seat.browsers.use(seat.teamId, seat.seatId, ({ page }) =>
      healthTour(
        page,
        { browsers: seat.browsers, baseUrl: replica.url, contentTimeoutMs },
        { teamId: seat.teamId, seatId: seat.seatId },
      ),
    );

  it('walks every page read-only and records the hook each item matched, on both profile layouts', async () => {
    for (const layout of ['legacy', 'sdui'] as const) {
      replica.mode.layout = layout;
      const report = await tour(10_000);
      replica.mode.layout = 'legacy';
      expect(report.missed, layout).toEqual([]);
      expect(report.ownVanity).toBe(me);
      const step = (name: string) => report.steps.find((s) => s.step === name)!;
      expect(report.steps.map((s) => s.step)).toEqual([
        'feed',
        'own profile',
        'connections',
        '1st-degree profile',
        '1st-degree activity',
        '1st-degree skills',
        '1st-degree composer',
        'people search',
        '2nd-degree profile',
        'messaging',
        'sent invitations',
        'company',
      ]);
      expect(report.steps.filter((s) => s.skipped)).toEqual([]);
      expect(step('1st-degree profile').items).toContainEqual({
        item: 'profile.topCard',
        matched: expect.objectContaining({ layout: layout === 'sdui' ? 'sdui' : 'legacy', from: 'real' }),
      });
      // Empty lists are LinkedIn's empty state, not a miss.
      expect(step('messaging').items).toEqual([
        { item: 'messaging.conversation', matched: null, empty: true },
      ]);
    }
    expect(replica.state.actions.filter((a) => a.type !== 'visit')).toEqual([]);
  });

  it('on a layout it does not know, names every miss and saves each page', async () => {
    replica.mode.renamedHooks = true;
    try {
      const report = await tour(1_500);
      expect(new Set(report.missed)).toEqual(
        new Set([
          'profile.topCard',
          'profile.name',
          'connections.card',
          'search.result',
          'activity.post',
          'skills.item',
          'company.root',
        ]),
      );
      const dumps = report.steps.filter((s) => s.dump).map((s) => s.step);
      // One page per kind and missed items an hour: the 1st- and 2nd-degree profiles add no dump.
      expect(dumps).toEqual([
        'own profile',
        'connections',
        '1st-degree activity',
        '1st-degree skills',
        'people search',
        'company',
      ]);
      const folder = path.join(seat.pageDumpsDir, `seat-${seat.teamId}-${seat.seatId}`);
      expect(fs.readdirSync(folder).filter((f) => f.endsWith('.html')).length).toBe(dumps.length);
    } finally {
      replica.mode.renamedHooks = false;
    }
  });

  const request = (type: ActionType, slug: string) => replicaActionRequest(seat, type, slug);
  const breakersRow = () =>
    ctx.db
      .selectFrom('linkedin_browsers')
      .select(['action_breakers', 'health_checked_at'])
      .where('id', '=', seat.seatId)
      .executeTakeFirstOrThrow();
  const issues = () =>
    ctx.db
      .selectFrom('events')
      .selectAll()
      .where('team_id', '=', seat.teamId)
      .where('name', '=', 'sender_profile_issue')
      .execute();

  it('a failed check pauses the action types it broke (one event), a passing one resumes them', async () => {
    const ids = { teamId: seat.teamId, seatId: seat.seatId };
    const breakers = seatBreakers(ctx.db, ids);
    const driver = createChromiumDriver(ids, {
      browsers: seat.browsers,
      baseUrl: replica.url,
      contentTimeoutMs: 1_500,
      breakers,
    });
    replica.mode.renamedHooks = true;
    const failed = await tour(1_500).finally(() => {
      replica.mode.renamedHooks = false;
    });
    expect(new Set(await applyHealthReport(ctx.db, ids, failed, new Date()))).toEqual(
      new Set([
        'linkedin_send_connection_request',
        'linkedin_withdraw_connection_request',
        'linkedin_visit_profile',
        'linkedin_like_latest_post',
        'linkedin_comment_latest_post',
        'linkedin_endorse_skills',
      ]),
    );
    // The composer was found: messages go on.
    expect((await breakersRow()).action_breakers.linkedin_send_message).toBeUndefined();
    expect(await issues()).toHaveLength(1);
    const before = replica.state.actions.length;
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-5'))).toMatchObject({
      ok: false,
      reason: 'selector_health',
      retryAfterMs: 3_600_000,
    });
    expect(replica.state.actions).toHaveLength(before); // not even a visit: no browser for a paused type
    // Checked again, on demand, on the known layout (the health round runs a requested tour once):
    // every breaker closes, actions run.
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ health_requested_at: new Date() })
      .where('id', '=', seat.seatId)
      .execute();
    const round = {
      db: ctx.db,
      clock: { now: () => new Date() },
      browsers: seat.browsers,
      baseUrl: replica.url,
    } as SeatHealthDeps;
    expect(await runDueHealthTour(round)).toMatchObject({ seat: ids, opened: [], report: { missed: [] } });
    expect(await runDueHealthTour(round)).toBeNull();
    expect(Object.values((await breakersRow()).action_breakers).filter((b) => b.open_since)).toEqual([]);
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-5'))).toMatchObject({
      ok: true,
    });
    // Misses of one type before its click, in a row, open its breaker too.
    replica.mode.renamedHooks = true;
    try {
      for (let i = 0; i < BREAKER_MISSES; i++) {
        expect(await driver.perform(request('linkedin_like_latest_post', 'person-3'))).toMatchObject({
          reason: 'transient',
          message: expect.stringMatching(/^selector_miss/),
        });
      }
    } finally {
      replica.mode.renamedHooks = false;
    }
    expect((await breakersRow()).action_breakers.linkedin_like_latest_post).toMatchObject({
      misses: BREAKER_MISSES,
      open_since: expect.any(String),
    });
    expect(await issues()).toHaveLength(2);
    expect(await driver.perform(request('linkedin_like_latest_post', 'person-3'))).toMatchObject({
      reason: 'selector_health',
    });
    expect(replica.actions('like')).toEqual([]);
  });

  it('stops on a lost session', async () => {
    replica.state.sessions = {};
    try {
      expect(await tour(1_500)).toMatchObject({ session: 'logged_out', missed: [] });
    } finally {
      replica.state.sessions[seat.token] = me;
    }
  });
});
