// A seat's inbox read in its browser (the sync, src/modules/linkedin-messages/): see createChromiumInbox.
import type { Page, Response } from 'playwright-core';
import type { InboxItem, InboxPage, LinkedInInbox } from '../../channels/inbox.js';
import type { ReadOutcome } from '../../channels/reader.js';
import {
  type ChromiumOptions,
  type ChromiumSeat,
  type Pages,
  pages,
  present,
  stop,
} from './chromium-pages.js';
import { readFailure } from './chromium-reads.js';
import { connectedAt } from './connected-dates.js';
import { profileHandle, SELECTORS as S } from './linkedin-pages.js';
import { conversationsOf } from './messenger-json.js';

type InboxRow = {
  person: string;
  from: string;
  index: string;
  at: string;
  subject: string | null;
  text: string;
};

type ConnectionRow = { person: string; name: string; at: string };

/**
 * The messaging page's conversations, read-only. First the JSON the page itself fetches (LinkedIn's
 * messenger GraphQL call, messenger-json.ts): every conversation with its latest messages, nothing clicked
 * - opening a conversation would mark it read for the account. Else the DOM through locators, which
 * pierce open shadow roots (the overlay lives in one); rows that name no member (the real sidebar has no
 * links) give nothing, and a page showing neither is selector_miss.
 */
async function readMessaging(p: Pages, page: Page) {
  const fetched: Array<Promise<unknown>> = [];
  const listen = (response: Response) => {
    if (/messengerConversations/.test(response.url()) && response.ok())
      fetched.push(response.json().catch(() => null));
  };
  page.on('response', listen);
  try {
    const kind = await p.go(page, p.urls.inbox());
    if (kind !== 'messaging') stop('transient', `Expected the messaging page, got ${page.url()}.`);
    const list = page.locator(S.messaging.conversation);
    const seen = await p.until(
      page,
      [
        ['json', async () => fetched.length > 0],
        ['found', () => present(list)],
        ['empty', () => present(page.locator(S.emptyState))],
      ],
      p.contentTimeout,
    );
    if (seen === 'json') {
      const conversations = conversationsOf(await fetched[0]);
      if (conversations) {
        return {
          messages: conversations.flatMap((c) => c.messages),
          receipts: [] as Array<{ person: string; at: string }>,
          conversations: conversations.length,
        };
      }
    }
    if (seen === 'empty') return { messages: [], receipts: [], conversations: 0 };
    if (seen !== 'found')
      await p.miss(
        page,
        'messaging.conversation',
        `The messaging page showed neither its list nor an empty state (${page.url()}).`,
      );
    const messages: InboxRow[] = [];
    const receipts: Array<{ person: string; at: string }> = [];
    const count = await list.count();
    for (let i = 0; i < count; i += 1) {
      const conversation = list.nth(i);
      const person = (await conversation.getAttribute('data-person')) ?? '';
      const rows = await conversation.locator(S.messaging.event).evaluateAll(
        (nodes, sel) =>
          nodes.map((m) => ({
            from: m.getAttribute('data-from') ?? '',
            index: m.getAttribute('data-index') ?? '',
            at: m.querySelector('time')?.getAttribute('datetime') ?? '',
            subject: m.querySelector(sel.subject)?.textContent ?? null,
            text: m.querySelector(sel.body)?.textContent ?? '',
          })),
        { subject: S.messaging.eventSubject, body: S.messaging.eventBody },
      );
      messages.push(...rows.map((r) => ({ person, ...r })));
      const receipt = conversation.locator(S.messaging.seenReceipt).first();
      if (await present(receipt))
        receipts.push({ person, at: (await receipt.getAttribute('datetime')) ?? '' });
    }
    return { messages, receipts, conversations: count };
  } finally {
    page.off('response', listen);
  }
}

// Read receipts: a conversation's "seen" time becomes a `seen` item, so the seat's messages sent by then
// get their read_at (linkedin-ingest.ts markRead).

/**
 * A seat's inbox read in its browser (the sync, src/modules/linkedin-messages/): the messaging page's
 * conversations and the messages the other member wrote, and the connections page's connections (an
 * accepted invitation is a new connection, with its date), from a cursor (the latest time seen, over
 * both; items at that time are read again and stored once by the sync). The seat's own messages are left
 * out: the sends are stored when they are made. A connection the page shows without a date is skipped.
 */
export function createChromiumInbox(seat: ChromiumSeat, options: ChromiumOptions): LinkedInInbox {
  const p = pages(options, seat);
  return {
    name: 'chromium',
    async readSince(_context, cursor, limit): Promise<ReadOutcome<InboxPage>> {
      try {
        const rows = await options.browsers.use(seat.teamId, seat.seatId, async ({ page }) => {
          const { messages, receipts, conversations } = await readMessaging(p, page);
          const connectionsKind = await p.go(page, p.urls.connections());
          if (connectionsKind !== 'connections') {
            stop('transient', `Expected the connections page, got ${page.url()}.`);
          }
          await p.content(page, S.connections.card, 'connections page', 'connections.card');
          const cards = await page.locator(S.connections.card).evaluateAll(
            (nodes, sel) =>
              nodes.map((node) => ({
                person: node.getAttribute('data-person') ?? '',
                href: node.querySelector(sel.name)?.getAttribute('href') ?? '',
                name: node.querySelector(sel.name)?.textContent?.trim() ?? '',
                at: node.querySelector(sel.date)?.getAttribute('datetime') ?? '',
                text: node.textContent ?? '',
              })),
            { name: S.connections.name, date: S.connections.date },
          );
          // The server-driven cards name the member by link only and date it in text ("Connected 2 weeks ago").
          const now = new Date();
          const connections: ConnectionRow[] = cards.map((c) => ({
            person: c.person || profileHandle(c.href) || '',
            name: c.name,
            at: c.at || connectedAt(c.text, now)?.toISOString() || '',
          }));
          return { messages, receipts, connections, conversations };
        });
        const since = cursor ? Date.parse(cursor) : Number.NEGATIVE_INFINITY;
        const fromThem = (rows.messages as InboxRow[])
          .filter((r) => r.from !== 'me' && r.person && Date.parse(r.at) >= since)
          .map((r): { at: string; item: InboxItem } => ({
            at: r.at,
            item: {
              kind: 'message',
              id: `chromium:${r.person}:${r.index}`,
              conversationId: r.person,
              direction: 'inbox',
              member: { linkedin: r.person },
              text: r.text,
              subject: r.subject,
              linkedinType: r.subject ? 'InMail' : 'MEMBER_TO_MEMBER',
              sentAt: new Date(r.at),
            },
          }));
        const accepted = (rows.connections as ConnectionRow[])
          .filter((c) => c.person && Number.isFinite(Date.parse(c.at)) && Date.parse(c.at) >= since)
          .map((c): { at: string; item: InboxItem } => ({
            at: c.at,
            item: {
              kind: 'accepted',
              id: `chromium-connection:${c.person}`,
              member: { linkedin: c.person, full_name: c.name || null },
              at: new Date(c.at),
            },
          }));
        const seen = (rows.receipts as Array<{ person: string; at: string }>)
          .filter((r) => r.person && Number.isFinite(Date.parse(r.at)) && Date.parse(r.at) >= since)
          .map((r): { at: string; item: InboxItem } => ({
            at: r.at,
            item: {
              kind: 'seen',
              id: `chromium-seen:${r.person}:${r.at}`,
              conversationId: r.person,
              member: { linkedin: r.person },
              at: new Date(r.at),
            },
          }));
        const all = [...fromThem, ...accepted, ...seen].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
        const fresh = all.slice(0, limit);
        const last = fresh.at(-1);
        return {
          ok: true,
          value: {
            items: fresh.map((f) => f.item),
            cursor: last ? last.at : cursor,
            hasMore: all.length > limit,
            conversations: rows.conversations,
          },
        };
      } catch (error) {
        return readFailure(error, options);
      }
    },
  };
}
