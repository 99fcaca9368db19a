// The replica's messaging page in three variants (ReplicaMode.messaging):
// - legacy (default): every conversation with its messages inline, the replica's data hooks.
// - shadow: the same list inside LinkedIn's open shadow root `div#interop-outlet[data-testid=
//   "interop-shadowdom"]` (real: the overlay and composer live there) - `querySelectorAll` from the
//   document does not see it; Playwright locators do.
// - overlay: as linkedin.com (shared/reference/linkedin-real-site.md R5): the page fetches the
//   conversations as JSON (a Voyager messenger GraphQL call) and renders a sidebar of rows WITHOUT links,
//   thread ids or member hooks inside the shadow root; only the open thread's messages are in the DOM, and
//   opening a conversation (a click on its row) marks it read - recorded in `markedRead`, so tests can
//   assert a read left the account's read state alone.
// The JSON follows the shape reported for `messengerConversations` (conversationParticipants,
// participantType.member.profileUrl, messages.elements with deliveredAt, body.text, sender) - UNVERIFIED.

export type ReplicaMessage = { from: 'me' | 'them'; text: string; subject?: string; at: string };
export type MessagingVariant = 'legacy' | 'shadow' | 'overlay';

const esc = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export const OUTLET = 'id="interop-outlet" data-testid="interop-shadowdom"';
export const CONVERSATIONS_PATH = '/voyager/api/voyagerMessagingGraphQL/graphql';

type Who = { slug: string; urnId: string; firstName: string; lastName: string };

/** The legacy list: each conversation with its messages and the other member's "seen" receipt. */
export function legacyList(threads: Record<string, ReplicaMessage[]>, seen: Record<string, string>): string {
  return Object.entries(threads)
    .map(
      ([slug, messages]) =>
        `<li data-field="conversation" data-person="${esc(slug)}"><a href="/in/${esc(slug)}/">${esc(slug)}</a><ul>${messages
          .map(
            (m, i) =>
              `<li data-field="message" data-from="${m.from}" data-index="${i}"><time datetime="${m.at}">${m.at}</time>${m.subject ? `<h4 data-field="message-subject">${esc(m.subject)}</h4>` : ''}<p data-field="message-body">${esc(m.text)}</p></li>`,
          )
          .join(
            '',
          )}</ul>${seen[slug] ? `<time data-field="seen-receipt" datetime="${esc(seen[slug])}">Seen ${esc(seen[slug])}</time>` : ''}</li>`,
    )
    .join('');
}

/** What the messaging page shows inside <main> and after it (the shadow root's host). */
export function messagingPage(
  variant: MessagingVariant,
  list: string,
  empty: string,
): { main: string; after: string } {
  if (variant === 'legacy') return { main: list ? `<ul>${list}</ul>` : empty, after: '' };
  if (variant === 'shadow') {
    return {
      main: '<h1>Messaging</h1>',
      after: `<div ${OUTLET}><template shadowrootmode="open"><section>${list ? `<ul>${list}</ul>` : empty}</section></template></div>`,
    };
  }
  return {
    main: '<h1>Messaging</h1>',
    after: `<div ${OUTLET}></div><script>replicaMessenger(${JSON.stringify(empty)})</script>`,
  };
}

const conversationUrn = (me: number, slug: string) =>
  `urn:li:msg_conversation:(urn:li:fsd_profile:ME${me},2-${Buffer.from(slug).toString('base64url')})`;

/** The conversations as the page fetches them (JSON), newest message last in each. */
export function conversationsJson(
  me: { memberId: number },
  threads: Record<string, ReplicaMessage[]>,
  people: (slug: string) => Who | undefined,
  read: Record<string, string>,
) {
  const self = `urn:li:fsd_profile:ME${me.memberId}`;
  const elements = Object.entries(threads).flatMap(([slug, messages]) => {
    const p = people(slug);
    if (!p) return [];
    const member = (who: Who) => ({
      profileUrl: `https://www.linkedin.com/in/${who.slug}`,
      firstName: { text: who.firstName },
      lastName: { text: who.lastName },
    });
    const other = {
      hostIdentityUrn: `urn:li:fsd_profile:${p.urnId}`,
      participantType: { member: member(p) },
    };
    const lastRead = Date.parse(read[slug] ?? '') || 0;
    return [
      {
        entityUrn: conversationUrn(me.memberId, slug),
        unreadCount: messages.filter((m) => m.from === 'them' && Date.parse(m.at) > lastRead).length,
        conversationParticipants: [{ hostIdentityUrn: self }, other],
        messages: {
          elements: messages.map((m, i) => ({
            entityUrn: `urn:li:msg_message:(urn:li:fsd_profile:ME${me.memberId},${slug}-${i})`,
            deliveredAt: Date.parse(m.at),
            subject: m.subject ?? null,
            body: { text: m.text },
            sender: m.from === 'me' ? { hostIdentityUrn: self } : other,
          })),
        },
      },
    ];
  });
  return { data: { messengerConversationsBySyncToken: { elements } } };
}

/** The overlay's client: the sidebar from the JSON (no links), a click opens the thread and marks it read. */
export const MESSENGER_SCRIPT = `
  async function replicaMessenger(empty) {
    const root = document.getElementById('interop-outlet').attachShadow({ mode: 'open' });
    const res = await fetch('${CONVERSATIONS_PATH}?queryId=messengerConversations.replica');
    const elements = (await res.json()).data.messengerConversationsBySyncToken.elements;
    if (elements.length === 0) { root.innerHTML = empty; return; }
    const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
    root.innerHTML = '<ul class="_s1">' + elements.map((c, i) => {
      const m = c.conversationParticipants[1].participantType.member;
      const last = c.messages.elements.at(-1);
      return '<li class="_r' + i + '"><div role="button" tabindex="0" data-i="' + i + '"><h3>' + esc(m.firstName.text + ' ' + m.lastName.text) +
        '</h3><p>' + esc(last ? last.body.text : '') + '</p>' + (c.unreadCount ? '<span class="_u">' + c.unreadCount + '</span>' : '') + '</div></li>';
    }).join('') + '</ul><div class="_t"></div>';
    root.addEventListener('click', async (event) => {
      const row = event.target.closest('[data-i]');
      if (!row) return;
      const c = elements[Number(row.getAttribute('data-i'))];
      await fetch('/replica/messaging/read?conversation=' + encodeURIComponent(c.entityUrn), { method: 'POST' });
      root.querySelector('._t').innerHTML = c.messages.elements.map((m) => '<p class="_m">' + esc(m.body.text) + '</p>').join('');
    });
  }`;

/** The member slug of a conversation urn the overlay opened. */
export function slugOfConversation(urn: string): string | null {
  const match = /,2-([A-Za-z0-9_-]+)\)$/.exec(urn);
  return match ? Buffer.from(match[1]!, 'base64url').toString('utf8') : null;
}
