// How the replica's pages behave beyond their markup (replica.ts renders the markup):
// - spa: actions are fetch calls that patch the page in place, as on linkedin.com (the form posts of the
//   legacy replica navigate). The client follows the POST's redirect and swaps in the new <main>.
// - hydrationMs: content arrives after `domcontentloaded` (LinkedIn renders most of a page after XHR).
// - renamedHooks: every replica hook renamed - a layout this driver does not know (reads must fail loudly).
// - a Premium link in the sidebar of every signed-in page (as on real pages: not an upsell).
// Faults injected AFTER an action was received (hang: no answer; error: an error page and toast) live in
// replica.ts, where actions are recorded.

import { MESSENGER_SCRIPT, type MessagingVariant } from './replica-messaging.js';
import { NETWORK_SCRIPT } from './replica-network.js';

export type ReplicaMode = {
  spa?: boolean;
  /** The profile page's layout: the older one (default) or the server-driven one (replica-sdui.ts). */
  layout?: 'legacy' | 'sdui';
  hydrationMs?: number;
  renamedHooks?: boolean;
  /** The messaging page: hooks inline (legacy), inside a shadow root, or LinkedIn's overlay (replica-messaging.ts). */
  messaging?: MessagingVariant;
};

/** Scripts of every page: the composer's upload (kept outside <main>, which gets replaced) and SPA forms. */
function shellScript(mode: ReplicaMode): string {
  const upload = `
    async function replicaUpload(input) {
      const form = input.form;
      for (const file of Array.from(input.files)) {
        const res = await fetch('/replica/upload?name=' + encodeURIComponent(file.name), {
          method: 'POST', headers: { 'content-type': file.type || 'application/octet-stream' }, body: file,
        });
        const { id } = await res.json();
        const ref = document.createElement('input');
        ref.type = 'hidden'; ref.name = 'attachment'; ref.value = id;
        form.appendChild(ref);
        const chip = document.createElement('li');
        chip.setAttribute('data-field', 'attachment'); chip.setAttribute('data-name', file.name);
        chip.textContent = file.name;
        form.querySelector('[data-field=attachments]').appendChild(chip);
      }
      input.value = '';
    }
    // The server-driven profile's invite links open the invitation dialog in place (replica-sdui.ts).
    function replicaInvite(href) {
      const dialog = document.getElementById('invite');
      dialog.querySelector('[name=to]').value = new URL(href).searchParams.get('vanityName');
      dialog.hidden = false;
      document.getElementById('more-menu').hidden = true;
    }`;
  const spa = mode.spa
    ? `
    document.addEventListener('submit', async (event) => {
      const form = event.target;
      if (!form.getAttribute('action')?.startsWith('/replica/')) return;
      event.preventDefault();
      const res = await fetch(form.action, {
        method: 'POST', body: new URLSearchParams(new FormData(form)), headers: { 'x-replica-spa': '1' },
      });
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      const next = doc.getElementById('hydrate')?.content ?? doc.querySelector('main');
      document.querySelector('main').replaceChildren(...Array.from(next.childNodes).map((n) => document.importNode(n, true)));
    });`
    : '';
  return `<script>${upload}${spa}${MESSENGER_SCRIPT}${NETWORK_SCRIPT}</script>`;
}

/** The final HTML of a replica page under `mode`. */
export function shape(html: string, mode: ReplicaMode): string {
  let out = html.replace('</head>', `${shellScript(mode)}</head>`);
  if (mode.hydrationMs && out.includes('<main>')) {
    const start = out.indexOf('<main>') + '<main>'.length;
    const end = out.lastIndexOf('</main>');
    const body = out.slice(start, end);
    const ms = mode.hydrationMs;
    out = `${out.slice(0, start)}</main><template id="hydrate">${body}</template><script>setTimeout(() => {
      document.querySelector('main').replaceChildren(document.getElementById('hydrate').content.cloneNode(true));
    }, ${Math.round(ms / 2)} + Math.random() * ${Math.round(ms / 2)})</script>${out.slice(end + '</main>'.length)}`;
  }
  if (mode.renamedHooks) {
    out = out
      .replace(/data-field=/g, 'data-fld=')
      .replace(/data-member-id=/g, 'data-mid=')
      .replace(/data-company-id=/g, 'data-cid=')
      .replace(/data-urn=/g, 'data-u=')
      .replace(/data-view-name=/g, 'data-vn=');
  }
  return out;
}
