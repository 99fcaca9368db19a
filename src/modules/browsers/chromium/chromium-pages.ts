// The page steps every Chromium action and read is made of: going to a page (classified by its URL; a
// login, authwall or checkpoint stops everything), waiting for a page's content (LinkedIn hydrates after
// `domcontentloaded`), and the one irreversible click of an action (`commit`), after which every failure
// is `unconfirmed` - the engine then asks the outcome check, it never retries blind. Confirmations are
// STATES on the page (the dialog gone, the button pressed, our text in the thread), never a navigation:
// LinkedIn is a single-page app, its actions are fetch calls.
import type { Logger } from 'pino';
import type { Locator, Page } from 'playwright-core';
import type { FailureReason } from '../../channels/driver.js';
import type { PersonRef } from '../../channels/reader.js';
import {
  classifyUrl,
  linkedInUrls,
  type PageKind,
  profileHandle,
  SELECTORS as S,
  sessionProblem,
} from './linkedin-pages.js';
import { pageDumps } from './page-dumps.js';
import { SeatBusyError } from './seat-browsers.js';

export type StopReason = FailureReason | 'selector_miss';

/** An expected stop: the action or read ends with this typed reason. */
export class Stop extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
  ) {
    super(message);
  }
}

export const stop = (reason: StopReason, message: string): never => {
  throw new Stop(reason, message);
};

export type ChromiumSeat = { teamId: number; seatId: number };

export type ChromiumOptions = {
  browsers: import('./seat-browsers.js').SeatBrowsers;
  /** https://www.linkedin.com, or the replica in tests. */
  baseUrl: string;
  logger?: Logger;
  /** Longest wait for a page or an element (ms). */
  timeoutMs?: number;
  /** Longest wait for an action's confirmation after its irreversible click (ms; default timeoutMs). */
  confirmTimeoutMs?: number;
  /**
   * Longest wait for a loaded page's content - its card, list or empty state - before `selector_miss`
   * (ms; default timeoutMs). LinkedIn hydrates within a few seconds of `domcontentloaded`.
   */
  contentTimeoutMs?: number;
  /** The seat's invitation-note policy and count (seat-notes.ts); without it: free limits, no prediction. */
  notes?: import('../seat-notes.js').SeatNotes;
  /** The seat's per-action circuit breakers (seat-health.ts); without them nothing pauses. */
  breakers?: import('../seat-health.js').ActionBreakers;
  /** Reads the files of a message's attachments (without it, a message with attachments is refused). */
  attachmentFiles?: import('../../attachments/attachment-files.js').AttachmentFiles;
};

/** The handle of a contact's profile (`/in/<handle>/`): its nickname, else its profile URN id. */
export function handleOf(ref: PersonRef): string | null {
  const nickname = ref.linkedin?.trim();
  if (nickname) return profileHandle(nickname.includes('/in/') ? nickname : `/in/${nickname}/`);
  return ref.ln_id?.trim() || null;
}

/** Whether a locator matches now (a page between documents counts as "no"). */
export const present = (locator: Locator) =>
  locator.count().then(
    (n) => n > 0,
    () => false,
  );

/**
 * A state check that answers within a second: a locator query waits while a navigation is pending (a
 * form post whose answer never comes), and that must read as "not yet", not block the wait forever.
 */
function bounded(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 1_000);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export function failure(
  error: unknown,
  logger: Logger | undefined,
): { reason: StopReason; message: string; retryAfterMs?: number } {
  if (error instanceof Stop) return { reason: error.reason, message: error.message };
  if (error instanceof SeatBusyError)
    return { reason: 'rate_limited', message: error.message, retryAfterMs: 60_000 };
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  logger?.warn({ err: error }, 'LinkedIn browser action failed');
  return { reason: 'transient', message: `The browser failed: ${message}` };
}

/** LinkedIn's own refusals after a click: the action did not happen, so they stand as they are. */
const REFUSALS: ReadonlySet<StopReason> = new Set(['weekly_limit', 'note_quota', 'cant_resend_yet']);

export function pages(options: ChromiumOptions, seat?: ChromiumSeat) {
  const urls = linkedInUrls(options.baseUrl);
  const dumps = pageDumps(
    seat ? options.browsers.pageDumpsDir : undefined,
    seat ?? { teamId: 0, seatId: 0 },
    options.logger,
  );
  const timeout = options.timeoutMs ?? 15_000;
  const confirmTimeout = options.confirmTimeoutMs ?? timeout;
  const contentTimeout = options.contentTimeoutMs ?? timeout;

  /** Where the page is now; a login, authwall or checkpoint page stops everything. */
  function where(page: Page): PageKind {
    const kind = classifyUrl(page.url());
    const problem = sessionProblem(kind);
    if (problem === 'checkpoint')
      stop('checkpoint', 'LinkedIn shows a security checkpoint for this account.');
    if (problem === 'logged_out') stop('logged_out', 'The LinkedIn session of this seat has ended.');
    return kind;
  }

  async function go(page: Page, url: string): Promise<PageKind> {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
    const kind = where(page);
    // A page of no known kind: kept (redacted) for whoever updates the site profile.
    if (kind === 'unknown') await dumps.save(page, { what: `a page of no known kind after ${url}` });
    return kind;
  }

  /** The page is of the right kind but not what the driver knows: saved (redacted), then selector_miss. */
  async function miss(page: Page, missed: string, message: string): Promise<never> {
    await dumps.save(page, { what: message, missed: [missed] });
    return stop('selector_miss', message);
  }

  const has = (page: Page, selector: string) => present(page.locator(selector));

  /**
   * Waits until one of `states` holds (checked in order, every 150 ms) and answers its key, or null when
   * none did within `ms`. Checks run on locators, so a page navigating meanwhile is no error.
   */
  async function until<K extends string>(
    page: Page,
    states: Array<[K, () => Promise<boolean>]>,
    ms: number,
  ): Promise<K | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      // A login or checkpoint page ends the wait at once.
      where(page);
      for (const [key, holds] of states) if (await bounded(holds())) return key;
      if (Date.now() >= deadline) return null;
      await page.waitForTimeout(150);
    }
  }

  /**
   * The hydrated content of a page of the right kind: the first match of `list`, or LinkedIn's empty
   * state; neither in time is `selector_miss` (the page changed or did not render) - never "nothing".
   */
  async function content(page: Page, list: string, what: string, item = what): Promise<'found' | 'empty'> {
    const seen = await until(
      page,
      [
        ['found', () => present(page.locator(list))],
        ['empty', () => present(page.locator(S.emptyState))],
      ],
      contentTimeout,
    );
    if (!seen)
      await miss(page, item, `The ${what} showed neither its list nor an empty state (${page.url()}).`);
    return seen!;
  }

  /**
   * The irreversible step of an action: the control must be ready first (a trial click; failing that, the
   * action did not happen: `transient`), then it is clicked and `confirm` runs. From the click on, any
   * failure but LinkedIn's own refusals is `unconfirmed`: the outcome check decides, no retry.
   */
  async function commit<T>(target: Locator, what: string, confirm: () => Promise<T>): Promise<T> {
    await target.click({ trial: true, timeout });
    try {
      await target.click({ timeout: 5_000, noWaitAfter: true });
      return await confirm();
    } catch (error) {
      if (error instanceof Stop && (REFUSALS.has(error.reason) || error.reason === 'unconfirmed'))
        throw error;
      const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return stop('unconfirmed', `${what} was clicked, then: ${cause}`);
    }
  }

  /**
   * After `commit`'s click: waits for a confirming state, else `unconfirmed`. An error toast ends the
   * wait at once (still `unconfirmed`: LinkedIn may have done it all the same) unless `states` reads it.
   */
  async function confirmed<K extends string>(
    page: Page,
    what: string,
    states: Array<[K, () => Promise<boolean>]>,
  ): Promise<K> {
    const toast = page.locator(S.errorToast).first();
    const seen = await until<K | 'error_toast'>(
      page,
      [...states, ['error_toast', () => present(toast)]],
      confirmTimeout,
    );
    if (seen === 'error_toast') {
      const said = (await toast.innerText({ timeout: 1_000 }).catch(() => '')).trim();
      stop('unconfirmed', `${what}: LinkedIn showed an error after the click: ${said || '(no text)'}`);
    }
    if (!seen)
      stop('unconfirmed', `${what}: LinkedIn showed no confirmation within ${confirmTimeout / 1000} s.`);
    return seen as K;
  }

  /** The profile's top card (either layout), once hydrated. */
  async function profile(page: Page, handle: string): Promise<Locator> {
    const kind = await go(page, urls.profile(handle));
    if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
    if (kind !== 'profile') stop('transient', `Expected a profile page, got ${page.url()}.`);
    const card = page.locator(S.profile.topCard).first();
    const seen = await until(page, [['card', () => present(card)]], contentTimeout);
    if (!seen)
      await miss(page, 'profile.topCard', `The profile ${handle} showed no top card this driver knows.`);
    return card;
  }

  type Relation = 'connected' | 'pending' | 'connectable' | 'menu' | 'follow_only';
  /** The member's relation to the seat, read inside the top card only (rails list other people). */
  async function relation(page: Page, card: Locator, handle: string): Promise<Relation> {
    if (await present(card.locator(S.profile.pending))) return 'pending';
    if (await present(card.locator(S.profile.message))) return 'connected';
    if (await present(connectControl(page, card, handle))) return 'connectable';
    const more = card.locator(S.profile.more).first();
    if (await present(more)) {
      await more.click({ timeout });
      const menu = page.locator(`${S.profile.menuConnect}, [role="menu"] :is(${inviteLink(handle)})`);
      if (await present(menu)) return 'menu';
    }
    return 'follow_only';
  }

  /** The target's own invite link (page-wide: it carries their slug), else Connect in their top card. */
  function connectControl(page: Page, card: Locator, handle: string): Locator {
    return page
      .locator(inviteLink(handle))
      .or(card.locator(S.profile.connect))
      .filter({ visible: true })
      .first();
  }

  return {
    urls,
    timeout,
    contentTimeout,
    where,
    go,
    miss,
    dumps,
    has,
    until,
    content,
    commit,
    confirmed,
    profile,
    relation,
    connectControl,
  };
}

/** The custom-invite link of one member (real: `/preload/custom-invite/?vanityName=<slug>`). */
export const inviteLink = (handle: string) => {
  const slug = encodeURIComponent(handle).replace(/["\\]/g, '');
  // The vanity ends the URL or is followed by another parameter: person-1 is not person-10.
  return `a[href*="/preload/custom-invite/?vanityName=${slug}&"], a[href$="/preload/custom-invite/?vanityName=${slug}"]`;
};

export type Pages = ReturnType<typeof pages>;
