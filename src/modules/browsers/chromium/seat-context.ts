// Opening one seat's browser context: its row read, Chromium checked, its proxy checked and set on the
// context (per context: two seats of one process never share a proxy), its identity (user agent,
// locale and time zone of its proxy's country), and its LinkedIn session restored from the sealed copy.
// Nothing of a seat is written to disk by Chromium: a context keeps its storage in memory, and the
// session lives sealed in the seat's row (saved by seat-browsers.ts).
import type { BrowserContext } from 'playwright-core';
import type { Database } from '../../../db/database.js';
import { BlockedTargetError, type OutboundGuard } from '../../../lib/net/outbound.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { markSeatStartIssue } from '../browsers.repository.js';
import type { StoredProxy } from '../browsers.tables.js';
import { browserProxy } from '../seat-proxy.js';
import type { SeatSession, SessionCookie } from '../seat-session.js';
import type { BrowserProcesses } from './chromium-processes.js';
import { seatIdentity } from './seat-identity.js';

export type SeatContextDeps = {
  db: Database;
  box: SecretBox;
  processes: BrowserProcesses;
  chromiumPath: string;
  proxyGuard: OutboundGuard;
  startProblem: () => Promise<string | undefined>;
  onContext?: (context: BrowserContext, seat: { teamId: number; seatId: number }) => Promise<void>;
  now: () => Date;
};

/** What a seat's browser is started from. */
export function seatRow(db: Database, teamId: number, seatId: number) {
  return db
    .selectFrom('linkedin_browsers')
    .select([
      'session_sealed',
      'session_version',
      'custom_proxy_config',
      'proxy_password_sealed',
      'proxy_country_code',
    ])
    .where('team_id', '=', teamId)
    .where('id', '=', seatId)
    .executeTakeFirst();
}

/** The browser's cookies as a session is stored. */
export async function cookiesOf(context: BrowserContext): Promise<SessionCookie[]> {
  return (await context.cookies()).map((c) => ({
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite,
  }));
}

/** The seat's new context and the session version it started from. Throws when it cannot start. */
export async function openSeatContext(
  deps: SeatContextDeps,
  teamId: number,
  seatId: number,
): Promise<{ context: BrowserContext; version: number }> {
  const row = await seatRow(deps.db, teamId, seatId);
  if (!row) throw new Error(`LinkedIn seat ${seatId} of team ${teamId} does not exist.`);
  // A start that cannot work until someone acts (no Chromium, a refused proxy) shows on the seat.
  const refuse = async (reason: string): Promise<never> => {
    await markSeatStartIssue(deps.db, teamId, seatId, reason, deps.now());
    throw new Error(reason);
  };
  const problem = await deps.startProblem();
  if (problem) await refuse(problem);
  const proxy = await browserProxy(
    {
      custom_proxy_config: row.custom_proxy_config as StoredProxy[],
      proxy_password_sealed: row.proxy_password_sealed,
    },
    deps.box,
    deps.proxyGuard,
  ).catch((error) =>
    error instanceof BlockedTargetError
      ? refuse(`The seat's proxy is refused: ${error.message}`)
      : Promise.reject(error),
  );
  // No automation markers: see seat-identity.ts for what was measured.
  const identity = await seatIdentity(deps.chromiumPath, row.proxy_country_code);
  const context = await deps.processes.newContext({
    viewport: { width: 1280, height: 800 },
    ...identity,
    ...(proxy ? { proxy } : {}),
  });
  try {
    if (deps.onContext) await deps.onContext(context, { teamId, seatId });
    if (row.session_sealed) {
      const session = JSON.parse(deps.box.openText(row.session_sealed)) as SeatSession;
      if (session.cookies.length > 0) await context.addCookies(session.cookies);
    }
    return { context, version: row.session_version };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}
