// Claiming due enrollments: any number of worker processes take disjoint batches (SKIP LOCKED), and a
// claim moves the row's next_run_at one lease ahead, so the rows of a worker that dies come back by
// themselves when the lease runs out. The claim token fences a worker that lost its rows that way.
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
      order by next_run_at
      limit ${limit}
      for update skip locked
    )
    update flow_leads fl set next_run_at = ${leaseUntil}, claim_token = fl.claim_token + 1
    from due
    where fl.team_id = due.team_id and fl.uuid = due.uuid
    returning fl.*
  `.execute(db);
  return result.rows;
}

/** The earliest next_run_at among claimable rows (the runner sleeps until then, bounded). */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  const result = await sql<{ at: Date | null }>`
    select next_run_at as at from flow_leads
    where status = 'in_progress' and flow_active and next_run_at is not null
    order by next_run_at limit 1
  `.execute(db);
  return result.rows[0]?.at ?? null;
}
