// The driver against the replica behaving like linkedin.com: actions are fetch calls that patch the page in
// place (no navigation), content hydrates after `domcontentloaded`, every page has Premium links in its
// sidebar. Each action goes out exactly once - counted on the replica's side - also when the replica never
// answers (or answers an error) after receiving it: the driver then says `unconfirmed` and the outcome
// check finds it done. A layout the driver does not know makes reads fail with `selector_miss`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import type { ActionRequest, ActionType, ChannelDriver } from '../../channels/driver.js';
import type { LinkedInReader } from '../../channels/reader.js';
import { createChromiumDriver, createChromiumInbox, createChromiumReader } from './chromium-driver.js';
import {
  openReplicaSeat,
  type ReplicaSeat,
  type RequestFields,
  replicaActionRequest,
} from './replica-seat.test-support.js';
import { guardLoopback } from './test-guard.js';

describe('the Chromium driver on a single-page replica', { timeout: 180_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  let driver: ChannelDriver;
  /** The same driver waiting less for content (for the unknown layout, which never shows). */
  let quick: ChannelDriver;
  /** The same driver waiting less for confirmations (the injected faults never confirm). */
  let faulty: ChannelDriver;
  let reader: LinkedInReader;
  let inbox: ReturnType<typeof createChromiumInbox>;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica(undefined, { spa: true, hydrationMs: 400 });
    seat = await openReplicaSeat(ctx, replica, guard, { account: me });
    // Generous waits where something is expected to show: a confirmation returns as soon as it does.
    const options = { browsers: seat.browsers, baseUrl: replica.url, timeoutMs: 20_000 };
    const ids = { teamId: seat.teamId, seatId: seat.seatId };
    driver = createChromiumDriver(ids, options);
    // The injected faults never confirm (a hang shows nothing, an error shows a toast, which ends the
    // wait at once), so a short confirmation wait loses nothing there.
    faulty = createChromiumDriver(ids, { ...options, confirmTimeoutMs: 1_000 });
    // The unknown layout never shows its content: reads wait 2 s for it (the replica hydrates in 0.4 s).
    const unknownLayout = { ...options, contentTimeoutMs: 2_000 };
    reader = createChromiumReader(ids, {
      ...unknownLayout,
      pace: { profileIntervalMs: 0, searchPageIntervalMs: 0, profilesPerDay: 0, searchPagesPerDay: 0 },
    });
    inbox = createChromiumInbox(ids, unknownLayout);
    quick = createChromiumDriver(ids, unknownLayout);
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  const request = (type: ActionType, slug: string, fields?: RequestFields) =>
    replicaActionRequest(seat, type, slug, fields);
  const connect = (slug: string) => {
    replica.state.relations[me] = { ...replica.state.relations[me], [slug]: 'connected' };
  };
  const sent = () => replica.state.actions.filter((a) => a.type !== 'visit');

  it('does every action once, confirmed by the page patched in place, never by a navigation', async () => {
    expect(
      await driver.perform(request('linkedin_send_connection_request', 'person-0', { text: 'Hi!' })),
    ).toEqual({ ok: true, remoteRef: 'invitation:person-0' });
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-7'))).toMatchObject({
      ok: true,
    });
    connect('person-2');
    // A Premium link in the sidebar is no upsell: the message goes out. With the contact's profile id the
    // composer opens as the real site's (profileUrn + recipient id), and it reaches that very member.
    const hello = request('linkedin_send_message', 'person-2', { text: 'Hello 2' });
    hello.lead.ln_id = 'ACoAAP0002';
    expect(await driver.perform(hello)).toMatchObject({ ok: true });
    expect(await driver.checkOutcome(hello)).toBe('done');
    expect(await driver.perform(request('linkedin_like_latest_post', 'person-3'))).toMatchObject({
      ok: true,
    });
    expect(
      await driver.perform(request('linkedin_comment_latest_post', 'person-3', { text: 'Nice one' })),
    ).toMatchObject({ ok: true });
    expect(
      await driver.perform(request('linkedin_endorse_skills', 'person-2', { options: { number: 2 } })),
    ).toMatchObject({ ok: true, detail: { endorsed: ['TypeScript', 'PostgreSQL'] } });
    expect(await driver.perform(request('linkedin_withdraw_connection_request', 'person-7'))).toMatchObject({
      ok: true,
    });
    expect(sent().map((a) => `${a.type}:${'to' in a ? a.to : a.post}`)).toEqual([
      'invite:person-0',
      'invite:person-7',
      'message:person-2',
      'like:7000032',
      'comment:7000032',
      'endorse:person-2',
      'endorse:person-2',
      'withdraw:person-7',
    ]);
    // Again: each is already done, nothing more goes out.
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-0'))).toMatchObject({
      ok: false,
      reason: 'pending',
    });
    expect(await driver.perform(request('linkedin_like_latest_post', 'person-3'))).toMatchObject({
      reason: 'nothing_to_do',
    });
    expect(await driver.perform(request('linkedin_withdraw_connection_request', 'person-7'))).toMatchObject({
      reason: 'nothing_to_do',
    });
    expect(sent()).toHaveLength(8);
  });

  it('refuses a note over the free quota when LinkedIn swaps the dialog for an upsell at Send', async () => {
    const account = replica.state.accounts.find((a) => a.slug === me)!;
    account.noteQuota = 1;
    const before = sent().length;
    expect(
      await driver.perform(request('linkedin_send_connection_request', 'person-1', { text: 'A note' })),
    ).toMatchObject({ ok: false, reason: 'note_quota' });
    account.noteQuota = 100;
    expect(sent()).toHaveLength(before);
  });

  it('on the server-driven profile it connects through the target’s own invite link only, never the rail’s', async () => {
    replica.mode.layout = 'sdui';
    try {
      const before = replica.actions('invite').length;
      expect(
        await driver.perform(
          request('linkedin_send_connection_request', 'person-1', { text: 'Hello from SDUI' }),
        ),
      ).toMatchObject({ ok: true });
      // Connect behind the unlabelled More (aria-expanded), without a note.
      expect(await driver.perform(request('linkedin_send_connection_request', 'person-7'))).toMatchObject({
        ok: true,
      });
      expect(await driver.perform(request('linkedin_send_connection_request', 'person-8'))).toMatchObject({
        ok: false,
        reason: 'not_connectable',
      });
      expect(await driver.perform(request('linkedin_send_connection_request', 'person-1'))).toMatchObject({
        ok: false,
        reason: 'pending',
      });
      // Every invitation went to its target: the "People also viewed" rail's invite links were never clicked.
      expect(replica.actions('invite').slice(before)).toEqual([
        expect.objectContaining({ to: 'person-1', note: 'Hello from SDUI' }),
        expect.objectContaining({ to: 'person-7', note: null }),
      ]);
      expect(await driver.checkOutcome(request('linkedin_send_connection_request', 'person-1'))).toBe('done');
      const context = { teamId: seat.teamId, senderProfileUuid: seat.senderUuid, at: new Date() };
      expect(await reader.getProfile(context, { linkedin: 'person-9' })).toMatchObject({
        ok: true,
        value: { name: 'First9 Last9', linkedin: 'person-9' },
      });
    } finally {
      replica.mode.layout = 'legacy';
    }
  });

  for (const fault of ['hang', 'error'] as const) {
    it(`an action the replica received but never confirmed (${fault}) is unconfirmed, done once`, async () => {
      connect('person-4');
      const cases: Array<[ActionRequest, string]> = [
        [request('linkedin_send_connection_request', fault === 'hang' ? 'person-5' : 'person-6'), 'invite'],
        [request('linkedin_send_message', 'person-4', { text: `Are you there (${fault})?` }), 'message'],
        [request('linkedin_like_latest_post', fault === 'hang' ? 'person-5' : 'person-6'), 'like'],
        [request('linkedin_comment_latest_post', 'person-4', { text: `Agreed (${fault})` }), 'comment'],
      ];
      for (const [action, type] of cases) {
        const before = replica.state.actions.filter((a) => a.type === type).length;
        replica.faults.afterAction = fault;
        const outcome = await faulty.perform(action);
        replica.faults.afterAction = null;
        expect(outcome, type).toMatchObject({
          ok: false,
          reason: 'unconfirmed',
          // An error toast ends the wait at once; silence waits out the confirmation time.
          message:
            fault === 'error' ? expect.stringMatching(/error/i) : expect.stringMatching(/no confirmation/),
        });
        expect(
          replica.state.actions.filter((a) => a.type === type),
          type,
        ).toHaveLength(before + 1);
        // The engine asks the outcome check (never retries blind): it finds the action done.
        expect(await driver.checkOutcome(action), type).toBe('done');
      }
    });
  }

  it('a page of the right kind whose hooks it does not know fails reads loudly (selector_miss), never empty', async () => {
    const context = { teamId: seat.teamId, senderProfileUuid: seat.senderUuid, at: new Date() };
    const search = {
      type: 'ln_leads_search' as const,
      url: 'https://www.linkedin.com/search/results/people/?keywords=',
    };
    // Known layout: an empty search is an empty page, not a failure.
    expect(
      await reader.searchPage(context, { ...search, url: `${search.url}nobody-matches-this` }, 1),
    ).toMatchObject({ ok: true, value: { people: [] } });
    replica.mode.renamedHooks = true;
    try {
      expect(await reader.getProfile(context, { linkedin: 'person-1' })).toMatchObject({
        ok: false,
        reason: 'selector_miss',
      });
      expect(await reader.getCompany(context, { linkedin: 'acme' })).toMatchObject({
        reason: 'selector_miss',
      });
      expect(await reader.searchPage(context, search, 1)).toMatchObject({ reason: 'selector_miss' });
      expect(await inbox.readSince(context, null, 50)).toMatchObject({ ok: false, reason: 'selector_miss' });
      // An action before its irreversible step: nothing sent, retried later.
      const before = sent().length;
      expect(await quick.perform(request('linkedin_send_connection_request', 'person-1'))).toMatchObject({
        ok: false,
        reason: 'transient',
        message: expect.stringMatching(/^selector_miss/),
      });
      expect(sent()).toHaveLength(before);
    } finally {
      replica.mode.renamedHooks = false;
    }
  });
});
