// The replica's connections page in both layouts. Legacy: `li[data-field=connection]` with a
// `<time datetime>`. Server-driven (as linkedin.com, reference R7): cards `div[componentkey^=
// "auto-component"]` with hashed classes, the member named by its profile link only, the date as text in
// the account's language - "Connected 2 weeks ago" for recent ones, "Connected on November 20, 2026"
// before (German: "Vor 2 Wochen vernetzt", "Vernetzt am 20. November 2026").

const esc = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const DAY = 86_400_000;

/** "Connected ..." as LinkedIn words it, relative within a month. */
export function connectedText(at: string, now: Date, de = false): string {
  const ms = now.getTime() - Date.parse(at);
  const date = new Date(at);
  if (ms >= 30 * DAY) {
    const locale = de ? 'de-DE' : 'en-US';
    const shown = date.toLocaleDateString(locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    return de ? `Vernetzt am ${shown}` : `Connected on ${shown}`;
  }
  const [n, en, deUnit] =
    ms >= 7 * DAY
      ? [Math.floor(ms / (7 * DAY)), 'week', ['Woche', 'Wochen']]
      : [Math.max(1, Math.floor(ms / DAY)), 'day', ['Tag', 'Tagen']];
  return de
    ? `Vor ${n} ${deUnit[n === 1 ? 0 : 1]} vernetzt`
    : `Connected ${n} ${en}${n === 1 ? '' : 's'} ago`;
}

export type ConnectionCard = { slug: string; name: string; headline: string; at: string | null };

export function connectionCards(cards: ConnectionCard[], layout: 'legacy' | 'sdui', de = false): string {
  const now = new Date();
  if (layout === 'legacy') {
    return cards
      .map(
        (c) =>
          `<li data-field="connection" data-person="${esc(c.slug)}"><a href="/in/${esc(c.slug)}/">${esc(c.name)}</a><span>${esc(c.headline)}</span>${c.at ? `<time datetime="${esc(c.at)}">Connected on ${esc(c.at.slice(0, 10))}</time>` : ''}</li>`,
      )
      .join('');
  }
  return cards
    .map(
      (c, i) =>
        `<div componentkey="auto-component-${i}" class="_k${i}"><a class="_n" href="/in/${esc(c.slug)}/">${esc(c.name)}</a><p class="_h">${esc(c.headline)}</p>${c.at ? `<p class="_d">${esc(connectedText(c.at, now, de))}</p>` : ''}</div>`,
    )
    .join('');
}

/** Sent invitations per "page" of the server-driven list (a "Load more" button fetches the next). */
export const SENT_PAGE = 2;

/**
 * The sent invitations. Legacy: every card with its own confirm inside. Server-driven: SENT_PAGE cards at a
 * time and "Load more" (fetching the next ones, `?start=`), each card a profile link and the real withdraw
 * button; its confirm is a portal `<dialog open>` outside <main> (SENT_CONFIRM), labelled "Withdraw
 * invitation sent to <name>".
 */
export function sentCards(
  cards: Array<{ slug: string; name: string }>,
  layout: 'legacy' | 'sdui',
  start = 0,
): string {
  if (layout === 'legacy') {
    return cards
      .map(
        (c) => `<li data-field="invitation"><a href="/in/${esc(c.slug)}/">${esc(c.name)}</a>
              <button data-view-name="sent-invitations-withdraw-single" onclick="this.nextElementSibling.hidden=false">Withdraw</button>
              <div role="alertdialog" hidden><form method="post" action="/replica/withdraw"><input type="hidden" name="to" value="${esc(c.slug)}"><button type="submit" data-action="confirm">Withdraw</button></form></div></li>`,
      )
      .join('');
  }
  const shown = cards
    .slice(start, start + SENT_PAGE)
    .map(
      (c) =>
        `<li class="_s"><a class="_n" href="/in/${esc(c.slug)}/">${esc(c.name)}</a><button data-view-name="sent-invitations-withdraw-single" onclick="replicaWithdraw(${esc(JSON.stringify(c.slug))}, ${esc(JSON.stringify(c.name))})">Withdraw</button></li>`,
    )
    .join('');
  const more =
    start + SENT_PAGE < cards.length
      ? `<li class="_m"><button class="_lm" onclick="replicaLoadMore(this, ${start + SENT_PAGE})">Load more</button></li>`
      : '';
  return shown + more;
}

export const SENT_CONFIRM = `<dialog id="withdraw-confirm"><p>Withdraw invitation?</p><form method="post" action="/replica/withdraw" onsubmit="this.closest('dialog').close()"><input type="hidden" name="to" value=""><button type="submit">Withdraw</button></form></dialog>`;

/** The client side: the portal confirm and "Load more" (appends the next cards). */
export const NETWORK_SCRIPT = `
  function replicaWithdraw(slug, name) {
    const dialog = document.getElementById('withdraw-confirm');
    dialog.querySelector('[name=to]').value = slug;
    dialog.querySelector('button').setAttribute('aria-label', 'Withdraw invitation sent to ' + name);
    dialog.show();
  }
  async function replicaLoadMore(button, start) {
    const res = await fetch('/mynetwork/invitation-manager/sent/?fragment=1&start=' + start);
    const item = button.closest('li');
    item.insertAdjacentHTML('afterend', await res.text());
    item.remove();
  }`;
