import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { orderByClause, type PageRequest } from '../../lib/pagination.js';
import { SEAT_SORT } from './browsers.sort.js';

/** A seat with its sender's schedule (the seat object shows it). */
function seatsWithSchedule(db: Executor, teamId: number) {
  return db
    .selectFrom('linkedin_browsers as b')
    .leftJoin('sender_profiles as s', (join) =>
      join.onRef('s.team_id', '=', 'b.team_id').onRef('s.uuid', '=', 'b.sender_profile_uuid'),
    )
    .selectAll('b')
    .select('s.schedule')
    .where('b.team_id', '=', teamId);
}

export type SeatRecord = Awaited<ReturnType<typeof selectSeat>> & {};

export async function selectSeat(db: Executor, teamId: number, id: number) {
  return seatsWithSchedule(db, teamId).where('b.id', '=', id).executeTakeFirst();
}

export async function selectSeats(db: Executor, teamId: number, page: PageRequest) {
  const [rows, count] = await Promise.all([
    seatsWithSchedule(db, teamId)
      .orderBy(orderByClause(page, { ...SEAT_SORT, fields: prefixed(SEAT_SORT.fields), tiebreaker: 'b.id' }))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('linkedin_browsers')
      .where('team_id', '=', teamId)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

function prefixed(fields: Record<string, string>) {
  return Object.fromEntries(Object.entries(fields).map(([key, column]) => [key, `b.${column}`]));
}

/** The seat a public login key opens (expired and revoked keys open nothing). */
export async function selectSeatByAccessKey(db: Executor, hash: string, now: Date) {
  return db
    .selectFrom('linkedin_browsers')
    .selectAll()
    .where('access_key_hash', '=', hash)
    .where('access_key_expires_at', '>', now)
    .executeTakeFirst();
}

/** Team members among `emails` (case-insensitive), as their stored addresses. */
export async function selectMemberEmails(db: Executor, teamId: number, emails: string[]) {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.team_id', '=', teamId)
    .where(sql<boolean>`lower(u.email) = any(${emails.map((e) => e.toLowerCase())}::text[])`)
    .execute();
  return rows.map((row) => row.email);
}

/** A running seat whose browser cannot start until someone acts shows why (status `start_issue`). */
export async function markSeatStartIssue(db: Executor, teamId: number, id: number, reason: string, at: Date) {
  await db
    .updateTable('linkedin_browsers')
    .set({ status: 'start_issue', error_reason: reason, updated_at: at })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}
