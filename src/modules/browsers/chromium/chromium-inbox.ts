// A seat's inbox read in its browser (the sync, src/modules/linkedin-messages/): see createChromiumInbox.
import type { InboxItem, InboxPage, LinkedInInbox } from '../../channels/inbox.js';
import type { ReadOutcome } from '../../channels/reader.js';
import { type ChromiumOptions, type ChromiumSeat, pages, stop } from './chromium-pages.js';
import { readFailure } from './chromium-reads.js';
import { SELECTORS as S } from './linkedin-pages.js';

type InboxRow = {
  person: string;
  from: string;
  index: string;
  at: string;
  subject: string | null;
  text: string;
};

type ConnectionRow = { person: string; name: string; at: string };

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
          const kind = await p.go(page, p.urls.inbox());
          if (kind !== 'messaging') stop('transient', `Expected the messaging page, got ${page.url()}.`);
          // The conversation list, or LinkedIn's empty inbox: neither in time is selector_miss, not "no news".
          const inbox = await p.content(
            page,
            S.messaging.conversation,
            'messaging page',
            'messaging.conversation',
          );
          const conversations = inbox === 'empty' ? 0 : await page.locator(S.messaging.conversation).count();
          const messages = await page.locator(S.messaging.conversation).evaluateAll(
            (nodes, sel) =>
              nodes.flatMap((node) => {
                // An index loop: NodeList iteration needs a DOM lib this build does not load.
                const events = node.querySelectorAll(sel.event);
                const found = [];
                for (let i = 0; i < events.length; i += 1) {
                  const m = events.item(i);
                  found.push({
                    person: node.getAttribute('data-person') ?? '',
                    from: m.getAttribute('data-from') ?? '',
                    index: m.getAttribute('data-index') ?? '',
                    at: m.querySelector('time')?.getAttribute('datetime') ?? '',
                    subject: m.querySelector(sel.subject)?.textContent ?? null,
                    text: m.querySelector(sel.body)?.textContent ?? '',
                  });
                }
                return found;
              }),
            { event: S.messaging.event, subject: S.messaging.eventSubject, body: S.messaging.eventBody },
          );
          const receipts = await page.locator(S.messaging.conversation).evaluateAll(
            (nodes, sel) =>
              nodes.map((node) => ({
                person: node.getAttribute('data-person') ?? '',
                at: node.querySelector(sel)?.getAttribute('datetime') ?? '',
              })),
            S.messaging.seenReceipt,
          );
          const connectionsKind = await p.go(page, p.urls.connections());
          if (connectionsKind !== 'connections') {
            stop('transient', `Expected the connections page, got ${page.url()}.`);
          }
          await p.content(page, S.connections.card, 'connections page', 'connections.card');
          const connections = await page.locator(S.connections.card).evaluateAll(
            (nodes, sel) =>
              nodes.map((node) => ({
                person: node.getAttribute('data-person') ?? '',
                name: node.querySelector(sel.name)?.textContent?.trim() ?? '',
                at: node.querySelector(sel.date)?.getAttribute('datetime') ?? '',
              })),
            { name: S.connections.name, date: S.connections.date },
          );
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
