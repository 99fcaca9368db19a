import { type Kysely, sql } from 'kysely';

// A chromium seat's selector health: the last health tour's report (which hook matched each item of each
// page, what was missing), when it ran and when one was asked for, and the per-action circuit breakers
// (action type -> misses in a row, open since when and why). An open breaker pauses that action type
// for the seat.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table linkedin_browsers
      add column health jsonb,
      add column health_checked_at timestamptz,
      add column health_requested_at timestamptz,
      add column action_breakers jsonb not null default '{}'::jsonb;
  `.execute(db);
}
