// The worker reads within each sender's read budget (claimRead): with a 60 s read interval one
// profile is read per slot, the rest of the batch waits (uncounted) for the slot the claim names, and
// two senders read twice as fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { createLinkedInReaders } from '../../deps.js';
import { manualClock } from '../../lib/clock.js';
import { runEnrichment } from './enrichment.worker.js';

const clock = manualClock(new Date('2026-06-01T08:00:00Z'));
let ctx: TestContext;
let user: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({
    clock,
    env: { LEADFLOW_SANDBOX_READ_INTERVAL_MS: '60000', LEADFLOW_SANDBOX_PROFILE_MISSING_RATE: '0' },
  });
  user = await ctx.createUser();
});
afterAll(async () => ctx?.close());

describe('read pace', () => {
  it('reads one profile per sender slot and comes back when the next slot opens', async () => {
    const sender = await makeSender(ctx.db, user.teamId);
    await makeSandboxSeat(ctx.db, user.teamId, sender.uuid);
    await ctx.services.identity.addCredits(user.teamId, 10);
    const list = await makeList(ctx.db, user.teamId, 'Paced');
    const leads = await makeLeads(
      ctx.db,
      user.teamId,
      list.uuid,
      Array.from({ length: 4 }, (_, i) => ({ first_name: `P${i}`, linkedin: `paced-${i}` })),
    );
    const queued = await ctx.services.enrichment.enrichLeads(user.teamId, {
      uuids: leads.map((l) => l.uuid),
    });
    expect(queued.count).toBe(4);
    const readers = createLinkedInReaders({ db: ctx.db, config: ctx.config, clock });
    const deps = { db: ctx.db, clock, readers, random: () => 0.5 };

    const first = await runEnrichment(deps, user.teamId);
    expect(first.done).toBe(1);
    expect(first.at?.getTime()).toBe(clock.now().getTime() + 60_000);
    const waiting = await ctx.db
      .selectFrom('enrichment_queue')
      .select(['status', 'attempts'])
      .where('team_id', '=', user.teamId)
      .where('status', '=', 'pending')
      .execute();
    // Sent back without counting an attempt.
    expect(waiting).toEqual([
      { status: 'pending', attempts: 0 },
      { status: 'pending', attempts: 0 },
      { status: 'pending', attempts: 0 },
    ]);
    expect((await runEnrichment(deps, user.teamId)).done).toBe(0);

    // A second sender doubles the pace.
    const other = await makeSender(ctx.db, user.teamId, { first_name: 'Second' });
    await makeSandboxSeat(ctx.db, user.teamId, other.uuid);
    clock.set(new Date(clock.now().getTime() + 60_000));
    const second = await runEnrichment(deps, user.teamId);
    expect(second.done).toBe(2);
    clock.set(new Date(clock.now().getTime() + 60_000));
    const third = await runEnrichment(deps, user.teamId);
    expect(third).toMatchObject({ done: 1, again: false, at: null });
    const senders = await ctx.db
      .selectFrom('enrichment_queue')
      .select('sender_profile_uuid')
      .where('team_id', '=', user.teamId)
      .where('status', '=', 'done')
      .execute();
    expect(new Set(senders.map((s) => s.sender_profile_uuid))).toEqual(new Set([sender.uuid, other.uuid]));
  });

  it('does not read a record blacklisted or deleted since it was queued, and refunds its credit', async () => {
    const list = await makeList(ctx.db, user.teamId, 'Changed');
    const [black, gone] = await makeLeads(ctx.db, user.teamId, list.uuid, [
      { first_name: 'Black', linkedin: 'black-later' },
      { first_name: 'Gone', linkedin: 'gone-later' },
    ]);
    const before = await ctx.services.identity.addCredits(user.teamId, 0);
    const queued = await ctx.services.enrichment.enrichLeads(user.teamId, {
      uuids: [black!.uuid, gone!.uuid],
    });
    expect(queued.count).toBe(2);
    const entry = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { linkedin: 'black-later' },
    });
    expect(entry.statusCode, entry.body).toBe(201);
    await ctx.db
      .deleteFrom('leads')
      .where('team_id', '=', user.teamId)
      .where('uuid', '=', gone!.uuid)
      .execute();
    clock.set(new Date(clock.now().getTime() + 3_600_000));
    const readers = createLinkedInReaders({ db: ctx.db, config: ctx.config, clock });
    const run = await runEnrichment({ db: ctx.db, clock, readers }, user.teamId);
    expect(run.done).toBe(0);
    const entries = await ctx.db
      .selectFrom('enrichment_queue')
      .select(['object_uuid', 'status', 'error'])
      .where('team_id', '=', user.teamId)
      .where('object_uuid', 'in', [black!.uuid, gone!.uuid])
      .execute();
    expect(entries.map((e) => e.status)).toEqual(['failed', 'failed']);
    expect(entries.find((e) => e.object_uuid === black!.uuid)!.error).toContain('blacklisted');
    expect(entries.find((e) => e.object_uuid === gone!.uuid)!.error).toContain('no longer exists');
    const after = await ctx.services.identity.addCredits(user.teamId, 0);
    expect(Number(after.credits.advanced_enrichment)).toBe(Number(before.credits.advanced_enrichment));
  });
});
