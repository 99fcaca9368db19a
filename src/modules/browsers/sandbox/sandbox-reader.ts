// The sandbox network read like LinkedIn: profiles and company pages of the generated network
// (sandbox-world.ts), and searches that answer a stable, paged list of its members or companies. A
// search is identified by its type and URL (paging and tracking parameters aside); how many results it
// has comes from the URL's `sandbox_results` parameter when it has one, else from the hash of the
// search, up to what LinkedIn lets an account page through (1,000 results on LinkedIn and Recruiter,
// 2,500 on Sales Navigator). Nothing is stored: same seed, same answers, in any process.

import { uniform, uniformInt } from '../../../lib/rng.js';
import type {
  CompanyRef,
  LinkedInCompanyPage,
  LinkedInProfile,
  LinkedInReader,
  PersonRef,
  ReadOutcome,
  SearchPage,
  SearchRequest,
  SearchType,
} from '../../channels/reader.js';
import { SEARCH_TYPES } from '../../channels/reader.js';
import type { SandboxSettings } from './sandbox-driver.js';
import {
  COMPANIES,
  companyOf,
  companyPage,
  companyResult,
  foreignProfile,
  memberOf,
  memberProfile,
  PEOPLE,
  personResult,
} from './sandbox-world.js';

type SearchShape = {
  pageSize: number;
  /** Most results an account can page through. */
  cap: number;
  /** Fewest results a search of this kind has (when the URL does not say). */
  min: number;
  /** Identifiers a result carries (Sales Navigator shows its own id only). */
  ids: ReadonlyArray<'ln_member_id' | 'ln_id' | 'sn_id' | 'linkedin'>;
};

const SALES_NAVIGATOR: SearchShape = { pageSize: 25, cap: 2500, min: 25, ids: ['sn_id'] };
const SHAPES: Record<SearchType, SearchShape> = {
  sn_leads_search: SALES_NAVIGATOR,
  sn_leads_saved_search: SALES_NAVIGATOR,
  sn_leads_list: { ...SALES_NAVIGATOR, cap: 2500, min: 5 },
  sn_accounts_search: SALES_NAVIGATOR,
  sn_accounts_saved_search: SALES_NAVIGATOR,
  sn_accounts_list: { ...SALES_NAVIGATOR, min: 5 },
  ln_leads_search: { pageSize: 10, cap: 1000, min: 10, ids: ['linkedin', 'ln_id'] },
  ln_accounts_search: { pageSize: 10, cap: 1000, min: 10, ids: [] },
  ln_my_network: { pageSize: 40, cap: 30_000, min: 50, ids: ['linkedin', 'ln_id', 'ln_member_id'] },
  ln_my_messenger: { pageSize: 20, cap: 2000, min: 10, ids: ['ln_id'] },
  post_engagement: { pageSize: 10, cap: 3000, min: 3, ids: ['ln_id'] },
  recruiter_leads_search: { pageSize: 25, cap: 1000, min: 25, ids: ['linkedin', 'ln_id'] },
};

/** Query parameters that page or track a search rather than define it. */
const NOT_PART_OF_SEARCH = new Set(['page', 'start', 'sessionid', 'trk', 'origin', '_ntb', 'sid', 'rsltype']);

/** The search as a stable key (type + path + defining parameters, sorted), or why it is not one. */
function searchKey(
  search: SearchRequest,
  sender: string,
): { key: string; size?: number } | { invalid: string } {
  if (search.type === 'ln_my_network' || search.type === 'ln_my_messenger')
    return { key: `${search.type}:${sender}` };
  if (!search.url) return { invalid: `A ${search.type} search needs its URL.` };
  let url: URL;
  try {
    url = new URL(search.url);
  } catch {
    return { invalid: `${search.url} is not a URL.` };
  }
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !NOT_PART_OF_SEARCH.has(name.toLowerCase()) && name !== 'sandbox_results')
    .sort(([a, av], [b, bv]) => a.localeCompare(b) || av.localeCompare(bv));
  const requested = url.searchParams.get('sandbox_results');
  const size = requested !== null && /^\d{1,7}$/.test(requested) ? Number(requested) : undefined;
  const path = url.pathname.replace(/\/+$/, '');
  return {
    key: `${search.type}:${path}?${new URLSearchParams(params).toString()}`,
    ...(size !== undefined ? { size } : {}),
  };
}

/** A seeded walk through `universe` items without repeats: the i-th result of the search. */
function walker(universe: number, ...seedParts: Array<string | number>) {
  const a = uniformInt(1, universe - 1, 'walk-a', ...seedParts);
  const b = uniformInt(0, universe - 1, 'walk-b', ...seedParts);
  return (i: number) => (a * i + b) % universe;
}

export function createSandboxReader(settings: SandboxSettings): LinkedInReader {
  const { seed } = settings;
  const notFound = (message: string) => ({ ok: false as const, reason: 'not_found' as const, message });

  function profile(ref: PersonRef): ReadOutcome<LinkedInProfile> {
    const member = memberOf(seed, ref);
    const key =
      member !== undefined
        ? `member:${member}`
        : (ref.linkedin ??
          ref.ln_id ??
          ref.sn_id ??
          (ref.ln_member_id != null ? String(ref.ln_member_id) : null));
    if (key === null) return notFound('The reference names no LinkedIn profile.');
    // Profiles that are gone: "missing-" nicknames always, others at the configured rate.
    if (
      ref.linkedin?.startsWith('missing-') ||
      uniform('sandbox-missing', seed, key) < settings.profileMissingRate
    ) {
      return notFound('This profile is not available.');
    }
    const value =
      member !== undefined
        ? memberProfile(seed, member)
        : foreignProfile(seed, key, {
            ...(ref.linkedin ? { linkedin: ref.linkedin } : {}),
            ...(ref.ln_id ? { ln_id: ref.ln_id } : {}),
            ...(ref.sn_id ? { sn_id: ref.sn_id } : {}),
            ...(ref.ln_member_id != null ? { ln_member_id: Number(ref.ln_member_id) } : {}),
          });
    return { ok: true, value };
  }

  function company(ref: CompanyRef): ReadOutcome<LinkedInCompanyPage> {
    const known = companyOf(seed, ref);
    if (known !== undefined) return { ok: true, value: companyPage(seed, known) };
    const key =
      ref.linkedin ?? (ref.ln_id != null ? String(ref.ln_id) : null) ?? ref.domain ?? ref.name?.toLowerCase();
    if (!key) return notFound('The reference names no LinkedIn company page.');
    if (
      key.startsWith('missing-') ||
      uniform('sandbox-missing', seed, `company:${key}`) < settings.profileMissingRate
    ) {
      return notFound('This company page is not available.');
    }
    // A company the network never issued: one drawn from the reference, keeping what it gave.
    const drawn = uniformInt(0, COMPANIES - 1, 'sandbox-foreign-company', seed, key);
    return {
      ok: true,
      value: companyPage(seed, drawn, {
        ...(ref.linkedin ? { linkedin: ref.linkedin } : {}),
        ...(ref.ln_id != null ? { ln_id: Number(ref.ln_id) } : {}),
        ...(ref.domain ? { domain: ref.domain } : {}),
        ...(ref.name ? { name: ref.name } : {}),
      }),
    };
  }

  function search(sender: string, request: SearchRequest, page: number): ReadOutcome<SearchPage> {
    const shape = SHAPES[request.type];
    if (!shape)
      return { ok: false, reason: 'invalid_search', message: `Unknown search type ${request.type}.` };
    const found = searchKey(request, sender);
    if ('invalid' in found) return { ok: false, reason: 'invalid_search', message: found.invalid };
    const size = Math.min(
      shape.cap,
      found.size ?? uniformInt(shape.min, shape.cap, 'sandbox-search-size', seed, found.key),
    );
    const from = (page - 1) * shape.pageSize;
    const count = Math.max(0, Math.min(shape.pageSize, size - from));
    const base = { page, pageSize: shape.pageSize, total: size, hasMore: from + count < size };
    if (SEARCH_TYPES[request.type] === 'companies') {
      const nth = walker(COMPANIES, 'sandbox-search', seed, found.key);
      const companies = Array.from({ length: count }, (_, i) =>
        companyResult(companyPage(seed, nth(from + i))),
      );
      return { ok: true, value: { ...base, kind: 'companies', companies } };
    }
    const nth = walker(PEOPLE, 'sandbox-search', seed, found.key);
    const people = Array.from({ length: count }, (_, i) =>
      personResult(memberProfile(seed, nth(from + i)), shape.ids),
    );
    return { ok: true, value: { ...base, kind: 'people', people } };
  }

  return {
    name: 'sandbox',
    pace: {
      profileIntervalMs: settings.readIntervalMs,
      searchPageIntervalMs: settings.readIntervalMs,
      profilesPerDay: 0,
      searchPagesPerDay: 0,
    },
    async getProfile(_context, ref) {
      return profile(ref);
    },
    async getCompany(_context, ref) {
      return company(ref);
    },
    async searchPage(context, request, page) {
      if (!Number.isInteger(page) || page < 1) {
        return {
          ok: false,
          reason: 'invalid_search',
          message: `Page ${page} does not exist; pages count from 1.`,
        };
      }
      return search(context.senderProfileUuid, request, page);
    },
  };
}
