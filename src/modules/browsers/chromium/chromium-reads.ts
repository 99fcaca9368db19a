// Reading LinkedIn in a seat's browser (the LinkedInReader: profile, company page, one search page). A
// read waits for the page's hydrated content; a page of the right kind whose card or list this driver
// cannot find in time answers `selector_miss` (LinkedIn changed the page, or it did not render) - never
// an empty success. Which hooks are known from the real site: linkedin-selectors.ts.
import type { Locator, Page } from 'playwright-core';
import {
  type CompanyRef,
  type LinkedInCompanyPage,
  type LinkedInProfile,
  type LinkedInReader,
  type ReadFailureReason,
  type ReadOutcome,
  type ReadPace,
  SEARCH_TYPES,
  type SearchPage,
} from '../../channels/reader.js';
import {
  type ChromiumOptions,
  type ChromiumSeat,
  failure,
  handleOf,
  type Pages,
  pages,
  present,
  type StopReason,
  stop,
} from './chromium-pages.js';
import { type COMPANY_FACTS, firstNumber, profileHandle, SELECTORS as S } from './linkedin-pages.js';

const READ_REASONS: Partial<Record<StopReason, ReadFailureReason>> = {
  not_found: 'not_found',
  logged_out: 'logged_out',
  checkpoint: 'checkpoint',
  restricted: 'restricted',
  rate_limited: 'rate_limited',
  no_channel: 'no_channel',
  selector_miss: 'selector_miss',
};

/** A read's failure, from whatever stopped it (an unexpected error is `transient`). */
export function readFailure(error: unknown, options: ChromiumOptions): ReadOutcome<never> {
  const { reason, message, retryAfterMs } = failure(error, options.logger);
  if (reason === 'selector_miss')
    options.logger?.warn({ message }, 'LinkedIn page not recognised (selector_miss)');
  return {
    ok: false,
    reason: READ_REASONS[reason] ?? 'transient',
    message,
    ...(retryAfterMs ? { retryAfterMs } : {}),
  };
}

/** An image's absolute URL, or null when the page shows none (no waiting for an element that is not there). */
async function imageSrc(locator: Locator): Promise<string | null> {
  if ((await locator.count()) === 0) return null;
  return locator
    .first()
    .evaluate((img) => (img as unknown as { src: string }).src, undefined, { timeout: 2_000 })
    .catch(() => null);
}

const text = async (page: Page, selector: string): Promise<string | null> => {
  const locator = page.locator(selector).first();
  if ((await locator.count()) === 0) return null;
  const value = (await locator.innerText()).trim();
  return value || null;
};

async function readProfile(p: Pages, page: Page, handle: string): Promise<LinkedInProfile> {
  const card = await p.profile(page, handle);
  const memberId = Number(await card.getAttribute('data-member-id'));
  const urn = (await card.getAttribute('data-member-urn')) ?? '';
  const name = await text(page, S.profile.name);
  const [first, ...rest] = (name ?? '').split(/\s+/);
  const experience = page.locator(S.profile.experience);
  const jobs: LinkedInProfile['experience'] = [];
  let companyId: string | null = null;
  let companySlug: string | null = null;
  for (let i = 0; i < (await experience.count()); i++) {
    const item = experience.nth(i);
    const company = item.locator('[data-field="company"]').first();
    const dates = (
      (await item
        .locator('[data-field="dates"]')
        .first()
        .innerText()
        .catch(() => '')) ?? ''
    ).split(/\s+-\s+/);
    jobs.push({
      title: (await item.locator('[data-field="title"]').first().innerText()).trim(),
      company: (await company.innerText()).trim(),
      start_date: dates[0]?.trim() || null,
      end_date: dates[1] && !/present/i.test(dates[1]) ? dates[1].trim() : null,
    });
    if (i === 0) {
      companyId = await company.getAttribute('data-company-id');
      const href = await company.getAttribute('href');
      companySlug = href ? (/\/company\/([^/]+)/.exec(href)?.[1] ?? null) : null;
    }
  }
  const skills = await page.locator(S.profile.skill).allInnerTexts();
  const location = await text(page, S.profile.location);
  const parts = location?.split(',').map((s) => s.trim()) ?? [];
  const openProfile = await card.getAttribute('data-open-profile');
  return {
    ln_member_id: Number.isFinite(memberId) && memberId > 0 ? memberId : null,
    ln_id: urn.split(':').pop() || null,
    sn_id: null,
    linkedin: profileHandle(page.url()),
    first_name: first || null,
    last_name: rest.join(' ') || null,
    name,
    headline: await text(page, S.profile.headline),
    about: await text(page, S.profile.about),
    position: jobs[0]?.title ?? null,
    company_name: jobs[0]?.company ?? null,
    company_ln_id: companyId,
    company_linkedin: companySlug,
    avatar_url: await imageSrc(page.locator(S.profile.avatar)),
    raw_address: location,
    location: location
      ? [
          {
            address_string: location,
            city: parts[0] ?? null,
            country: parts.length > 1 ? parts[parts.length - 1]! : null,
          },
        ]
      : null,
    connections_number: firstNumber(await text(page, S.profile.connections)),
    followers_number: firstNumber(await text(page, S.profile.followers)),
    primary_language: null,
    supported_languages: null,
    has_open_profile: openProfile === null ? null : openProfile === 'true' ? 1 : 0,
    has_verified_profile: null,
    has_premium: null,
    experience: jobs,
    educations: null,
    skills: skills.map((s) => s.trim()).filter(Boolean),
    posts: null,
  };
}

async function readCompany(p: Pages, page: Page, ref: CompanyRef): Promise<LinkedInCompanyPage> {
  const slug = ref.linkedin?.trim();
  if (!slug && !ref.ln_id) stop('not_found', 'Only a company page slug or id can be read from LinkedIn.');
  const kind = await p.go(page, slug ? p.urls.company(slug) : p.urls.companyById(ref.ln_id!));
  if (kind === 'not_found') stop('not_found', 'LinkedIn has no such company page.');
  const root = page.locator(S.company.root).first();
  if (!(await p.until(page, [['root', () => present(root)]], p.contentTimeout))) {
    await p.miss(page, 'company.root', `The company page showed no card this driver knows (${page.url()}).`);
  }
  const facts: Record<string, string> = {};
  const rows = page.locator(S.company.fact);
  for (let i = 0; i < (await rows.count()); i++) {
    const key = await rows.nth(i).locator('dt').getAttribute('data-key');
    if (key) facts[key] = (await rows.nth(i).locator('dd').innerText()).trim();
  }
  const field = (name: keyof typeof COMPANY_FACTS) => facts[name] || null;
  const website = field('website');
  let domain: string | null = null;
  try {
    domain = website ? new URL(website).hostname.replace(/^www\./, '') : null;
  } catch {}
  return {
    ln_id: Number(await root.getAttribute('data-company-id')) || null,
    linkedin: (await root.getAttribute('data-company-slug')) ?? slug ?? null,
    name: await text(page, S.company.name),
    domain,
    website,
    industry: field('industry'),
    employees_range: field('size'),
    employees_on_linkedin: firstNumber(await text(page, S.company.employeesOnLinkedIn)),
    followers: firstNumber(await text(page, S.company.followers)),
    hq_raw_address: field('headquarters'),
    about: await text(page, S.company.about),
    tagline: await text(page, S.company.tagline),
    year_established: firstNumber(field('founded')),
    specialities:
      field('specialties')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? null,
    phone: field('phone'),
    logo_url: await imageSrc(page.locator(S.company.logo)),
  };
}

/** The pasted LinkedIn search URL on the configured base (so tests hit the replica). */
function rebase(searchUrl: string, baseUrl: string): string | null {
  try {
    const pasted = new URL(searchUrl);
    return new URL(`${pasted.pathname}${pasted.search}`, baseUrl).toString();
  } catch {
    return null;
  }
}

async function readSearch(p: Pages, page: Page, url: string, kind: 'people' | 'companies', pageNo: number) {
  const at = await p.go(page, p.urls.withPage(url, pageNo));
  if (at !== 'search') stop('not_found', 'The search URL does not lead to LinkedIn search results.');
  const rows = page.locator(S.search.result);
  // Results or LinkedIn's "no results" state; neither is selector_miss, never an empty page.
  const count =
    (await p.content(page, S.search.result, 'search results', 'search.result')) === 'empty'
      ? 0
      : await rows.count();
  const total = firstNumber(await text(page, S.search.total));
  const hasMore = (await page.locator(S.search.next).count()) > 0;
  const items = [];
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const href = (await row.locator(S.search.resultLink).first().getAttribute('href')) ?? '';
    const title = (await row.locator(S.search.resultTitle).first().innerText()).trim();
    const subtitle =
      (
        await row
          .locator(S.search.resultSubtitle)
          .first()
          .innerText()
          .catch(() => '')
      ).trim() || null;
    const location =
      (
        await row
          .locator(S.search.resultLocation)
          .first()
          .innerText()
          .catch(() => '')
      ).trim() || null;
    const image = await imageSrc(row.locator(S.search.resultImage));
    items.push({ row, href, title, subtitle, location, image });
  }
  const base = { page: pageNo, total, hasMore };
  if (kind === 'people') {
    const people = [];
    for (const item of items) {
      const memberId = Number(await item.row.getAttribute('data-member-id'));
      const urn = (await item.row.getAttribute('data-member-urn')) ?? '';
      const [first, ...rest] = item.title.split(/\s+/);
      people.push({
        ln_member_id: memberId > 0 ? memberId : null,
        ln_id: urn.split(':').pop() || null,
        sn_id: null,
        linkedin: profileHandle(item.href),
        first_name: first || null,
        last_name: rest.join(' ') || null,
        name: item.title,
        headline: item.subtitle,
        position: null,
        company_name: null,
        company_ln_id: null,
        raw_address: item.location,
        avatar_url: item.image,
      });
    }
    return { ...base, pageSize: Math.max(count, people.length), kind: 'people' as const, people };
  }
  const companies = [];
  for (const item of items) {
    const [industry, size] = (item.subtitle ?? '').split('•').map((s) => s.trim());
    companies.push({
      ln_id: Number(await item.row.getAttribute('data-company-id')) || null,
      linkedin: /\/company\/([^/]+)/.exec(item.href)?.[1] ?? null,
      name: item.title,
      industry: industry || null,
      employees_range: size || null,
      hq_raw_address: item.location,
      logo_url: item.image,
    });
  }
  return { ...base, pageSize: count, kind: 'companies' as const, companies };
}

export function createChromiumReader(
  seat: ChromiumSeat,
  options: ChromiumOptions & { pace: ReadPace },
): LinkedInReader {
  const p = pages(options, seat);
  async function read<T>(work: (page: Page) => Promise<T>): Promise<ReadOutcome<T>> {
    try {
      const value = await options.browsers.use(seat.teamId, seat.seatId, ({ page }) => work(page));
      return { ok: true, value };
    } catch (error) {
      return readFailure(error, options);
    }
  }
  return {
    name: 'chromium',
    pace: options.pace,
    async getProfile(_context, ref) {
      const handle = handleOf(ref);
      if (!handle)
        return { ok: false, reason: 'not_found', message: 'No LinkedIn nickname or profile id to read.' };
      return read((page) => readProfile(p, page, handle));
    },
    async getCompany(_context, ref) {
      return read((page) => readCompany(p, page, ref));
    },
    async searchPage(_context, search, pageNo): Promise<ReadOutcome<SearchPage>> {
      if (!Number.isInteger(pageNo) || pageNo < 1) {
        return { ok: false, reason: 'invalid_search', message: 'Pages count from 1.' };
      }
      const kind = SEARCH_TYPES[search.type];
      const url = search.url ? rebase(search.url, options.baseUrl) : null;
      const path = url ? new URL(url).pathname : '';
      const expected = kind === 'people' ? '/search/results/people' : '/search/results/companies';
      if (!url || !path.startsWith(expected) || !search.type.startsWith('ln_')) {
        return {
          ok: false,
          reason: 'invalid_search',
          message: `The browser reader runs LinkedIn ${kind} searches (${expected}/?...) only.`,
        };
      }
      return read((page) => readSearch(p, page, url, kind, pageNo)) as Promise<ReadOutcome<SearchPage>>;
    },
  };
}
