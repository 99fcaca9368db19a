// The replica's invitation dialog, in both layouts (legacy: role=dialog with the replica's data hooks;
// sdui: an alertdialog with labelled buttons, as linkedin.com). Its variants follow the real site
// (shared/reference/linkedin-real-site.md, risk 6): "Add a note" or "Send without a note"; the note
// field's limit is the account's (200 characters free, 300 Premium: the field's maxlength, and the
// server refuses longer); a free account out of notes sees a Premium upsell in place of the note field;
// a profile that REQUIRES a note shows the field at once, no bare Send, and Send disabled until a note is
// typed.

export const FREE_NOTE_MAX = 200;
export const PREMIUM_NOTE_MAX = 300;

export type InviteDialog = {
  layout: 'legacy' | 'sdui';
  /** The invited member's vanity (sdui: set by the invite link clicked). */
  to: string;
  /** The account may still add a note (its monthly quota). */
  noteAllowed: boolean;
  noteMax: number;
  noteRequired: boolean;
  /** The German account's labels. */
  de?: boolean;
};

const esc = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function inviteDialog(d: InviteDialog): string {
  const t = d.de
    ? { add: 'Nachricht hinzufügen', bare: 'Ohne Nachricht senden', send: 'Einladung senden' }
    : { add: 'Add a note', bare: 'Send without a note', send: 'Send invitation' };
  const legacy = d.layout === 'legacy';
  const role = legacy ? 'role="dialog" data-field="invite"' : 'role="alertdialog" aria-modal="true"';
  const hook = (action: string) => (legacy ? ` data-action="${action}"` : '');
  const upsell =
    '<p>Personalise more invitations with Premium.</p><a href="/premium/products/?upsellOrderOrigin=custom_invite">Try Premium</a>';
  // Send enabled only once the field holds a note (React enables it on input events).
  const field = (required: boolean) =>
    `<textarea name="message" maxlength="${d.noteMax}"${required ? ` oninput="this.nextElementSibling.disabled=!this.value.trim()"` : ''}></textarea><button type="submit"${hook('send')} aria-label="${t.send}"${required ? ' disabled' : ''}>${d.de ? 'Senden' : 'Send'}</button>`;
  let body: string;
  if (d.noteRequired) {
    body = d.noteAllowed ? field(true) : upsell;
  } else {
    body = `<button type="button"${hook('add-note')} aria-label="${t.add}" onclick="document.getElementById('note').hidden=false;this.hidden=true;document.getElementById('send-bare').hidden=true">${t.add}</button>
        <button type="submit" id="send-bare"${hook('send')} aria-label="${t.bare}">${t.bare}</button>
        <div id="note" hidden>${d.noteAllowed ? field(false) : upsell}</div>`;
  }
  return `<div id="invite" ${role} hidden>
      <form method="post" action="/replica/invite"><input type="hidden" name="to" value="${esc(d.to)}">
        <h2>${d.noteRequired ? (d.de ? 'Wie kennen Sie sich?' : 'Add a note to connect') : d.de ? 'Eine Nachricht hinzufügen?' : 'Add a note to your invitation?'}</h2>
        ${body}
      </form></div>`;
}
