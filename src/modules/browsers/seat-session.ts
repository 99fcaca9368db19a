// A seat's LinkedIn session at rest: the browser's cookies, sealed with the secret box in the seat's
// row. Any process that starts the seat's browser restores them, so a seat survives restarts and moves
// between worker processes; nothing readable stays on disk once a browser closes.
import { v5 as uuidv5 } from 'uuid';
import type { Database, Executor } from '../../db/database.js';
import type { SecretBox } from '../../lib/secrets.js';
import { resumeSenderActions } from '../enrollments/sender-pauses.js';

export type SessionCookie = {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
};

export type SeatSession = { cookies: SessionCookie[] };

/** Namespace of LinkedIn account uuids: the same account of a team always gets the same uuid. */
const ACCOUNT_NAMESPACE = '6f1c6f0e-52b4-4d0a-9a8e-6a0c3c1b7d21';

export function accountUuid(teamId: number, memberId: string): string {
  return uuidv5(`${teamId}:${memberId}`, ACCOUNT_NAMESPACE);
}

export async function loadSession(
  db: Executor,
  box: SecretBox,
  teamId: number,
  seatId: number,
): Promise<{ session: SeatSession | null; version: number } | undefined> {
  const row = await db
    .selectFrom('linkedin_browsers')
    .select(['session_sealed', 'session_version'])
    .where('team_id', '=', teamId)
    .where('id', '=', seatId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: row.session_sealed ? (JSON.parse(box.openText(row.session_sealed)) as SeatSession) : null,
    version: row.session_version,
  };
}

/**
 * Stores the browser's current cookies (after actions, before a browser closes). Does not bump the
 * version: the browser that saved them already has them.
 */
export async function saveSession(
  db: Executor,
  box: SecretBox,
  teamId: number,
  seatId: number,
  session: SeatSession,
  now: Date,
) {
  await db
    .updateTable('linkedin_browsers')
    .set({ session_sealed: box.seal(JSON.stringify(session)), session_saved_at: now })
    .where('team_id', '=', teamId)
    .where('id', '=', seatId)
    .execute();
}

/**
 * A login succeeded (the live view saw LinkedIn's session cookie): the session is stored, the account
 * recorded, the seat runs and the sender's parked actions resume. Other processes' open browsers of the
 * seat see the new version and restart with the new session.
 */
export async function recordLogin(
  db: Database,
  box: SecretBox,
  seat: { team_id: number; id: number; sender_profile_uuid: string },
  login: { session: SeatSession; memberId: string },
  now: Date,
) {
  const account = accountUuid(seat.team_id, login.memberId);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('linkedin_browsers')
      .set((eb) => ({
        session_sealed: box.seal(JSON.stringify(login.session)),
        session_saved_at: now,
        session_version: eb('session_version', '+', 1),
        linkedin_member_id: login.memberId,
        linkedin_account_uuid: account,
        status: 'running',
        error_reason: null,
        last_start_at: now,
        updated_at: now,
      }))
      .where('team_id', '=', seat.team_id)
      .where('id', '=', seat.id)
      .execute();
    await resumeSenderActions(
      trx,
      seat.team_id,
      seat.sender_profile_uuid,
      ['no_linkedin_seat', 'seat_login_issue'],
      now,
    );
  });
  return account;
}
