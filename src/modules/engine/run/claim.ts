// Claiming due enrollments: any number of worker processes take disjoint batches (SKIP LOCKED), and a
// claim holds the rows until `lease_until`, so the rows of a worker that dies come back by themselves
// when the lease runs out. The claim token fences a worker that lost its rows that way - and anything
// that changes an enrollment behind the engine's back (a wake, a reply, a cancel) bumps it too, so a
// batch never overwrites a change made while it ran. Neither column is indexed: a claim is a HOT update.
// Claims go team by team (src/db/team-claims.ts), so each locking statement is a router query on Citus.
import { type SqlBool, sql } from 'kysely';
import { crossTeam } from '../../../db/citus.js';
import type { Executor } from '../../../db/database.js';
import { claimAcrossTeams } from '../../../db/team-claims.js';
import type { EnrollmentRow } from './work.js';

export async function claimDueEnrollments(
  db: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<EnrollmentRow[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const due = (alias: 't' | 'd') => {
    const c = (column: string) => sql.ref(`${alias}.${column}`);
    return sql<SqlBool>`${c('status')} = 'in_progress' and ${c('flow_active')} and ${c('next_run_at')} is not null
      and ${c('next_run_at')} <= ${now} and (${c('lease_until')} is null or ${c('lease_until')} <= ${now})`;
  };
  return claimAcrossTeams({
    db,
    mark: 'engine-claim',
    table: 'flow_leads',
    due: due('t'),
    order: sql`t.next_run_at`,
    limit,
    async claim(teamId, teamLimit) {
      const result = await sql<EnrollmentRow>`
        with due as (
          select d.team_id, d.uuid from flow_leads d
          where d.team_id = ${teamId} and ${due('d')}
          order by d.next_run_at
          limit ${teamLimit}
          for update skip locked
        )
        update flow_leads fl set lease_until = ${leaseUntil}, claim_token = fl.claim_token + 1
        from due
        where fl.team_id = ${teamId} and fl.uuid = due.uuid
        returning fl.*
      `.execute(db);
      return result.rows;
    },
  });
}

/** The earliest instant an enrollment becomes claimable (its due time, or its lease's end). */
export async function nextDueAt(db: Executor): Promise<Date | null> {
  // Leased rows are few (the batches in flight), so the first thousand due rows cover them.
  const result = await sql<{ at: Date | null }>`
    ${crossTeam('engine-next-due')} select min(greatest(next_run_at, coalesce(lease_until, '-infinity'))) as at from (
      select next_run_at, lease_until from flow_leads
      where status = 'in_progress' and flow_active and next_run_at is not null
      order by next_run_at limit 1000
    ) due
  `.execute(db);
  return result.rows[0]?.at ?? null;
}
