// Reading LinkedIn through a sender's account: a person's profile, a company page, one page of a
// search. Enrichment (contacts and companies filled in from LinkedIn) and data sources (lists filled
// from searches) read through this interface; the action driver (driver.ts) is for outreach. A seat's
// driver kind picks the implementation (registry.ts `createReaderRegistry`): the sandbox network
// (../browsers/sandbox/sandbox-reader.ts) or a real browser. Like the action driver, a reader never throws for
// an expected outcome: it answers a typed failure and the caller decides (see CONTEXT.md, "Reading
// LinkedIn").

/** What identifies a person on LinkedIn; any one is enough (the contact's identifier columns). */
export type PersonRef = {
  ln_member_id?: number | null;
  /** Profile URN id, "ACoAA...". */
  ln_id?: string | null;
  /** Sales Navigator id, "ACwAA...". */
  sn_id?: string | null;
  /** Public nickname (the /in/<nickname> of the profile URL), lower case. */
  linkedin?: string | null;
};

/**
 * What identifies a company: the numeric id or the page slug. `domain` and `name` are hints a reader
 * may search with when neither is known; a real reader may answer `not_found` for them.
 */
export type CompanyRef = {
  ln_id?: number | null;
  linkedin?: string | null;
  domain?: string | null;
  name?: string | null;
};

export type ExperienceEntry = {
  title: string;
  company: string;
  start_date: string | null;
  end_date: string | null;
};
export type EducationEntry = {
  school: string;
  degree: string | null;
  field_of_study: string | null;
  start_year: number | null;
  end_year: number | null;
};

/** A person's profile as read: the contact fields it can fill (null: not shown on the profile). */
export type LinkedInProfile = {
  ln_member_id: number | null;
  ln_id: string | null;
  sn_id: string | null;
  linkedin: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  headline: string | null;
  about: string | null;
  /** Current job title. */
  position: string | null;
  company_name: string | null;
  /** The current employer's numeric LinkedIn id, as text (the contact column's type). */
  company_ln_id: string | null;
  /** The current employer's page slug (to enrich or link the company). */
  company_linkedin: string | null;
  avatar_url: string | null;
  raw_address: string | null;
  location: Array<{ address_string: string; city: string | null; country: string | null }> | null;
  connections_number: number | null;
  followers_number: number | null;
  primary_language: string | null;
  supported_languages: string[] | null;
  has_open_profile: 0 | 1 | null;
  has_verified_profile: 0 | 1 | null;
  has_premium: 0 | 1 | null;
  experience: ExperienceEntry[] | null;
  educations: EducationEntry[] | null;
  skills: string[] | null;
  posts: Array<{ content: string; date: string }> | null;
};

/** A person as a search result shows them: the identifiers the result carries and the card's text. */
export type PersonResult = Pick<
  LinkedInProfile,
  | 'ln_member_id'
  | 'ln_id'
  | 'sn_id'
  | 'linkedin'
  | 'first_name'
  | 'last_name'
  | 'name'
  | 'headline'
  | 'position'
  | 'company_name'
  | 'company_ln_id'
  | 'raw_address'
  | 'avatar_url'
>;

/** A company page as read (the company fields it can fill). */
export type LinkedInCompanyPage = {
  ln_id: number | null;
  linkedin: string | null;
  name: string | null;
  domain: string | null;
  website: string | null;
  industry: string | null;
  employees_range: string | null;
  employees_on_linkedin: number | null;
  followers: number | null;
  hq_raw_address: string | null;
  about: string | null;
  tagline: string | null;
  year_established: number | null;
  specialities: string[] | null;
  phone: string | null;
  logo_url: string | null;
};

/** A company as a search result shows it. */
export type CompanyResult = Pick<
  LinkedInCompanyPage,
  'ln_id' | 'linkedin' | 'name' | 'industry' | 'employees_range' | 'hq_raw_address' | 'logo_url'
>;

/**
 * The searches a data source can run (every data source type but `csv_leads`), and what they list.
 * `url` is the search, saved search, list or post URL as the user pasted it (null for the sender's own
 * network and inbox).
 */
export const SEARCH_TYPES = {
  sn_leads_search: 'people',
  sn_leads_saved_search: 'people',
  sn_leads_list: 'people',
  sn_accounts_search: 'companies',
  sn_accounts_saved_search: 'companies',
  sn_accounts_list: 'companies',
  ln_leads_search: 'people',
  ln_accounts_search: 'companies',
  ln_my_network: 'people',
  ln_my_messenger: 'people',
  post_engagement: 'people',
  recruiter_leads_search: 'people',
} as const;

export type SearchType = keyof typeof SEARCH_TYPES;
export type SearchRequest = { type: SearchType; url: string | null };

/** One page of a search (pages count from 1). */
export type SearchPage = {
  page: number;
  /** Results per full page (the last page may hold fewer). */
  pageSize: number;
  /** How many results the search says it has, when it says (LinkedIn shows an estimate). */
  total: number | null;
  /** Whether a next page exists. */
  hasMore: boolean;
} & ({ kind: 'people'; people: PersonResult[] } | { kind: 'companies'; companies: CompanyResult[] });

/**
 * Why a read did not happen. `not_found`, `restricted` and `invalid_search` are about the thing read
 * (no point retrying); `rate_limited` and `transient` pass (retry later, after `retryAfterMs` when
 * given); `logged_out`, `checkpoint` and `no_channel` are about the seat (reads wait until it runs).
 */
export type ReadFailureReason =
  | 'not_found'
  | 'restricted'
  | 'invalid_search'
  | 'rate_limited'
  | 'transient'
  /**
   * The page was of the right kind but its card or list could not be found in time (LinkedIn changed the
   * page, or it did not render): recorded, retried later like `transient`, never read as "nothing".
   */
  | 'selector_miss'
  | 'logged_out'
  | 'checkpoint'
  | 'no_channel';

export type ReadOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: ReadFailureReason; message: string; retryAfterMs?: number };

/** Whether a failure is about the seat rather than the thing read. */
export function isSeatFailure(reason: ReadFailureReason): boolean {
  return reason === 'logged_out' || reason === 'checkpoint' || reason === 'no_channel';
}

/** Whether a failure passes by itself (the read is worth repeating later). */
export function isPassingFailure(reason: ReadFailureReason): boolean {
  return reason === 'rate_limited' || reason === 'transient' || reason === 'selector_miss';
}

/** Who reads, and when (the caller's clock). */
export type ReadContext = { teamId: number; senderProfileUuid: string; at: Date };

/**
 * How fast one account may read without looking like a bot. The callers keep it per sender across
 * processes (enrichment and data sources share it): one read at a time, `...IntervalMs` apart (times a
 * random factor in [0.5, 1.5)), at most `...PerDay` per UTC day (0: no daily cap).
 */
export type ReadPace = {
  profileIntervalMs: number;
  searchPageIntervalMs: number;
  profilesPerDay: number;
  searchPagesPerDay: number;
};

export interface LinkedInReader {
  /** 'sandbox', 'chromium'... */
  readonly name: string;
  readonly pace: ReadPace;
  getProfile(context: ReadContext, ref: PersonRef): Promise<ReadOutcome<LinkedInProfile>>;
  getCompany(context: ReadContext, ref: CompanyRef): Promise<ReadOutcome<LinkedInCompanyPage>>;
  /** Page `page` (from 1) of the search. The same search and page answer the same people while the
   *  search's results do not change. */
  searchPage(context: ReadContext, search: SearchRequest, page: number): Promise<ReadOutcome<SearchPage>>;
}

/** Finds the reader a sender reads LinkedIn through, or says why there is none. */
export interface ReaderRegistry {
  resolve(teamId: number, senderProfileUuid: string): Promise<LinkedInReader | { unavailable: string }>;
  /** The team's senders that can read now (enabled, with a running seat whose driver reads), oldest first. */
  available(teamId: number): Promise<Array<{ senderProfileUuid: string; reader: LinkedInReader }>>;
}
