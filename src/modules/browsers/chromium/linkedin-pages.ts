// Everything the Chromium driver knows about LinkedIn's pages, in one file: hosts, URL builders, the
// selectors of the elements it clicks and reads, and the page classifier. When LinkedIn changes its UI
// this file is the one to fix. Pages are classified by URL path only, never by the query string (a
// `?session_redirect=%2Ffeed%2F` must not look like the feed) and never by text (the account's
// language varies). Selectors prefer structure and attributes LinkedIn keeps stable (hrefs, aria
// attributes, data-* hooks) over class names and never match visible text.
//
// Paths and the classifier's rules are what 2026 open-source tools use on linkedin.com; the selectors
// live in the site profile (linkedin-selectors.ts), which says per hook whether it is known from the
// real site (and from where), a guess, or replica-only - most are replica-only, and the profile is
// UNVERIFIED until real-page fixtures back it. See shared/reference/linkedin-real-site.md.
import { type Chain, css, DIALOG, SITE } from './linkedin-selectors.js';

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
  /** A post-login step on its own path (add a phone, agree to the terms, onboarding): signed in. */
  | 'interstitial'
  /** The custom-invite route (`/preload/custom-invite/`): renders blank when opened directly. */
  | 'invite_route'
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
  // The password form posts to /checkpoint/lg/login-submit (a wrong password renders the form there) and
  // the account chooser is /checkpoint/lg/sign-in-another-account: both are login pages, not checks.
  if (
    path.startsWith('/checkpoint/lg/login-submit') ||
    path.startsWith('/checkpoint/lg/sign-in-another-account')
  ) {
    return 'login';
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
  if (path.startsWith('/check/') || path.startsWith('/onboarding') || path.startsWith('/comply')) {
    return 'interstitial';
  }
  if (path.startsWith('/preload/')) return 'invite_route';
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
    /**
     * A conversation with a member. With their profile id (`ACoA...`) the form the real site opens from a
     * profile (real: linkedin-mcp-server); the bare `?recipient=<vanity>` may show no composer there.
     */
    compose: (handle: string, profileId?: string | null) => composeUrl(base, handle, profileId),
    /** replica-only flag: on linkedin.com an InMail is the same composer for a member you are not connected to. */
    inmail: (handle: string, profileId?: string | null) =>
      `${composeUrl(base, handle, profileId)}&inmail=true`,
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

function composeUrl(base: string, handle: string, profileId?: string | null): string {
  const enc = encodeURIComponent;
  if (profileId && /^ACo[A-Za-z0-9_-]+$/.test(profileId)) {
    return `${base}/messaging/compose/?profileUrn=${enc(`urn:li:fsd_profile:${profileId}`)}&recipient=${enc(profileId)}&screenContext=NON_SELF_PROFILE_VIEW&interop=msgOverlay`;
  }
  return `${base}/messaging/compose/?recipient=${enc(handle)}`;
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

/**
 * The site profile's chains (linkedin-selectors.ts) as one selector per item, grouped by page. Where the
 * order of a chain matters (the target's own invite link first), the driver picks from `SITE` itself.
 */
function flatten<T extends Record<string, unknown>>(group: T): { [K in keyof T]: string } {
  const out: Record<string, string> = {};
  for (const [key, chain] of Object.entries(group)) out[key] = css(chain as Chain);
  return out as { [K in keyof T]: string };
}

export const SELECTORS = {
  signedInNav: css(SITE.signedInNav),
  ownProfileLink: css(SITE.ownProfileLink),
  weeklyLimitAlert: css(SITE.weeklyLimitAlert),
  errorToast: css(SITE.errorToast),
  upsell: css(SITE.upsell),
  emptyState: css(SITE.emptyState),
  dialog: DIALOG,
  profile: flatten(SITE.profile),
  activity: flatten(SITE.activity),
  skills: flatten(SITE.skills),
  messaging: flatten(SITE.messaging),
  connections: flatten(SITE.connections),
  invitations: flatten(SITE.invitations),
  search: flatten(SITE.search),
  company: flatten(SITE.company),
};

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
