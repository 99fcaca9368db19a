// The selector health tour of a seat: a read-only walk through the pages the driver acts and reads on -
// the feed, the member's own profile (`/in/me/`), the connections, a 1st-degree profile with its
// activity, skills and conversation composer, one people search and a 2nd-degree profile from it, the
// messaging page, the sent invitations and a company page - recording for each item which hook of its
// chain matched (site-check.ts), and saving a redacted dump and a screenshot of every page with a miss.
// Nothing is clicked, typed or sent; opening a composer sends nothing. A login or checkpoint page ends
// the tour (the seat's session is the problem, not the selectors).
import type { Page } from 'playwright-core';
import { type ChromiumOptions, type ChromiumSeat, pages, Stop } from './chromium-pages.js';
import { type PageKind, profileHandle, SELECTORS as S } from './linkedin-pages.js';
import {
  COMPOSER_ITEM,
  checkItems,
  type ItemResult,
  isMiss,
  PAGE_ITEMS,
  type SiteItem,
} from './site-check.js';

export type TourStep = {
  step: string;
  /** The page's kind as it came (a redirect elsewhere shows here). */
  kind: PageKind | null;
  items: ItemResult[];
  /** Why the step could not look (no such page to visit, the page did not load). */
  skipped?: string;
  /** The redacted dump of the page, when something was missing. */
  dump?: string | null;
};

export type HealthReport = {
  at: string;
  /** The seat's own vanity, as `/in/me/` led to it. */
  ownVanity: string | null;
  steps: TourStep[];
  /** Every item missed, by name (site-check.ts). */
  missed: string[];
  /** The tour stopped on a login or checkpoint page. */
  session?: 'logged_out' | 'checkpoint';
  /** The tour could not run (the browser did not start, the seat was busy). */
  error?: string;
};

/** The first profile link in the page's main content that is not the seat's own. */
async function firstProfile(page: Page, list: string, own: string | null): Promise<string | null> {
  const links = page.locator(`${list} a[href*="/in/"]`);
  for (let i = 0; i < Math.min(await links.count(), 20); i++) {
    const handle = profileHandle((await links.nth(i).getAttribute('href')) ?? '');
    if (handle && handle !== own && handle !== 'me') return handle;
  }
  return null;
}

/** Runs the tour in the seat's browser (the caller holds it). */
export async function healthTour(
  page: Page,
  options: ChromiumOptions,
  seat: ChromiumSeat,
  /** The people search's keywords (any search with results does). */
  search = 'a',
): Promise<HealthReport> {
  const p = pages(options, seat);
  const report: HealthReport = { at: new Date().toISOString(), ownVanity: null, steps: [], missed: [] };

  /** Visits `url`, waits for its content as a read would, and checks the items of its kind. */
  async function visit(step: string, url: string | null, items?: SiteItem[]): Promise<TourStep> {
    if (!url) {
      const skipped: TourStep = { step, kind: null, items: [], skipped: 'nothing to visit' };
      report.steps.push(skipped);
      return skipped;
    }
    let kind: PageKind | null = null;
    let checked: ItemResult[] = [];
    let skipped: string | undefined;
    try {
      kind = await p.go(page, url);
      const wanted = items ?? PAGE_ITEMS[kind] ?? [];
      // Content hydrates after domcontentloaded: wait for the first item (or the empty state) as reads do.
      const first = wanted[0];
      if (first) {
        await p
          .until(
            page,
            [['seen', async () => (await checkItems(page, [first])).every((r) => !isMiss(r))]],
            p.contentTimeout,
          )
          .catch(() => null);
      }
      checked = await checkItems(page, wanted);
    } catch (error) {
      if (error instanceof Stop && (error.reason === 'logged_out' || error.reason === 'checkpoint'))
        throw error;
      skipped = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
    const misses = checked.filter(isMiss).map((r) => r.item);
    report.missed.push(...misses);
    const result: TourStep = { step, kind, items: checked, ...(skipped ? { skipped } : {}) };
    if (misses.length > 0)
      result.dump = await p.dumps.save(page, { what: `health tour: ${step}`, missed: misses });
    report.steps.push(result);
    return result;
  }

  try {
    await visit('feed', p.urls.feed());
    await visit('own profile', `${p.urls.base}/in/me/`);
    report.ownVanity = profileHandle(page.url());
    await visit('connections', p.urls.connections());
    const first = await firstProfile(page, 'main', report.ownVanity);
    await visit('1st-degree profile', first && p.urls.profile(first));
    const company = first
      ? await page
          .locator(`${S.profile.topCard}, main`)
          .locator('a[href*="/company/"]')
          .first()
          .getAttribute('href', { timeout: 1_000 })
          .catch(() => null)
      : null;
    await visit('1st-degree activity', first && p.urls.recentActivity(first));
    await visit('1st-degree skills', first && p.urls.skills(first));
    await visit('1st-degree composer', first && p.urls.compose(first), [COMPOSER_ITEM]);
    await visit('people search', p.urls.peopleSearch(search));
    const second = await firstProfile(page, 'main', report.ownVanity);
    await visit('2nd-degree profile', second && second !== first ? p.urls.profile(second) : null);
    await visit('messaging', p.urls.inbox());
    await visit('sent invitations', p.urls.sentInvitations());
    const slug = company ? /\/company\/([^/?#]+)/.exec(company)?.[1] : null;
    await visit('company', slug ? p.urls.company(decodeURIComponent(slug)) : null);
  } catch (error) {
    if (error instanceof Stop && (error.reason === 'logged_out' || error.reason === 'checkpoint')) {
      report.session = error.reason;
    } else throw error;
  }
  return report;
}
