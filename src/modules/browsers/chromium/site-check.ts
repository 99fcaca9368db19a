// What each kind of LinkedIn page must show for the driver to work on it, and which hook of the site
// profile (linkedin-selectors.ts) it matched - per item the first hook of its chain found on the page, or
// none. The selector health tour (chromium-health.ts) and the real-page fixture tests (page-dumps.test.ts)
// both ask this: a live page and a saved one answer the same way. Read-only: nothing is clicked.
import type { Page } from 'playwright-core';
import type { ActionType } from '../../channels/driver.js';
import type { PageKind } from './linkedin-pages.js';
import { type Chain, type Hook, SITE } from './linkedin-selectors.js';

/** One thing a page must show; `orEmpty`: LinkedIn's empty state stands in for it (an empty list). */
export type SiteItem = { item: string; chain: Chain; orEmpty?: boolean };

/** The items each page kind must show (kinds not listed are checked for nothing). */
export const PAGE_ITEMS: Partial<Record<PageKind, SiteItem[]>> = {
  feed: [{ item: 'signedInNav', chain: SITE.signedInNav }],
  profile: [
    { item: 'profile.topCard', chain: SITE.profile.topCard },
    { item: 'profile.name', chain: SITE.profile.name },
  ],
  profile_activity: [{ item: 'activity.post', chain: SITE.activity.post, orEmpty: true }],
  profile_skills: [{ item: 'skills.item', chain: SITE.skills.item }],
  messaging: [{ item: 'messaging.conversation', chain: SITE.messaging.conversation, orEmpty: true }],
  invitations_sent: [{ item: 'invitations.card', chain: SITE.invitations.card, orEmpty: true }],
  connections: [{ item: 'connections.card', chain: SITE.connections.card, orEmpty: true }],
  search: [{ item: 'search.result', chain: SITE.search.result, orEmpty: true }],
  company: [{ item: 'company.root', chain: SITE.company.root }],
};

/** The composer of a conversation (the compose page is checked apart: its URL says only "messaging"). */
export const COMPOSER_ITEM: SiteItem = { item: 'messaging.composer', chain: SITE.messaging.body };

/** Which actions stop working when an item is missing (the per-action circuit breaker counts these). */
export const ACTIONS_NEEDING: Record<string, ActionType[]> = {
  'profile.topCard': [
    'linkedin_send_connection_request',
    'linkedin_withdraw_connection_request',
    'linkedin_visit_profile',
  ],
  'activity.post': ['linkedin_like_latest_post', 'linkedin_comment_latest_post'],
  'skills.item': ['linkedin_endorse_skills'],
  'messaging.composer': ['linkedin_send_message', 'linkedin_send_inmail'],
  'invitations.card': ['linkedin_withdraw_connection_request'],
};

export type ItemResult = {
  item: string;
  /** The hook that matched (its place in the chain, its layout and where it is known from), or null. */
  matched: (Pick<Hook, 'layout' | 'from'> & { index: number; css: string }) | null;
  /** LinkedIn's empty state showed instead (a list item with nothing in it). */
  empty?: boolean;
};

const EMPTY: Chain = SITE.emptyState;

async function firstMatch(page: Page, chain: Chain): Promise<ItemResult['matched']> {
  for (const [index, hook] of chain.entries()) {
    const found = await page
      .locator(hook.css)
      .count()
      .catch(() => 0);
    if (found > 0) return { index, css: hook.css, layout: hook.layout, from: hook.from };
  }
  return null;
}

/** Which hook of each item matched on the page as it is now. */
export async function checkItems(page: Page, items: SiteItem[]): Promise<ItemResult[]> {
  const results: ItemResult[] = [];
  for (const { item, chain, orEmpty } of items) {
    const matched = await firstMatch(page, chain);
    if (!matched && orEmpty && (await firstMatch(page, EMPTY))) {
      results.push({ item, matched: null, empty: true });
      continue;
    }
    results.push({ item, matched });
  }
  return results;
}

/** Whether an item result is a miss (neither a hook nor, where allowed, the empty state). */
export const isMiss = (result: ItemResult) => !result.matched && !result.empty;
