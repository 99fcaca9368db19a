import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext } from '../../../test/harness.js';
import { claimRead } from './read-pace.js';
import type { ReadPace } from './reader.js';

const pace: ReadPace = {
  profileIntervalMs: 10_000,
  searchPageIntervalMs: 30_000,
  profilesPerDay: 3,
  searchPagesPerDay: 0,
};

describe('read pace', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('spaces reads by the interval times the random factor and caps them per UTC day', async () => {
    const user = await ctx.createUser();
    const sender = await makeSender(ctx.db, user.teamId);
    const claim = (at: string, random = 0.5) =>
      claimRead(ctx.db, {
        teamId: user.teamId,
        senderProfileUuid: sender.uuid,
        kind: 'profile',
        pace,
        now: new Date(at),
        random,
      });

    expect(await claim('2026-03-01T23:50:00Z', 0)).toEqual({ ok: true }); // next at +5 s (factor 0.5)
    expect(await claim('2026-03-01T23:50:04Z')).toEqual({
      ok: false,
      reason: 'interval',
      retryAt: new Date('2026-03-01T23:50:05Z'),
    });
    expect(await claim('2026-03-01T23:50:05Z', 0.99)).toEqual({ ok: true }); // next at +14.9 s
    expect(await claim('2026-03-01T23:50:20Z')).toEqual({ ok: true });
    // Three reads on 1 March: the fourth waits for midnight UTC, whatever the interval says.
    expect(await claim('2026-03-01T23:59:00Z')).toEqual({
      ok: false,
      reason: 'daily_cap',
      retryAt: new Date('2026-03-02T00:00:00Z'),
    });
    expect(await claim('2026-03-02T00:00:00Z')).toEqual({ ok: true });
  });

  it('keeps kinds and senders apart, and gives one slot to one of many concurrent claims', async () => {
    const user = await ctx.createUser();
    const [a, b] = [await makeSender(ctx.db, user.teamId), await makeSender(ctx.db, user.teamId)];
    const now = new Date('2026-03-05T10:00:00Z');
    const claim = (senderProfileUuid: string, kind: 'profile' | 'search') =>
      claimRead(ctx.db, { teamId: user.teamId, senderProfileUuid, kind, pace, now, random: 0.5 });

    const race = await Promise.all(Array.from({ length: 8 }, () => claim(a.uuid, 'search')));
    expect(race.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(await claim(a.uuid, 'profile')).toEqual({ ok: true });
    expect(await claim(b.uuid, 'search')).toEqual({ ok: true });
    // No daily cap for searches (0): only the interval holds them back.
    const later = await claimRead(ctx.db, {
      teamId: user.teamId,
      senderProfileUuid: a.uuid,
      kind: 'search',
      pace,
      now: new Date('2026-03-05T10:00:30Z'),
      random: 0.5,
    });
    expect(later).toEqual({ ok: true });
  });
});
