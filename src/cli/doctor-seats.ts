// `leadflow doctor`'s view of the chromium seats' selector health (browsers/seat-health.ts): when each
// running seat was last checked, what its check missed, and which action types it holds back.
import type { Database } from '../db/database.js';
import { presentHealth } from '../modules/browsers/seat-health.js';
import type { Check } from './doctor.js';

export async function checkSeatHealth(db: Database | undefined): Promise<Check[]> {
  if (!db) return [];
  const seats = await db
    .selectFrom('linkedin_browsers')
    .select(['id', 'team_id', 'health', 'health_checked_at', 'health_requested_at', 'action_breakers'])
    .where('driver', '=', 'chromium')
    .where('status', '=', 'running')
    .orderBy('id')
    .execute();
  if (seats.length === 0) return [];
  const problems: string[] = [];
  let unchecked = 0;
  for (const seat of seats) {
    const health = presentHealth(seat);
    if (!health.checked_at) unchecked += 1;
    const paused = health.paused_actions.map((p) => p.type.replace(/^linkedin_/, ''));
    if (health.missed.length > 0 || paused.length > 0 || health.error) {
      problems.push(
        `seat ${seat.id} (team ${seat.team_id}, checked ${health.checked_at?.toISOString() ?? 'never'}): ` +
          [
            health.missed.length > 0 ? `missed ${health.missed.join(', ')}` : '',
            paused.length > 0 ? `paused ${paused.join(', ')}` : '',
            health.error ? `could not check: ${health.error}` : '',
          ]
            .filter(Boolean)
            .join('; '),
      );
    }
  }
  if (problems.length > 0) {
    return [
      {
        name: 'seat health',
        status: 'warn',
        detail: problems.join(' | '),
        fix:
          'LinkedIn pages changed for these seats: see the saved pages under LEADFLOW_LINKEDIN_PAGE_DUMPS_DIR, ' +
          'then ask a new check (POST /browsers/api/linkedin-browsers/{id}/health-check)',
      },
    ];
  }
  return [
    {
      name: 'seat health',
      status: unchecked > 0 ? 'info' : 'ok',
      detail: `${seats.length} running chromium seat(s); ${unchecked > 0 ? `${unchecked} not checked yet` : 'every last check found all pages'}`,
    },
  ];
}
