// The public login live view: whoever holds a seat's login link sees the seat's own Chromium (JPEG
// screencast frames) and drives it with mouse, keyboard and paste - nothing else. One viewer per seat
// at a time (a lease in the seat's row, which also parks the seat's automation), the link's key checked
// on every connection and at every lease renewal (a new key ends the visit), navigation kept on
// LinkedIn, one tab. When LinkedIn's session cookie appears on a signed-in page the login is recorded
// (sealed session, linkedin_account_uuid, status running) and the page is told.
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CDPSession, Page, Route } from 'playwright-core';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { SecretBox } from '../../../lib/secrets.js';
import {
  classifyUrl,
  isLinkedInUrl,
  linkedInUrls,
  profileHandle,
  SELECTORS,
  SESSION_COOKIE,
} from '../chromium/linkedin-pages.js';
import { cookiesOf, type HeldSeatBrowser, type SeatBrowsers } from '../chromium/seat-browsers.js';
import { recordLogin } from '../seat-session.js';
import { applyInput, parseInput } from './live-view.protocol.js';
import { checkKey, endLease, type SeatOfKey, takeLease } from './live-view.repository.js';

/** How often a visit renews its lease (VIEWER_LEASE_MS); also how soon a new key ends a visit of the old link. */
const LEASE_RENEW_MS = 5_000;
const COOKIE_POLL_MS = 500;
/**
 * A signed-in session on a page of no known kind (a post-login step LinkedIn added) counts after this long,
 * when the page shows the signed-in navigation: the visit must not stall until the person finds the feed.
 */
const UNKNOWN_PAGE_GRACE_MS = 3_000;
/** Input events queued for the browser at most; more are dropped (a flooding page cannot pile them up). */
const MAX_PENDING_INPUTS = 500;

/** Close codes of the live view socket (4000-4999 are the application's). */
export const CLOSE = {
  done: 4000,
  invalid: 4404,
  expired: 4410,
  busy: 4409,
  timeUp: 4408,
  failed: 4500,
} as const;

export type ServerMessage =
  | { type: 'frame'; data: string; width: number; height: number }
  | {
      type: 'status';
      state: 'starting' | 'ready' | 'blocked' | 'established';
      message: string;
      linkedin_account_uuid?: string;
    }
  | { type: 'error'; code: number; message: string };

/** The socket as the live view sees it (the routes adapt the WebSocket). */
export type ViewerChannel = {
  /** Sends a message; `sent` runs once it left (frames are acknowledged then: flow control). */
  send(message: ServerMessage, sent?: () => void): void;
  close(code: number, reason: string): void;
};

export type ViewerHandle = {
  /** A text message from the page (only input events are acted on). */
  input(raw: string): void;
  /** The page went away. */
  disconnect(): void;
  /** Settles when the visit is over and everything is released. */
  readonly finished: Promise<void>;
};

export type LiveViewDeps = {
  db: Database;
  clock: Clock;
  box: SecretBox;
  browsers: SeatBrowsers;
  config: { linkedin: { baseUrl: string; viewerMaxMs: number } };
  logger?: Logger;
};

export function createLiveView(deps: LiveViewDeps) {
  const { db, clock, box, browsers } = deps;
  const base = deps.config.linkedin.baseUrl;
  const urls = linkedInUrls(base);
  const log = deps.logger?.child({ component: 'live-view' });

  /** The member id of the signed-in account: its profile path from the navigation ("Me"). */
  async function memberIdOf(page: Page, seat: SeatOfKey, sessionToken: string): Promise<string> {
    const href = await page
      .locator(SELECTORS.ownProfileLink)
      .first()
      .getAttribute('href', { timeout: 5000 })
      .catch(() => null);
    const handle = href ? profileHandle(href) : null;
    if (handle) return handle;
    // Not shown (LinkedIn changed its navigation): keep the account the seat had, else one per session.
    return (
      seat.linkedin_member_id ??
      `session-${createHash('sha256').update(sessionToken).digest('hex').slice(0, 16)}`
    );
  }

  function connect(key: string, channel: ViewerChannel): ViewerHandle {
    const viewerId = randomUUID();
    let ended = false;
    /** The page went away (the visit ends as soon as its start settles). */
    let left = false;
    let seat: SeatOfKey | undefined;
    let leased = false;
    let held: HeldSeatBrowser | undefined;
    let cdp: CDPSession | undefined;
    let inputs: Promise<void> = Promise.resolve();
    let pending = 0;
    const timers: NodeJS.Timeout[] = [];
    const cleanups: Array<() => Promise<void> | void> = [];
    let resolveFinished!: () => void;
    const finished = new Promise<void>((resolve) => {
      resolveFinished = resolve;
    });

    /** Undoes a setup step when the visit ends (at once, if it ended while the step was being set up). */
    const onEnd = (cleanup: () => Promise<void> | void) => {
      if (!ended) cleanups.push(cleanup);
      else
        void Promise.resolve()
          .then(cleanup)
          .catch(() => {});
    };

    const fail = (code: number, message: string) => {
      channel.send({ type: 'error', code, message });
      void end(code, message);
    };

    async function end(code: number, reason: string) {
      if (ended) return;
      ended = true;
      for (const timer of timers) clearInterval(timer);
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          log?.debug({ err: error }, 'live view cleanup failed');
        }
      }
      held?.release();
      if (seat && leased) await endLease(db, seat, viewerId).catch(() => {});
      channel.close(code, reason.slice(0, 120));
      log?.info({ seatId: seat?.id, code }, 'live view ended');
      resolveFinished();
    }

    async function established(page: Page, token: string) {
      if (!seat || !held || ended) return;
      const memberId = await memberIdOf(page, seat, token);
      const account = await recordLogin(
        db,
        box,
        seat,
        { session: { cookies: await cookiesOf(held.context) }, memberId },
        clock.now(),
      );
      await browsers.adoptSession(seat.team_id, seat.id);
      log?.info({ seatId: seat.id }, 'live view login recorded');
      channel.send({
        type: 'status',
        state: 'established',
        message: 'You are signed in to LinkedIn. The account is connected; you can close this page.',
        linkedin_account_uuid: account,
      });
      await end(CLOSE.done, 'signed in');
    }

    async function start() {
      const check = await checkKey(db, clock, key);
      if (!check.ok) return fail(check.status === 410 ? CLOSE.expired : CLOSE.invalid, check.message);
      seat = check.seat;
      if (!(await takeLease(db, clock, seat, check.hash, viewerId))) {
        return fail(
          CLOSE.busy,
          'Someone else has this login page open right now. Close it there, or try again in a minute.',
        );
      }
      leased = true;
      if (ended || left) return;
      channel.send({ type: 'status', state: 'starting', message: 'Starting the browser...' });
      const acquired = await browsers.acquire(seat.team_id, seat.id);
      if (ended || left) {
        acquired.release();
        return;
      }
      held = acquired;
      const { context, page } = held;

      // The seat stopped or deleted meanwhile (its browser released), or Chromium died.
      const onClose = () => fail(CLOSE.failed, 'The browser closed. Reload the page to start again.');
      context.on('close', onClose);
      onEnd(() => {
        context.off('close', onClose);
      });

      // One tab: anything else that opens (popups, target=_blank) is closed at once.
      const onPage = (other: Page) => {
        if (other !== page) void other.close().catch(() => {});
      };
      context.on('page', onPage);
      onEnd(() => {
        context.off('page', onPage);
      });
      for (const other of context.pages()) onPage(other);

      // Navigation stays on LinkedIn (frames inside a page - a CAPTCHA - may come from elsewhere).
      const guard = async (route: Route) => {
        const request = route.request();
        let mainFrame = false;
        try {
          mainFrame = request.isNavigationRequest() && request.frame() === page.mainFrame();
        } catch {
          mainFrame = false;
        }
        if (mainFrame && !isLinkedInUrl(request.url(), base)) {
          channel.send({
            type: 'status',
            state: 'blocked',
            message: 'Only LinkedIn can be opened here.',
          });
          // A 204 answer cancels the navigation: the page stays where it was (no error page).
          return route.fulfill({ status: 204, body: '' });
        }
        return route.fallback();
      };
      await context.route('**/*', guard);
      onEnd(() => context.unroute('**/*', guard));

      // The screencast: each frame is acknowledged once sent, so a slow viewer gets fewer frames.
      cdp = await context.newCDPSession(page);
      const session = cdp;
      onEnd(async () => {
        await session.send('Page.stopScreencast').catch(() => {});
        await session.detach().catch(() => {});
      });
      session.on('Page.screencastFrame', (frame) => {
        if (ended) return;
        channel.send(
          {
            type: 'frame',
            data: frame.data,
            width: Math.round(frame.metadata.deviceWidth),
            height: Math.round(frame.metadata.deviceHeight),
          },
          () => void session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {}),
        );
      });
      const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
      await session.send('Page.startScreencast', {
        format: 'jpeg',
        quality: 70,
        maxWidth: viewport.width,
        maxHeight: viewport.height,
      });
      await page.goto(urls.login(), { waitUntil: 'domcontentloaded' }).catch((error) => {
        log?.warn({ err: error, seatId: seat?.id }, 'live view could not open the login page');
      });
      if (ended || left) return;
      channel.send({
        type: 'status',
        state: 'ready',
        message: 'Sign in to LinkedIn in the window below (your password never reaches us).',
      });

      const current = seat;
      const hash = check.hash;
      timers.push(
        setInterval(() => {
          void takeLease(db, clock, current, hash, viewerId)
            .then((still) => {
              if (!still) fail(CLOSE.invalid, 'This login link was replaced by a newer one.');
            })
            .catch((error) => log?.warn({ err: error }, 'renewing the viewer lease failed'));
        }, LEASE_RENEW_MS),
      );
      const maxTimer = setTimeout(
        () => fail(CLOSE.timeUp, 'This visit took too long; reload the page to start again.'),
        deps.config.linkedin.viewerMaxMs,
      );
      timers.push(maxTimer);
      let checking = false;
      /** Since when the session cookie is set on a page of no known kind. */
      let unknownSince: number | null = null;
      timers.push(
        setInterval(() => {
          if (checking || ended) return;
          checking = true;
          void (async () => {
            const cookie = (await context.cookies(urls.base)).find(
              (c) => c.name === SESSION_COOKIE && c.value !== '',
            );
            const kind = classifyUrl(page.url());
            unknownSince = cookie && kind === 'unknown' ? (unknownSince ?? Date.now()) : null;
            if (cookie && !['login', 'checkpoint', 'authwall', 'unknown'].includes(kind)) {
              await established(page, cookie.value);
            } else if (
              cookie &&
              unknownSince !== null &&
              Date.now() - unknownSince >= UNKNOWN_PAGE_GRACE_MS &&
              (await page.locator(SELECTORS.signedInNav).count()) > 0
            ) {
              await established(page, cookie.value);
            }
          })()
            .catch((error) => log?.warn({ err: error }, 'live view session check failed'))
            .finally(() => {
              checking = false;
            });
        }, COOKIE_POLL_MS),
      );
    }

    const ready = start().catch((error) => {
      log?.error({ err: error, seatId: seat?.id }, 'live view failed');
      fail(CLOSE.failed, 'The browser could not be started. Try again in a minute.');
    });

    return {
      input(raw) {
        const message = parseInput(raw);
        // Dropped: anything but an input event, and input beyond what the browser keeps up with.
        if (!message || pending >= MAX_PENDING_INPUTS) return;
        pending += 1;
        inputs = inputs
          .then(() => ready)
          .then(async () => {
            if (ended || !held) return;
            await applyInput(held.page, message);
          })
          .catch((error) => log?.debug({ err: error }, 'live view input failed'))
          .finally(() => {
            pending -= 1;
          });
      },
      disconnect() {
        // The visit ends once its start settles (whatever it holds by then is let go).
        left = true;
        void ready.then(() => end(CLOSE.done, 'left'));
      },
      finished,
    };
  }

  return { checkKey: (key: string) => checkKey(db, clock, key), connect };
}

export type LiveView = ReturnType<typeof createLiveView>;
