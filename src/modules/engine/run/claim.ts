// Claiming due enrollments: any number of worker processes take disjoint batches (SKIP LOCKED), and a
// claim holds the rows until `lease_until`, so the rows of a worker that dies come back by themselves
// when the lease runs out. The claim token fences a worker that lost its rows that way - and anything
// that changes an enrollment behind the engine's back (a wake, a reply, a cancel) bumps it too, so a
// batch never overwrites a change made while it ran. Neither column is indexed: a claim is a HOT update.
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { EnrollmentRow } from './work.js';

export async function claimDueEnrollments(
  db: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<EnrollmentRow[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const result = await sql<EnrollmentRow>`
    with due as (
      select team_id, uuid from flow_leads
      where status = 'in_progress' and flow_active and next_run_at is not null and next_run_at <= ${now}
        and (lease_until is null or lease_until <= ${now})
      order by next_run_at
      limit ${limit}
      for update skip locked
    )
    update flow_leads fl set lease_until = ${leaseUntil}, claim_token = fl.claim_token + 1
    from due
    where fl.team_id = due.team_id and fl.uuid = due.uuid
    returning fl.*
  `.execute(db);
  return result.rows;
}

/** The earliest instant an enrollment becomes claimable (its due time, or its lease's end). */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  // Leased rows are few (the batches in flight), so the first thousand due rows cover them.
  const result = await sql<{ at: Date | null }>`
    select min(greatest(next_run_at, coalesce(lease_until, '-infinity'))) as at from (
      select next_run_at, lease_until from flow_leads
      where status = 'in_progress' and flow_active and next_run_at is not null
      order by next_run_at limit 1000
    ) due
  `.execute(db);
  return result.rows[0]?.at ?? null;
}
