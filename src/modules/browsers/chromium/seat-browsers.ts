// The seats' real browsers in this process: one browser context per seat (chromium-processes.ts: up to
// `seatsPerBrowserProcess` seats share a Chromium process, each with its own cookies, storage and proxy),
// started on demand with the seat's proxy and its LinkedIn session restored from the sealed copy in its
// row (seat-context.ts); its one page closed after `pageIdleMs` without use (the renderer process goes
// with it, the context and its cookies stay); the context closed after an idle timeout (saving the
// session sealed again), and never more than `maxOpenBrowsers` seats open at once (the least recently
// used idle one closes for a new one).
//
// The stable interface other parts build on:
//   - the Chromium driver and reader (chromium-driver.ts) run each action inside `use(...)`;
//   - the public login live view holds a seat's browser with `acquire(...)` (so it is neither idled
//     out nor evicted while someone watches), streams `page`, and after a login calls `recordLogin`
//     (../seat-session.ts) with `context.cookies()` then `adoptSession(...)`;
//   - the seats API calls `release(...)` when a seat is stopped or deleted (SeatRuntime).
import type { Logger } from 'pino';
import type { BrowserContext, Page } from 'playwright-core';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import { type OutboundGuard, outboundGuard } from '../../../lib/net/outbound.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { saveSession } from '../seat-session.js';
import { chromiumProbe } from './chromium-probe.js';
import { createBrowserProcesses } from './chromium-processes.js';
import { cookiesOf, openSeatContext, type SeatContextDeps, seatRow } from './seat-context.js';
import { keyedQueue } from './seat-queue.js';

export { cookiesOf } from './seat-context.js';

export type SeatBrowser = { context: BrowserContext; page: Page };

/** A browser held open: not closed for idleness nor evicted until `release()` (idempotent). */
export type HeldSeatBrowser = SeatBrowser & { release(): void };

export interface SeatBrowsers {
  /**
   * The seat's browser, started if needed (its session restored, its proxy set). A browser whose
   * session changed in the database since it started (a login elsewhere, a proxy change) is restarted.
   * Counts as use for the idle timeouts; the page it gives may close after `pageIdleMs` unused (work
   * belongs in `use`). Throws when the seat does not exist or the browser cannot start.
   */
  open(teamId: number, seatId: number): Promise<SeatBrowser>;
  /**
   * Like `open`, but held until `release()`: the live view holds the browser while someone watches.
   * Waits for the `use` in progress, if any; meanwhile `use` refuses the seat (SeatBusyError):
   * automation never drives a page someone watches.
   */
  acquire(teamId: number, seatId: number): Promise<HeldSeatBrowser>;
  /**
   * Runs `work` with the seat's browser held, one at a time per seat (actions and reads never share a
   * page at once), then saves the session sealed. Throws SeatBusyError while the seat is `acquire`d.
   */
  use<T>(teamId: number, seatId: number, work: (browser: SeatBrowser) => Promise<T>): Promise<T>;
  /** Saves the open browser's cookies sealed into the seat's row (nothing when it is not open). */
  saveSession(teamId: number, seatId: number): Promise<void>;
  /** The open browser's session is the stored one (after `recordLogin` from this very browser). */
  adoptSession(teamId: number, seatId: number): Promise<void>;
  /** Saves the session and closes the seat's context (its storage, kept in memory only, goes with it). */
  close(teamId: number, seatId: number): Promise<void>;
  /** Closes without saving (the seat was stopped or deleted). */
  release(teamId: number, seatId: number): Promise<void>;
  /** Closes every browser, saving each session (process shutdown). */
  closeAll(): Promise<void>;
  /** Seats whose browser is open in this process. */
  openSeats(): Array<{ teamId: number; seatId: number }>;
  /** Chromium processes running for the open seats. */
  processCount(): number;
  /** Why Chromium cannot start in this process (logged as an error), or undefined when it can. */
  startProblem(): Promise<string | undefined>;
  /** Where seats save the pages the driver did not understand (page-dumps.ts); none: not saved. */
  readonly pageDumpsDir: string | undefined;
}

/** The seat's browser is held by someone else (the login live view); try again later. */
export class SeatBusyError extends Error {}

export type SeatBrowsersOptions = {
  config: {
    linkedin: Pick<
      Config['linkedin'],
      'chromiumPath' | 'browserIdleMs' | 'maxOpenBrowsers' | 'seatsPerBrowserProcess'
    > &
      Partial<Pick<Config['linkedin'], 'pageDumpsDir'>>;
  };
  /** A seat's page closes after this long unused (default 10 s); the next use opens a new one. */
  pageIdleMs?: number;
  db: Database;
  secretBox: SecretBox;
  /** Checks the seats' proxy hosts before Chromium connects to them (default: public addresses only). */
  proxyGuard?: OutboundGuard;
  logger?: Logger;
  /** Called on every new context before use (tests install their loopback guard here). */
  onContext?: (context: BrowserContext, seat: { teamId: number; seatId: number }) => Promise<void>;
  /** The process clock (session_saved_at); defaults to the wall clock. */
  now?: () => Date;
};

type Entry = {
  teamId: number;
  seatId: number;
  version: number;
  starting: Promise<SeatBrowser>;
  browser?: SeatBrowser;
  holds: number;
  /** Holds taken by `acquire` (the live view), not by `use`. */
  viewers: number;
  lastUsed: number;
  timer?: NodeJS.Timeout;
  pageTimer?: NodeJS.Timeout;
  /** The idle page being closed. */
  pageClosing?: Promise<void>;
  closing?: Promise<void>;
};

const keyOf = (teamId: number, seatId: number) => `${teamId}:${seatId}`;

export function createSeatBrowsers(options: SeatBrowsersOptions): SeatBrowsers {
  const { db, secretBox: box, logger } = options;
  const proxyGuard = options.proxyGuard ?? outboundGuard({ allowPrivate: false, subject: 'proxies' });
  const settings = options.config.linkedin;
  const now = options.now ?? (() => new Date());
  const entries = new Map<string, Entry>();
  const waiters: Array<() => void> = [];
  const serial = keyedQueue();
  const pageIdleMs = options.pageIdleMs ?? 10_000;
  const processes = createBrowserProcesses({
    executablePath: settings.chromiumPath,
    seatsPerProcess: settings.seatsPerBrowserProcess,
    ...(logger ? { logger } : {}),
  });
  const startProblem = chromiumProbe(settings.chromiumPath, (problem) =>
    logger?.error({ chromiumPath: settings.chromiumPath }, problem),
  );
  const contextDeps: SeatContextDeps = {
    db,
    box,
    processes,
    chromiumPath: settings.chromiumPath,
    proxyGuard,
    startProblem,
    ...(options.onContext ? { onContext: options.onContext } : {}),
    now,
  };

  async function launch(entry: Entry): Promise<SeatBrowser> {
    const { context, version } = await openSeatContext(contextDeps, entry.teamId, entry.seatId);
    entry.version = version;
    try {
      const page = await context.newPage();
      logger?.info({ teamId: entry.teamId, seatId: entry.seatId }, 'seat browser started');
      context.on('close', () => {
        if (entries.get(keyOf(entry.teamId, entry.seatId)) === entry && !entry.closing) {
          // Chromium died by itself: forget it (the next open starts a new one).
          entries.delete(keyOf(entry.teamId, entry.seatId));
          clearTimeout(entry.timer);
          clearTimeout(entry.pageTimer);
          wake();
        }
      });
      entry.browser = { context, page };
      return entry.browser;
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  /** The seat's page, a new one when the idle one was closed. */
  async function pageOf(entry: Entry): Promise<SeatBrowser> {
    await entry.pageClosing;
    const browser = entry.browser!;
    if (!browser.page.isClosed()) return browser;
    entry.browser = { context: browser.context, page: await browser.context.newPage() };
    return entry.browser;
  }

  function wake() {
    const next = waiters.shift();
    next?.();
  }

  function schedule(entry: Entry) {
    clearTimeout(entry.timer);
    clearTimeout(entry.pageTimer);
    entry.lastUsed = Date.now();
    if (entry.holds > 0) return;
    // Idle: the page goes first (its renderer process is most of a seat's memory), the context later.
    entry.pageTimer = setTimeout(() => {
      const page = entry.browser?.page;
      if (entry.holds > 0 || entry.closing || !page || page.isClosed()) return;
      entry.pageClosing = page
        .close()
        .catch(() => {})
        .finally(() => {
          entry.pageClosing = undefined;
        });
    }, pageIdleMs);
    entry.pageTimer.unref();
    entry.timer = setTimeout(() => {
      if (entry.holds === 0 && entries.get(keyOf(entry.teamId, entry.seatId)) === entry) {
        void shut(entry, true).catch((error) =>
          logger?.warn({ err: error, seatId: entry.seatId }, 'closing an idle seat browser failed'),
        );
      }
    }, settings.browserIdleMs);
    entry.timer.unref();
  }

  async function save(entry: Entry) {
    if (!entry.browser) return;
    const cookies = await cookiesOf(entry.browser.context);
    // Only into the session this browser started from: a newer login is not overwritten.
    const row = await seatRow(db, entry.teamId, entry.seatId);
    if (!row || row.session_version !== entry.version) return;
    await saveSession(db, box, entry.teamId, entry.seatId, { cookies }, now());
  }

  function shut(entry: Entry, keepSession: boolean): Promise<void> {
    if (entry.closing) return entry.closing;
    entry.closing = (async () => {
      clearTimeout(entry.timer);
      clearTimeout(entry.pageTimer);
      try {
        await entry.starting.catch(() => {});
        if (keepSession)
          await save(entry).catch((error) => logger?.warn({ err: error }, 'saving a seat session failed'));
        await entry.browser?.context.close().catch(() => {});
      } finally {
        if (entries.get(keyOf(entry.teamId, entry.seatId)) === entry)
          entries.delete(keyOf(entry.teamId, entry.seatId));
        logger?.info({ teamId: entry.teamId, seatId: entry.seatId }, 'seat browser closed');
        wake();
      }
    })();
    return entry.closing;
  }

  /** Makes room for one more browser: evicts the least recently used idle one, or waits. */
  async function room() {
    const deadline = Date.now() + 60_000;
    while (entries.size >= settings.maxOpenBrowsers) {
      const idle = [...entries.values()].filter((e) => e.holds === 0 && !e.closing && e.browser);
      idle.sort((a, b) => a.lastUsed - b.lastUsed);
      const victim = idle[0];
      if (victim) {
        await shut(victim, true);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`All ${settings.maxOpenBrowsers} seat browsers are busy.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async function start(teamId: number, seatId: number): Promise<Entry> {
    for (;;) {
      const key = keyOf(teamId, seatId);
      const existing = entries.get(key);
      if (existing?.closing) {
        await existing.closing;
        continue;
      }
      if (existing) {
        await existing.starting.catch(() => {});
        if (entries.get(key) !== existing) continue;
        if (existing.closing) continue;
        // A login elsewhere or a proxy change bumped the version: restart from the stored session.
        const row = await seatRow(db, teamId, seatId);
        if (!row) {
          await shut(existing, false);
          throw new Error(`LinkedIn seat ${seatId} of team ${teamId} does not exist.`);
        }
        if (row.session_version !== existing.version && existing.holds === 0) {
          await shut(existing, false);
          continue;
        }
        return existing;
      }
      await room();
      if (entries.has(key)) continue;
      const entry: Entry = {
        teamId,
        seatId,
        version: -1,
        starting: Promise.resolve(undefined as never),
        holds: 0,
        viewers: 0,
        lastUsed: Date.now(),
      };
      entry.starting = launch(entry);
      entries.set(key, entry);
      try {
        await entry.starting;
      } catch (error) {
        entries.delete(key);
        wake();
        throw error;
      }
      return entry;
    }
  }

  async function hold(teamId: number, seatId: number, viewer: boolean): Promise<HeldSeatBrowser> {
    const entry = await start(teamId, seatId);
    if (!viewer && entry.viewers > 0) {
      schedule(entry);
      throw new SeatBusyError(`Seat ${seatId} is in its live view; automation waits.`);
    }
    entry.holds += 1;
    if (viewer) entry.viewers += 1;
    clearTimeout(entry.timer);
    clearTimeout(entry.pageTimer);
    let browser: SeatBrowser;
    try {
      browser = await pageOf(entry);
    } catch (error) {
      entry.holds -= 1;
      if (viewer) entry.viewers -= 1;
      schedule(entry);
      throw error;
    }
    let released = false;
    return {
      ...browser,
      release() {
        if (released) return;
        released = true;
        entry.holds -= 1;
        if (viewer) entry.viewers -= 1;
        schedule(entry);
      },
    };
  }

  return {
    async open(teamId, seatId) {
      const entry = await start(teamId, seatId);
      const browser = await pageOf(entry);
      schedule(entry);
      return browser;
    },
    // After the work in progress (an action mid-way finishes first); work queued later is refused.
    acquire: (teamId, seatId) => serial(keyOf(teamId, seatId), () => hold(teamId, seatId, true)),
    use(teamId, seatId, work) {
      const key = keyOf(teamId, seatId);
      return serial(key, async () => {
        const held = await hold(teamId, seatId, false);
        try {
          const result = await work({ context: held.context, page: held.page });
          const entry = entries.get(key);
          if (entry && !entry.closing) {
            await save(entry).catch((error) => logger?.warn({ err: error }, 'saving a seat session failed'));
          }
          return result;
        } finally {
          held.release();
        }
      });
    },
    async saveSession(teamId, seatId) {
      const entry = entries.get(keyOf(teamId, seatId));
      if (entry && !entry.closing) await save(entry);
    },
    async adoptSession(teamId, seatId) {
      const entry = entries.get(keyOf(teamId, seatId));
      const row = await seatRow(db, teamId, seatId);
      if (entry && row) entry.version = row.session_version;
    },
    async close(teamId, seatId) {
      const entry = entries.get(keyOf(teamId, seatId));
      if (entry) await shut(entry, true);
    },
    async release(teamId, seatId) {
      const entry = entries.get(keyOf(teamId, seatId));
      if (entry) await shut(entry, false);
    },
    async closeAll() {
      await Promise.all([...entries.values()].map((entry) => shut(entry, true)));
      await processes.closeAll();
    },
    openSeats() {
      return [...entries.values()]
        .filter((e) => !e.closing)
        .map((e) => ({ teamId: e.teamId, seatId: e.seatId }));
    },
    processCount: () => processes.count(),

    startProblem,
    pageDumpsDir: settings.pageDumpsDir,
  };
}
