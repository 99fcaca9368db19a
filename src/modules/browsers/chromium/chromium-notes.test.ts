// Invitation notes as a free or Premium LinkedIn account takes them, on the server-driven replica whose
// dialog enforces the same limits (200 characters free, 300 Premium, a monthly note quota, profiles that
// require a note): a note too long fails the step and nothing is sent, never a cut note; the seat counts
// its notes so the quota is predicted without opening the dialog; `note_quota` fails the step or sends the
// invitation without its note, as the seat says; LinkedIn's own refusal is counted as well. Then the sent
// invitations of the server-driven list: parts behind "Load more", the confirm a portal dialog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import type { ChannelDriver } from '../../channels/driver.js';
import { seatNotes } from '../seat-notes.js';
import { createChromiumDriver } from './chromium-driver.js';
import { openReplicaSeat, type ReplicaSeat, replicaActionRequest } from './replica-seat.test-support.js';
import { guardLoopback } from './test-guard.js';

describe('invitation notes of a free and a Premium seat', { timeout: 120_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  let driver: ChannelDriver;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica(undefined, { spa: true, layout: 'sdui', hydrationMs: 300 });
    replica.state.people[5]!.noteRequired = true;
    seat = await openReplicaSeat(ctx, replica, guard, { account: me });
    const ids = { teamId: seat.teamId, seatId: seat.seatId };
    driver = createChromiumDriver(ids, {
      browsers: seat.browsers,
      baseUrl: replica.url,
      timeoutMs: 10_000,
      notes: seatNotes(ctx.db, ids),
    });
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  const invite = (slug: string, text: string | null) =>
    driver.perform(replicaActionRequest(seat, 'linkedin_send_connection_request', slug, { text }));
  const invites = () => replica.actions('invite');
  const setSeat = (values: {
    linkedin_premium?: boolean;
    note_quota_action?: 'fail' | 'send_without_note';
    free_notes_per_month?: number;
  }) => ctx.db.updateTable('linkedin_browsers').set(values).where('id', '=', seat.seatId).execute();
  const seatRow = () =>
    ctx.db
      .selectFrom('linkedin_browsers')
      .select(['notes_sent_at', 'note_quota_refused_at'])
      .where('id', '=', seat.seatId)
      .executeTakeFirstOrThrow();

  it('fails a note longer than the account takes, sending nothing; Premium takes 300 characters', async () => {
    const long = 'x'.repeat(250);
    expect(await invite('person-0', long)).toMatchObject({
      ok: false,
      reason: 'restricted',
      message: expect.stringContaining('at most 200'),
    });
    // The seat believes it is Premium, LinkedIn's field (maxlength 200) does not: no cut note goes out.
    await setSeat({ linkedin_premium: true });
    expect(await invite('person-0', long)).toMatchObject({
      ok: false,
      reason: 'restricted',
      message: expect.stringContaining('took 200 of'),
    });
    expect(invites()).toEqual([]);
    replica.state.accounts[0]!.premium = true;
    expect(await invite('person-0', long)).toMatchObject({ ok: true });
    expect(invites().map((a) => a.note)).toEqual([long]);
    replica.state.accounts[0]!.premium = false;
    await setSeat({ linkedin_premium: false });
  });

  it('predicts the monthly quota from its own count: fails, or sends without the note', async () => {
    await setSeat({ free_notes_per_month: 2 });
    expect(await invite('person-1', 'Hi 1')).toMatchObject({ ok: true });
    expect((await seatRow()).notes_sent_at).toHaveLength(2);
    const visits = replica.actions('visit').length;
    expect(await invite('person-2', 'Hi 2')).toMatchObject({
      ok: false,
      reason: 'note_quota',
      message: expect.stringContaining('predicted'),
    });
    // Not even the profile was opened.
    expect(replica.actions('visit')).toHaveLength(visits);
    await setSeat({ note_quota_action: 'send_without_note' });
    expect(await invite('person-2', 'Hi 2')).toMatchObject({
      ok: true,
      detail: { note_dropped: expect.stringContaining('no personalised invitations left') },
    });
    expect(invites().map((a) => [a.to, a.note])).toEqual([
      ['person-0', 'x'.repeat(250)],
      ['person-1', 'Hi 1'],
      ['person-2', null],
    ]);
  });

  it('counts LinkedIn refusing a note (its upsell) and follows the seat setting', async () => {
    await setSeat({ free_notes_per_month: 50, note_quota_action: 'fail' });
    replica.state.accounts[0]!.noteQuota = 2;
    expect(await invite('person-3', 'Hi 3')).toMatchObject({ ok: false, reason: 'note_quota' });
    expect((await seatRow()).note_quota_refused_at).not.toBeNull();
    // The refusal is now part of the prediction.
    await setSeat({ note_quota_action: 'send_without_note', free_notes_per_month: 50 });
    expect(await invite('person-3', 'Hi 3')).toMatchObject({
      ok: true,
      detail: { note_dropped: expect.any(String) },
    });
    // LinkedIn's refusal met live (no prediction): the invitation goes again without the note, once.
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ note_quota_refused_at: null })
      .where('id', '=', seat.seatId)
      .execute();
    expect(await invite('person-4', 'Hi 4')).toMatchObject({
      ok: true,
      detail: { note_dropped: expect.any(String) },
    });
    expect(
      invites()
        .slice(-2)
        .map((a) => [a.to, a.note]),
    ).toEqual([
      ['person-3', null],
      ['person-4', null],
    ]);
  });

  it('a profile that requires a note takes one, and fails an invitation without', async () => {
    replica.state.accounts[0]!.noteQuota = 100;
    await ctx.db
      .updateTable('linkedin_browsers')
      .set({ note_quota_refused_at: null })
      .where('id', '=', seat.seatId)
      .execute();
    const before = invites().length;
    expect(await invite('person-5', null)).toMatchObject({ ok: false, reason: 'not_connectable' });
    expect(invites()).toHaveLength(before);
    expect(await invite('person-5', 'We met at the fair')).toMatchObject({ ok: true });
    expect(
      invites()
        .slice(before)
        .map((a) => [a.to, a.note]),
    ).toEqual([['person-5', 'We met at the fair']]);
  });

  it('withdraws an invitation past the first part of the list (Load more), through the portal confirm', async () => {
    // Six pending invitations, two per part: person-4 shows after two "Load more".
    const request = replicaActionRequest(seat, 'linkedin_withdraw_connection_request', 'person-4');
    expect(await driver.perform(request)).toEqual({ ok: true });
    expect(replica.actions('withdraw').map((a) => a.to)).toEqual(['person-4']);
    expect(replica.state.relations[me]?.['person-4']).toBeUndefined();
    expect(await driver.checkOutcome(request)).toBe('done');
  });
});
