// The login link's rows: which seat a link's key opens, and the seat's viewer lease (one viewer at a
// time; the lease also parks the seat's automation, which reads it in database time).
import { sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { hashAccessKey, looksLikeAccessKey } from '../access-keys.js';

/** How long a viewer lease lasts without renewal (a crashed process frees the seat after this). */
export const VIEWER_LEASE_MS = 30_000;

export type SeatOfKey = {
  team_id: number;
  id: number;
  sender_profile_uuid: string;
  driver: string;
  linkedin_member_id: string | null;
  access_key_expires_at: Date | null;
};

export type KeyCheck =
  | { ok: true; seat: SeatOfKey; hash: string }
  | { ok: false; status: 404 | 410; title: string; message: string };

export async function checkKey(db: Database, clock: Clock, key: string): Promise<KeyCheck> {
  const invalid = {
    ok: false,
    status: 404,
    title: 'Link not valid',
    message: 'This login link is not valid. A newer link may have replaced it: ask for the current one.',
  } as const;
  if (!looksLikeAccessKey(key)) return invalid;
  const hash = hashAccessKey(key);
  const seat = await db
    .selectFrom('linkedin_browsers')
    .select(['team_id', 'id', 'sender_profile_uuid', 'driver', 'linkedin_member_id', 'access_key_expires_at'])
    .where('access_key_hash', '=', hash)
    .executeTakeFirst();
  if (seat?.driver !== 'chromium') return invalid;
  if (!seat.access_key_expires_at || seat.access_key_expires_at <= clock.now()) {
    return {
      ok: false,
      status: 410,
      title: 'Link expired',
      message: 'This login link has expired (links last 7 days). Ask for a new one.',
    };
  }
  return { ok: true, seat, hash };
}

/**
 * Takes the seat's viewer lease unless someone else holds it; renewing needs the key unchanged. The
 * lease is in database time, as the engine reads it.
 */
export async function takeLease(
  db: Database,
  clock: Clock,
  seat: SeatOfKey,
  hash: string,
  viewerId: string,
): Promise<boolean> {
  const taken = await db
    .updateTable('linkedin_browsers')
    .set({
      viewer_lease_until: sql<Date>`now() + make_interval(secs => ${VIEWER_LEASE_MS / 1000})`,
      viewer_id: viewerId,
    })
    .where('team_id', '=', seat.team_id)
    .where('id', '=', seat.id)
    .where('access_key_hash', '=', hash)
    .where('access_key_expires_at', '>', clock.now())
    .where((eb) =>
      eb.or([
        eb('viewer_lease_until', 'is', null),
        eb('viewer_lease_until', '<=', sql<Date>`now()`),
        eb('viewer_id', '=', viewerId),
      ]),
    )
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

export async function endLease(db: Database, seat: SeatOfKey, viewerId: string) {
  await db
    .updateTable('linkedin_browsers')
    .set({ viewer_lease_until: null, viewer_id: null })
    .where('team_id', '=', seat.team_id)
    .where('id', '=', seat.id)
    .where('viewer_id', '=', viewerId)
    .execute();
}
