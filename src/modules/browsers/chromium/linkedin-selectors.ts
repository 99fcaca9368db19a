// The site profile: the selectors the Chromium driver clicks and reads on LinkedIn, each item an ORDERED
// chain over the layouts it may meet (the older "legacy" pages and the server-driven React pages LinkedIn
// serves side by side since 2025, "sdui") and the local replica's own hooks. `pick` tries a chain in order;
// `css` joins it into one selector for presence checks. Playwright's CSS engine pierces open shadow roots
// (the messaging overlay lives in one), so every read and write here goes through locators.
//
// STATUS: UNVERIFIED. Nothing here was checked against linkedin.com (it cannot be reached from where this
// was written). Each hook says where it comes from:
//   real    - seen in 2026 open-source tools or issue threads that run on linkedin.com
//             (shared/reference/linkedin-real-site.md names them); still not checked by us;
//   guess   - general knowledge of LinkedIn's markup (artdeco classes, ARIA), no 2026 source;
//   replica - test/linkedin-replica/ only: LinkedIn never had it. Kept so the replica's legacy variant
//             stays a test of the driver's logic, not evidence that the driver works on LinkedIn.
// The profile stays unverified until real-page fixtures back it (issue 20, items 5 and 6).
// Outside this table, also unverified: the messaging JSON's shape (messenger-json.ts: guess, from tools'
// reports), the "Connected ..." date texts (connected-dates.ts: en from reports, de/fr/es guesses), the
// free note limits (200 characters, about 5 a month: reports; seat-notes.ts).

export type Layout = 'legacy' | 'sdui' | 'any';
export type Hook = { css: string; from: 'real' | 'guess' | 'replica'; layout: Layout };
export type Chain = readonly Hook[];

const real = (css: string, layout: Layout = 'any'): Hook => ({ css, from: 'real', layout });
const guess = (css: string, layout: Layout = 'any'): Hook => ({ css, from: 'guess', layout });
const replica = (css: string): Hook => ({ css, from: 'replica', layout: 'legacy' });

/** One selector matching any hook of the chain (for "is any of it there"). */
export const css = (chain: Chain): string => chain.map((h) => h.css).join(', ');

/** Any modal LinkedIn shows: role dialog/alertdialog, aria-modal, or a native open dialog (real: PR #458). */
export const DIALOG = ':is([role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog[open])';

/**
 * Labels that cannot be avoided (LinkedIn shows no stable hook for them), per UI language of the ACCOUNT
 * (not the browser's). English ones are real (linkedin-mcp-server, OpenOutreach); de/fr/es are guesses.
 */
export const LABELS = {
  sendWithoutNote: {
    en: 'Send without a note',
    de: 'Ohne Nachricht senden',
    fr: 'Envoyer sans note',
    es: 'Enviar sin nota',
  },
  addNote: { en: 'Add a note', de: 'Nachricht hinzufügen', fr: 'Ajouter une note', es: 'Añadir una nota' },
  sendInvitation: {
    en: 'Send invitation',
    de: 'Einladung senden',
    fr: 'Envoyer l’invitation',
    es: 'Enviar invitación',
  },
  pending: { en: 'Pending', de: 'Ausstehend', fr: 'En attente', es: 'Pendiente' },
  /** A fragment of the invite control's aria-label ("Invite <name> to connect"). */
  inviteToConnect: { en: 'to connect', de: 'vernetzen', fr: 'rejoindre votre réseau', es: 'conectar' },
  /** The sent invitations' "Load more" (a button's text: it carries no label or hook). */
  loadMore: { en: 'Load more', de: 'Mehr anzeigen', fr: 'Afficher plus', es: 'Cargar más' },
  withdrawSentTo: {
    en: 'Withdraw invitation sent to',
    de: 'Einladung an',
    fr: 'Retirer l’invitation',
    es: 'Retirar invitación',
  },
} as const;

const labelled = (table: Record<string, string>, tag = '') =>
  Object.values(table).map((label) => guess(`${tag}[aria-label*="${label}" i]`));

export const SITE = {
  signedInNav: [real('nav a[href*="/feed"]'), real('nav a[href*="/mynetwork"]')],
  /** The nav's own-profile link (real: renders only once "Me" is opened; `/in/me/` is the fallback). */
  ownProfileLink: [real('nav a[href*="/in/"]')],
  weeklyLimitAlert: [real('div[class*="ip-fuse-limit-alert__warning"]')],
  errorToast: [real('div[data-test-artdeco-toast-item-type="error"]')],
  /**
   * A Premium upsell where it means "this feature needs Premium": inside a dialog or the composer's
   * place, never page-wide (every real page has Premium links in its sidebar).
   */
  upsell: [
    real(`${DIALOG} a[href*="/premium/"]`),
    real('a[href*="inmail-app-upsell"]'),
    real('[type="locked"]'),
  ],
  /** A page's empty state ("No results", "No messages yet"). */
  emptyState: [guess('.artdeco-empty-state'), replica('[data-field="empty-state"]')],
  profile: {
    topCard: [
      real('[id^="com.linkedin.sdui.profile.card."][id$="Topcard"]', 'sdui'),
      real('[componentkey*="Topcard"]', 'sdui'),
      real('section[data-member-id]', 'legacy'),
    ],
    name: [real('section[data-member-id] h1', 'legacy'), real('[id$="Topcard"] h2', 'sdui')],
    /** The top card's action bar (replica) or the top card itself (real layouts carry no hook for it). */
    actions: [replica('section[data-member-id] [data-field="actions"]')],
    pending: [
      real('a[aria-label*="Pending" i]'),
      ...labelled(LABELS.pending, 'button'),
      replica('[data-field="actions"] [aria-label*="Pending"]'),
    ],
    connect: [...labelled(LABELS.inviteToConnect, 'button')],
    /** More: an unlabelled button with aria-expanded on sdui (real), "More actions" on legacy (replica). */
    more: [replica('button[aria-label="More actions"]'), real('button[aria-expanded]', 'sdui')],
    menuConnect: [...labelled(LABELS.inviteToConnect).map((h) => ({ ...h, css: `[role="menu"] ${h.css}` }))],
    /** A message control (not proof of 1st degree: follow-only and Open Profile people have it too). */
    message: [real('a[href*="/messaging/compose/"]:not([href*="inmail"])')],
    /** The invitation dialog's controls. */
    addNote: [
      replica(`${DIALOG} button[data-action="add-note"]`),
      ...labelled(LABELS.addNote, 'button').map((h) => ({ ...h, css: `${DIALOG} ${h.css}` })),
    ],
    noteInput: [real(`${DIALOG} textarea`)],
    /** "Send without a note": absent when the profile requires a note (Send stays disabled until one). */
    sendBare: [
      ...labelled(LABELS.sendWithoutNote, 'button').map((h) => ({ ...h, css: `${DIALOG} ${h.css}` })),
    ],
    sendInvite: [
      replica(`${DIALOG} button[data-action="send"]:visible`),
      ...labelled(LABELS.sendWithoutNote, 'button').map((h) => ({ ...h, css: `${DIALOG} ${h.css}` })),
      ...labelled(LABELS.sendInvitation, 'button').map((h) => ({ ...h, css: `${DIALOG} ${h.css}` })),
    ],
    headline: [replica('section[data-member-id] [data-field="headline"]')],
    location: [replica('section[data-member-id] [data-field="location"]')],
    avatar: [replica('section[data-member-id] img[data-field="avatar"]')],
    connections: [replica('section[data-member-id] [data-field="connections"]')],
    followers: [replica('section[data-member-id] [data-field="followers"]')],
    about: [replica('section#about [data-field="about"]')],
    experience: [replica('section#experience li')],
    skill: [replica('section#skills li [data-field="skill-name"]')],
  },
  activity: {
    post: [
      real('[data-urn^="urn:li:activity:"]', 'legacy'),
      real('[data-view-name="feed-full-update"]', 'sdui'),
    ],
    like: [
      real('button[data-view-name="reaction-button"]', 'sdui'),
      real('button[aria-label="React Like"]', 'legacy'),
      replica('button[data-action="react-like"]'),
    ],
    commentOpen: [replica('button[data-action="comment"]')],
    commentInput: [
      real('[data-view-name="comment-box"] [contenteditable="true"]', 'sdui'),
      real('.ql-editor', 'legacy'),
      replica('[data-field="comment-box"] [role="textbox"]'),
    ],
    commentSubmit: [
      real('.comments-comment-box__submit-button', 'legacy'),
      replica('[data-field="comment-box"] button[type="submit"]'),
    ],
    date: [replica('time[datetime]')],
  },
  skills: {
    item: [replica('li[data-field="skill"]')],
    endorse: [replica('button[data-action="endorse"]')],
  },
  messaging: {
    /** The composer (overlay or full page; the overlay sits in the #interop-outlet open shadow root). */
    composer: [replica('form[data-field="composer"]'), guess('.msg-form')],
    subject: [
      replica('form[data-field="composer"] input[name="subject"]'),
      guess('.msg-form input[name="subject"]'),
    ],
    body: [real('div[role="textbox"][contenteditable="true"]')],
    send: [replica('form[data-field="composer"] button[type="submit"]'), guess('.msg-form__send-button')],
    fileInput: [replica('form[data-field="composer"] input[type="file"]')],
    attachmentChip: [replica('form[data-field="composer"] [data-field="attachment"]')],
    eventFromMe: [replica('li[data-field="message"][data-from="me"]')],
    eventBody: [replica('[data-field="message-body"]')],
    /** The legacy list (replica). On linkedin.com the sidebar has no hooks: the read takes the page's JSON. */
    conversation: [replica('li[data-field="conversation"]')],
    event: [replica('li[data-field="message"]')],
    eventSubject: [replica('[data-field="message-subject"]')],
    seenReceipt: [replica('[data-field="seen-receipt"][datetime]')],
  },
  connections: {
    card: [replica('li[data-field="connection"]'), real('div[componentkey^="auto-component"]', 'sdui')],
    name: [real('a[href*="/in/"]')],
    /** replica: a datetime; the sdui cards date in text ("Connected 2 weeks ago": connected-dates.ts). */
    date: [replica('time[datetime]')],
  },
  invitations: {
    card: [
      replica('li[data-field="invitation"]'),
      guess('li:has(button[data-view-name="sent-invitations-withdraw-single"])'),
    ],
    withdraw: [real('button[data-view-name="sent-invitations-withdraw-single"]')],
    confirm: [
      real(`${DIALOG} button[aria-label^="Withdraw invitation sent to"]`),
      ...labelled(LABELS.withdrawSentTo, 'button').map((h) => ({ ...h, css: `${DIALOG} ${h.css}` })),
      real('div[data-view-name="edge-creation-connect-action"] button'),
      replica(`${DIALOG} button[data-action="confirm"]`),
    ],
  },
  search: {
    result: [replica('li[data-field="search-result"]')],
    resultLink: [replica('a[data-field="result-link"]')],
    resultTitle: [replica('[data-field="result-title"]')],
    resultSubtitle: [replica('[data-field="result-subtitle"]')],
    resultLocation: [replica('[data-field="result-location"]')],
    resultImage: [replica('img[data-field="result-image"]')],
    total: [replica('[data-field="results-count"]')],
    next: [replica('button[aria-label="Next"]:not([disabled])')],
  },
  company: {
    root: [replica('section[data-company-id]')],
    name: [replica('section[data-company-id] h1')],
    tagline: [replica('section[data-company-id] [data-field="tagline"]')],
    logo: [replica('section[data-company-id] img[data-field="logo"]')],
    followers: [replica('section[data-company-id] [data-field="followers"]')],
    employeesOnLinkedIn: [replica('section[data-company-id] [data-field="employees-on-linkedin"]')],
    about: [replica('section#about [data-field="about"]')],
    fact: [replica('dl[data-field="facts"] > div')],
  },
} as const;
