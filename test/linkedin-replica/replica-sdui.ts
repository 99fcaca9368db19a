// The replica's server-driven profile ("sdui"), the layout LinkedIn serves beside the older one since 2025
// (shared/reference/linkedin-real-site.md §1.4): the top card found by its card id, the name in an <h2>,
// hashed class names and no data hooks, no #about; Connect is an anchor to the custom-invite route carrying
// the member's vanity (or sits in a More menu: an unlabelled button with aria-expanded, its menu a portal
// outside the card); the invitation dialog is an alertdialog with labelled buttons; a "People also viewed"
// rail lists OTHER members with their own invite links - a driver that clicks one invites a stranger.

export type SduiPerson = {
  slug: string;
  name: string;
  headline: string;
  location: string;
  /** The current company, linked from the top card. */
  company?: { slug: string; name: string };
};

const esc = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const invite = (slug: string) => `/preload/custom-invite/?vanityName=${encodeURIComponent(slug)}`;
/** Opens the invitation dialog for the member of the clicked link (as the real app intercepts the anchor). */
const opens = `onclick="event.preventDefault();replicaInvite(this.href)"`;

export function sduiProfile(input: {
  person: SduiPerson;
  relation: 'connected' | 'pending' | undefined;
  connectInMenu: boolean;
  followOnly: boolean;
  /** The invitation dialog (replica-invite.ts). */
  dialog: string;
  rail: SduiPerson[];
  notice: string;
}): string {
  const { person: p, relation } = input;
  const card = `com.linkedin.sdui.profile.card.ref${esc(p.slug.replace(/[^a-z0-9]/gi, ''))}Topcard`;
  let actions = '';
  if (relation === 'connected') {
    actions = `<a class="_b1x" href="/messaging/compose/?recipient=${esc(p.slug)}">Message</a>`;
  } else if (relation === 'pending') {
    actions = `<a class="_b1x" aria-label="Pending, click to withdraw invitation sent to ${esc(p.name)}" href="/mynetwork/invitation-manager/sent/">Pending</a>`;
  } else if (!input.followOnly && !input.connectInMenu) {
    actions = `<a class="_b2q" href="${invite(p.slug)}" ${opens}>Connect</a>`;
  }
  if (relation !== 'connected')
    actions += '<a class="_b3z" href="/premium/products/?upsellOrderOrigin=profile_message">Message</a>';
  actions += `<button class="_m9" aria-expanded="false" onclick="const m=document.getElementById('more-menu');m.hidden=!m.hidden;this.setAttribute('aria-expanded',String(!m.hidden))">…</button>`;
  const menu = `<div id="more-menu" role="menu" hidden>${
    input.connectInMenu && !relation && !input.followOnly
      ? `<a role="menuitem" href="${invite(p.slug)}" ${opens}>Connect</a>`
      : ''
  }<a role="menuitem" href="/in/${esc(p.slug)}/overlay/about-this-profile/">About this profile</a></div>`;
  const rail = input.rail
    .map(
      (o) =>
        `<li class="_r4"><a href="/in/${esc(o.slug)}/">${esc(o.name)}</a><p class="_r5">${esc(o.headline)}</p><a class="_b2q" href="${invite(o.slug)}" aria-label="Invite ${esc(o.name)} to connect" ${opens}>Connect</a></li>`,
    )
    .join('');
  return `${input.notice}<section id="${card}" componentkey="${card}" class="_t0p">
      <img class="_a7" src="/media/${esc(p.slug)}.png" alt="">
      <h2 class="_n4m">${esc(p.name)}</h2><p class="_h1">${esc(p.headline)}</p><p class="_l2">${esc(p.location)}</p>${
        p.company ? `<a class="_c3" href="/company/${esc(p.company.slug)}/">${esc(p.company.name)}</a>` : ''
      }
      <div class="_ac7">${actions}</div></section>${menu}${input.dialog}
      <aside class="_rail"><h2 class="_r0">People also viewed</h2><ul>${rail}</ul></aside>`;
}
