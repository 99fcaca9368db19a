// The selector health tour on the replica: on the known layouts every page shows what the driver needs and
// the tour says which hook matched; on an unknown layout it names each miss and saves the page - and it
// never acts (the replica records no action but profile visits).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { healthTour } from './chromium-health.js';
import { openReplicaSeat, type ReplicaSeat } from './replica-seat.test-support.js';
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

  it('stops on a lost session', async () => {
    replica.state.sessions = {};
    try {
      expect(await tour(1_500)).toMatchObject({ session: 'logged_out', missed: [] });
    } finally {
      replica.state.sessions[seat.token] = me;
    }
  });
});
