// The selector health round, every 5 minutes: the running chromium seat most in need of a health tour -
// one asked for through the API, one logged in since its last tour, or one not checked for a day - takes
// it (one seat a round: a tour opens about a dozen pages), and its report opens or closes the seat's
// action breakers (seat-health.ts). A seat someone is logging in through is left alone.

import { sql } from 'kysely';
import type { Logger } from 'pino';
import { Type } from 'typebox';
import { crossTeam } from '../../db/citus.js';
import type { Database } from '../../db/database.js';
import { handleJob, jobType } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { type HealthReport, healthTour } from './chromium/chromium-health.js';
import type { SeatBrowsers } from './chromium/seat-browsers.js';
import { applyHealthReport } from './seat-health.js';

export const HEALTH_TOUR_EVERY_MS = 86_400_000;

export const seatHealthJob = jobType('browsers.seatHealth', Type.Object({}), {
  schedule: '*/5 * * * *',
  maxAttempts: 1,
});

export type SeatHealthDeps = {
  db: Database;
  clock: Clock;
  browsers: SeatBrowsers;
  baseUrl: string;
  log?: Logger;
};

/** The running chromium seat most in need of a tour, or none. */
export async function dueHealthTour(db: Database, now: Date) {
  const rows = await sql<{ team_id: number; id: number }>`
    ${crossTeam('seat-health-due')} select team_id, id from linkedin_browsers
    where driver = 'chromium' and status = 'running'
      and (viewer_lease_until is null or viewer_lease_until < ${now})
      and (health_checked_at is null
        or health_requested_at > health_checked_at
        or last_start_at > health_checked_at
        or health_checked_at < ${new Date(now.getTime() - HEALTH_TOUR_EVERY_MS)})
    order by (health_requested_at > coalesce(health_checked_at, '-infinity')) desc, health_checked_at nulls first
    limit 1
  `.execute(db);
  return rows.rows[0] ?? null;
}

/** Runs one due tour; answers the seat it checked, or null when none was due. */
export async function runDueHealthTour(deps: SeatHealthDeps) {
  const due = await dueHealthTour(deps.db, deps.clock.now());
  if (!due) return null;
  const seat = { teamId: due.team_id, seatId: due.id };
  const report: HealthReport = await deps.browsers
    .use(seat.teamId, seat.seatId, ({ page }) =>
      healthTour(page, { browsers: deps.browsers, baseUrl: deps.baseUrl, logger: deps.log }, seat),
    )
    .catch((error: unknown) => ({
      // The browser could not run the tour (it could not start, someone holds it): recorded, tried
      // again when asked, at the next login or in a day - the breakers stay as they are.
      at: deps.clock.now().toISOString(),
      ownVanity: null,
      steps: [],
      missed: [],
      error: error instanceof Error ? error.message.split('\n')[0]! : String(error),
    }));
  const opened = await applyHealthReport(deps.db, seat, report, deps.clock.now());
  deps.log?.info({ seat, missed: report.missed, opened }, 'LinkedIn seat health checked');
  return { seat, report, opened };
}

export function seatHealthJobHandlers(deps: SeatHealthDeps) {
  return [
    handleJob(seatHealthJob, async (_payload, { log }) => {
      await runDueHealthTour({ ...deps, log: deps.log ?? log });
    }),
  ];
}
