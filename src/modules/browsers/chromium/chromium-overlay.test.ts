// The inbox read on LinkedIn's messaging shapes: the conversation list inside the open shadow root
// `#interop-outlet` (locators pierce it), and the real overlay - a sidebar without links or ids whose
// conversations the page fetches as JSON, where opening one marks it read. The read takes the JSON and
// clicks nothing: the account's read state stays as it was (counted on the replica). Connections on the
// server-driven page: cards named by their link, dated in text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import type { LinkedInInbox } from '../../channels/inbox.js';
import { createChromiumInbox } from './chromium-driver.js';
import { openReplicaSeat, type ReplicaSeat } from './replica-seat.test-support.js';
import { guardLoopback } from './test-guard.js';

describe('the inbox read inside LinkedIn’s messaging overlay', { timeout: 120_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  let inbox: LinkedInInbox;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica(undefined, { spa: true, hydrationMs: 300, messaging: 'shadow' });
    seat = await openReplicaSeat(ctx, replica, guard, { account: me });
    inbox = createChromiumInbox(
      { teamId: seat.teamId, seatId: seat.seatId },
      { browsers: seat.browsers, baseUrl: replica.url, timeoutMs: 10_000 },
    );
    replica.state.threads[me] = {
      'person-0': [
        { from: 'me', text: 'Hi there', at: '2026-11-20T10:00:00.000Z' },
        { from: 'them', text: 'Hello, tell me more', at: '2026-11-20T11:00:00.000Z' },
      ],
      'person-1': [{ from: 'them', text: 'Who are you?', subject: 'Hi', at: '2026-11-21T09:00:00.000Z' }],
    };
    replica.accept(me, 'person-2', '2026-11-19T08:00:00.000Z');
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  const read = async () => {
    const outcome = await inbox.readSince(
      { teamId: seat.teamId, senderProfileUuid: seat.senderUuid, at: new Date() },
      null,
      50,
    );
    if (!outcome.ok) throw new Error(`${outcome.reason}: ${outcome.message}`);
    return outcome.value;
  };
  const replies = (items: Awaited<ReturnType<typeof read>>['items']) =>
    items.flatMap((i) => (i.kind === 'message' ? [[i.conversationId, i.text, i.subject]] : []));

  it('reads the list inside the open shadow root (document queries would not see it)', async () => {
    const page = await read();
    expect(replies(page.items)).toEqual([
      ['person-0', 'Hello, tell me more', null],
      ['person-1', 'Who are you?', 'Hi'],
    ]);
    expect(page.conversations).toBe(2);
    expect(page.items.filter((i) => i.kind === 'accepted')).toHaveLength(1);
  });

  it('reads the overlay from the JSON the page fetched, opening no conversation', async () => {
    replica.mode.messaging = 'overlay';
    const page = await read();
    expect(replies(page.items)).toEqual([
      ['person-0', 'Hello, tell me more', null],
      ['person-1', 'Who are you?', 'Hi'],
    ]);
    expect(page.conversations).toBe(2);
    // Nothing was opened: both conversations are still unread for the account.
    expect(replica.state.markedRead).toBeUndefined();
    const ids = page.items.flatMap((i) => (i.kind === 'message' ? [i.id] : []));
    expect(ids[0]).toMatch(/^chromium:person-0:urn:li:msg_message:/);
    // The replica's overlay does mark a conversation read when it is opened (what the read avoids).
    await seat.browsers.use(seat.teamId, seat.seatId, async ({ page: tab }) => {
      await tab.goto(`${replica.url}/messaging/`);
      await tab.locator('#interop-outlet [role="button"]').first().click();
      await tab.locator('#interop-outlet ._m').first().waitFor();
    });
    expect(Object.keys(replica.state.markedRead?.[me] ?? {})).toEqual(['person-0']);
  });

  it('reads server-driven connection cards: the member by link, the date from its text', async () => {
    replica.mode.layout = 'sdui';
    // Nine and ten days ago: both "Connected 1 week ago".
    replica.accept(me, 'person-2', new Date(Date.now() - 9 * 86_400_000).toISOString());
    replica.accept(me, 'person-3', new Date(Date.now() - 10 * 86_400_000).toISOString());
    replica.accept(me, 'person-4', '2026-05-02T15:00:00.000Z');
    const accepted = (await read()).items.flatMap((i) =>
      i.kind === 'accepted' ? [[i.member.linkedin, i.at.toISOString().slice(0, 10)]] : [],
    );
    // "Connected 1 week ago" is as precise as its unit; "Connected on May 2, 2026" a day.
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    expect(accepted).toEqual([
      ['person-4', '2026-05-02'],
      ['person-2', weekAgo],
      ['person-3', weekAgo],
    ]);
  });
});
