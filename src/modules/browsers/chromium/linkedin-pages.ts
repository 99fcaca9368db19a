// Everything the Chromium driver knows about LinkedIn's pages, in one file: hosts, URL builders, the
// selectors of the elements it clicks and reads, and the page classifier. When LinkedIn changes its UI
// this file is the one to fix. Pages are classified by URL path only, never by the query string (a
// `?session_redirect=%2Ffeed%2F` must not look like the feed) and never by text (the account's
// language varies). Selectors prefer structure and attributes LinkedIn keeps stable (hrefs, aria
// attributes, data-* hooks) over class names and never match visible text.
//
// Written against the local replica (test/linkedin-replica/), which mirrors the paths and hooks that
// open-source tools used on linkedin.com in 2026 (see shared/reference/linkedin-notes.md); it has not
// been checked against linkedin.com itself.

/** LinkedIn's own hosts: a seat's browser only needs these (the live view keeps navigation on them). */
export const LINKEDIN_HOSTS = ['www.linkedin.com', 'linkedin.com'] as const;

/** Whether `url` is on LinkedIn (or on the configured stand-in's origin). */
export function isLinkedInUrl(url: string, baseUrl: string): boolean {
  try {
    const target = new URL(url);
    const base = new URL(baseUrl);
    if (target.origin === base.origin) return true;
    return target.protocol === 'https:' && (LINKEDIN_HOSTS as readonly string[]).includes(target.hostname);
  } catch {
    return false;
  }
}

/** The name of LinkedIn's session cookie: its presence after a login means the account is signed in. */
export const SESSION_COOKIE = 'li_at';

export type PageKind =
  | 'login'
  | 'checkpoint'
  | 'authwall'
  | 'feed'
  | 'profile'
  | 'profile_activity'
  | 'profile_skills'
  | 'messaging'
  | 'invitations_sent'
  | 'connections'
  | 'search'
  | 'company'
  | 'premium'
  | 'not_found'
  | 'unknown';

/** What a page kind means for the seat's session. */
export function sessionProblem(kind: PageKind): 'logged_out' | 'checkpoint' | null {
  if (kind === 'checkpoint') return 'checkpoint';
  if (kind === 'login' || kind === 'authwall') return 'logged_out';
  return null;
}

/** The page's kind, from the URL's path alone. Checkpoints win: a challenge can sit under any prefix. */
export function classifyUrl(url: string): PageKind {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return 'unknown';
  }
  if (
    path.startsWith('/checkpoint') ||
    path.startsWith('/challenge') ||
    path.startsWith('/uas/consumer-email-challenge') ||
    path.includes('/captcha')
  ) {
    return 'checkpoint';
  }
  if (
    path === '/login' ||
    path.startsWith('/login/') ||
    path.startsWith('/uas/login') ||
    path.startsWith('/signup')
  ) {
    return 'login';
  }
  if (path.startsWith('/authwall')) return 'authwall';
  if (path.startsWith('/feed')) return 'feed';
  if (/^\/in\/[^/]+\/recent-activity(\/|$)/.test(path)) return 'profile_activity';
  if (/^\/in\/[^/]+\/details\/skills(\/|$)/.test(path)) return 'profile_skills';
  if (/^\/in\/[^/]+\/?$/.test(path)) return 'profile';
  if (path.startsWith('/messaging')) return 'messaging';
  if (path.startsWith('/mynetwork/invitation-manager/sent')) return 'invitations_sent';
  if (path.startsWith('/mynetwork/invite-connect/connections')) return 'connections';
  if (path.startsWith('/search/results')) return 'search';
  if (path.startsWith('/company/')) return 'company';
  if (path.startsWith('/premium')) return 'premium';
  if (path.startsWith('/404') || path.startsWith('/error')) return 'not_found';
  return 'unknown';
}

/** URL builders, all relative to the configured base (https://www.linkedin.com or the replica). */
export function linkedInUrls(baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  const enc = encodeURIComponent;
  return {
    base,
    login: () => `${base}/login`,
    feed: () => `${base}/feed/`,
    profile: (handle: string) => `${base}/in/${enc(handle)}/`,
    recentActivity: (handle: string) => `${base}/in/${enc(handle)}/recent-activity/all/`,
    skills: (handle: string) => `${base}/in/${enc(handle)}/details/skills/`,
    inbox: () => `${base}/messaging/`,
    compose: (handle: string) => `${base}/messaging/compose/?recipient=${enc(handle)}`,
    inmail: (handle: string) => `${base}/messaging/compose/?recipient=${enc(handle)}&inmail=true`,
    sentInvitations: () => `${base}/mynetwork/invitation-manager/sent/`,
    /** The member's connections, most recently added first, each with its date. */
    connections: () => `${base}/mynetwork/invite-connect/connections/`,
    company: (slug: string) => `${base}/company/${enc(slug)}/about/`,
    companyById: (id: number) => `${base}/company/${id}/about/`,
    peopleSearch: (keywords: string) => `${base}/search/results/people/?keywords=${enc(keywords)}`,
    companySearch: (keywords: string) => `${base}/search/results/companies/?keywords=${enc(keywords)}`,
    /** The same search on another page (LinkedIn pages with `page=`, from 1). */
    withPage: (searchUrl: string, page: number) => {
      const url = new URL(searchUrl, `${base}/`);
      url.searchParams.set('page', String(page));
      return url.toString();
    },
  };
}

/** The handle of a profile URL (`/in/<handle>/...`), lower case; null for other URLs. */
export function profileHandle(url: string): string | null {
  try {
    const match = /^\/in\/([^/]+)/.exec(new URL(url, 'https://www.linkedin.com').pathname);
    return match ? decodeURIComponent(match[1]!).toLowerCase() : null;
  } catch {
    return null;
  }
}

/** The slug or numeric id of a company URL (`/company/<slug>/...`). */
export function companyHandle(url: string): string | null {
  try {
    const match = /^\/company\/([^/]+)/.exec(new URL(url, 'https://www.linkedin.com').pathname);
    return match ? decodeURIComponent(match[1]!).toLowerCase() : null;
  } catch {
    return null;
  }
}

/** Selectors, grouped by page. */
export const SELECTORS = {
  /** Present on every signed-in page (the global navigation). */
  signedInNav: 'nav a[href*="/feed"]',
  /** The signed-in member's own profile link in the global navigation ("Me"): its path is the member id. */
  ownProfileLink: 'nav a[href*="/in/"]',
  /** LinkedIn's weekly invitation limit notice (shown after a connect attempt once it is reached). */
  weeklyLimitAlert: 'div[class*="ip-fuse-limit-alert__warning"]',
  /** An error toast (a failed action). `data-error-code` names why, when LinkedIn says. */
  errorToast: 'div[data-test-artdeco-toast-item-type="error"]',
  /** A premium upsell inside a dialog or composer: the feature needs a paid plan or credits. */
  premiumUpsell: 'a[href*="/premium/"]',
  profile: {
    /** The top card, carrying the member's ids. */
    topCard: 'section[data-member-id]',
    name: 'section[data-member-id] h1',
    headline: 'section[data-member-id] [data-field="headline"]',
    location: 'section[data-member-id] [data-field="location"]',
    avatar: 'section[data-member-id] img[data-field="avatar"]',
    connections: 'section[data-member-id] [data-field="connections"]',
    followers: 'section[data-member-id] [data-field="followers"]',
    about: 'section#about [data-field="about"]',
    experience: 'section#experience li',
    education: 'section#education li',
    skill: 'section#skills li [data-field="skill-name"]',
    /** The top card's actions. */
    actions: 'section[data-member-id] [data-field="actions"]',
    connect: 'section[data-member-id] [data-field="actions"] [aria-label*="to connect"]',
    /** The "More" menu that hides Connect on some profiles; its items render page-wide (a portal). */
    more: 'section[data-member-id] [data-field="actions"] button[aria-label="More actions"]',
    menuConnect: '[role="menu"] [aria-label*="to connect"]',
    pending: 'section[data-member-id] [data-field="actions"] [aria-label*="Pending"]',
    /** A first-degree connection's message button (structural: the compose link). */
    message:
      'section[data-member-id] [data-field="actions"] a[href*="/messaging/compose/"]:not([href*="inmail"])',
    inmail: 'section[data-member-id] [data-field="actions"] a[href*="/messaging/compose/"][href*="inmail"]',
    /** The "Add a note" dialog. */
    inviteDialog: 'div[role="dialog"][data-field="invite"]',
    addNote: 'div[role="dialog"][data-field="invite"] button[data-action="add-note"]',
    noteInput: 'div[role="dialog"][data-field="invite"] textarea[name="message"]',
    sendInvite: 'div[role="dialog"][data-field="invite"] button[data-action="send"]:visible',
  },
  activity: {
    post: '[data-urn^="urn:li:activity:"]',
    like: 'button[data-action="react-like"]',
    commentOpen: 'button[data-action="comment"]',
    commentInput: '[data-field="comment-box"] [role="textbox"]',
    commentSubmit: '[data-field="comment-box"] button[type="submit"]',
    date: 'time[datetime]',
  },
  skills: {
    item: 'li[data-field="skill"]',
    endorse: 'button[data-action="endorse"]',
  },
  messaging: {
    composer: 'form[data-field="composer"]',
    subject: 'form[data-field="composer"] input[name="subject"]',
    body: 'form[data-field="composer"] div[role="textbox"][contenteditable="true"]',
    send: 'form[data-field="composer"] button[type="submit"]',
    /** The composer's file input (LinkedIn uploads a chosen file at once) and the chips of uploaded files. */
    fileInput: 'form[data-field="composer"] input[type="file"]',
    attachmentChip: 'form[data-field="composer"] [data-field="attachment"]',
    /** The messages of the open conversation. */
    event: 'li[data-field="message"]',
    eventFromMe: 'li[data-field="message"][data-from="me"]',
    eventBody: '[data-field="message-body"]',
    /** The inbox's conversations (with the other member's nickname) and their messages. */
    conversation: 'li[data-field="conversation"]',
    eventSubject: '[data-field="message-subject"]',
    /** A conversation's read receipt ("Seen"): when the other member last read it. */
    seenReceipt: '[data-field="seen-receipt"][datetime]',
  },
  connections: {
    /** One connection (the other member's nickname in data-person, its date in a time element). */
    card: 'li[data-field="connection"]',
    name: 'a[href*="/in/"]',
    date: 'time[datetime]',
  },
  invitations: {
    card: 'li[data-field="invitation"]',
    withdraw: 'button[data-view-name="sent-invitations-withdraw-single"]',
    confirm: 'div[role="alertdialog"] button[data-action="confirm"]',
  },
  search: {
    result: 'li[data-field="search-result"]',
    resultLink: 'a[data-field="result-link"]',
    resultTitle: '[data-field="result-title"]',
    resultSubtitle: '[data-field="result-subtitle"]',
    resultLocation: '[data-field="result-location"]',
    resultImage: 'img[data-field="result-image"]',
    total: '[data-field="results-count"]',
    next: 'button[aria-label="Next"]:not([disabled])',
  },
  company: {
    root: 'section[data-company-id]',
    name: 'section[data-company-id] h1',
    tagline: 'section[data-company-id] [data-field="tagline"]',
    logo: 'section[data-company-id] img[data-field="logo"]',
    followers: 'section[data-company-id] [data-field="followers"]',
    employeesOnLinkedIn: 'section[data-company-id] [data-field="employees-on-linkedin"]',
    about: 'section#about [data-field="about"]',
    /** The about page's facts: a definition list whose `dt` keys are the field names. */
    fact: 'dl[data-field="facts"] > div',
  },
} as const;

/** The company facts list's keys (dt's `data-key`) and the company field each fills. */
export const COMPANY_FACTS = {
  website: 'website',
  industry: 'industry',
  size: 'employees_range',
  headquarters: 'hq_raw_address',
  founded: 'year_established',
  specialties: 'specialities',
  phone: 'phone',
} as const;

/** The first integer in a text ("1,234 followers" -> 1234), or null. */
export function firstNumber(text: string | null | undefined): number | null {
  const match = /\d[\d,.\s]*/.exec(text ?? '');
  if (!match) return null;
  const digits = match[0].replace(/[^\d]/g, '');
  return digits ? Number(digits) : null;
}
