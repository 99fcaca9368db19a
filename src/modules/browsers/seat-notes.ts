// A LinkedIn seat's invitation notes. Free accounts take notes of at most 200 characters and about 5
// personalised invitations per month (LinkedIn then swaps the note field, or the dialog at Send, for a
// Premium upsell); Premium accounts take 300 characters and have no such quota. The seat counts the notes
// it sent over the last 30 days so the quota is PREDICTED (no dialog is opened for a note that would be
// refused), and remembers LinkedIn's last refusal. `note_quota_action` says what a quota does to an
// invitation: fail the step (`note_quota`), or send the invitation without its note.
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { NoteQuotaAction } from './browsers.tables.js';

/** The longest note of a free account, and of a Premium one (LinkedIn's note field). */
export const FREE_NOTE_MAX_CHARS = 200;
export const PREMIUM_NOTE_MAX_CHARS = 300;
/** The window the free note quota is counted over (LinkedIn says "per month"). */
export const NOTE_WINDOW_MS = 30 * 86_400_000;

export type NotePolicy = {
  premium: boolean;
  onQuota: NoteQuotaAction;
  /** The longest note this seat may send. */
  maxChars: number;
  /** Notes the seat may still send in the window (null: Premium, no quota). */
  left: number | null;
};

type NoteColumns = {
  linkedin_premium: boolean;
  note_quota_action: NoteQuotaAction;
  free_notes_per_month: number;
  notes_sent_at: Date[];
  note_quota_refused_at: Date | null;
};

const inWindow = (at: Date, now: Date) => at.getTime() > now.getTime() - NOTE_WINDOW_MS;

/**
 * What a seat's notes may be now. A refusal by LinkedIn inside the window counts as "none left" (its
 * quota may reset sooner; the window is the safe side).
 */
export function notePolicyOf(row: NoteColumns, now: Date): NotePolicy & { sent: number } {
  const sent = row.notes_sent_at.filter((at) => inWindow(new Date(at), now)).length;
  const refused = row.note_quota_refused_at !== null && inWindow(row.note_quota_refused_at, now);
  return {
    premium: row.linkedin_premium,
    onQuota: row.note_quota_action,
    maxChars: row.linkedin_premium ? PREMIUM_NOTE_MAX_CHARS : FREE_NOTE_MAX_CHARS,
    left: row.linkedin_premium ? null : refused ? 0 : Math.max(0, row.free_notes_per_month - sent),
    sent,
  };
}

/** The seat's `invitations` as the API shows it. */
export function presentInvitations(row: NoteColumns, now: Date) {
  const policy = notePolicyOf(row, now);
  return {
    premium: row.linkedin_premium,
    note_quota: row.note_quota_action,
    free_notes_per_month: row.free_notes_per_month,
    note_max_chars: policy.maxChars,
    notes_sent_30_days: policy.sent,
    notes_left: policy.left,
    note_quota_refused_at: row.note_quota_refused_at,
  };
}

/** What the Chromium driver asks and tells about a seat's notes (ChromiumOptions.notes). */
export type SeatNotes = {
  policy(): Promise<NotePolicy>;
  /** An invitation with a note went out (or may have: unconfirmed). */
  sent(): Promise<void>;
  /** LinkedIn refused a note (asked for Premium). */
  refused(): Promise<void>;
};

type Seat = { teamId: number; seatId: number };

export function seatNotes(db: Database, seat: Seat, clock: () => Date = () => new Date()): SeatNotes {
  return {
    async policy() {
      const row = await db
        .selectFrom('linkedin_browsers')
        .select([
          'linkedin_premium',
          'note_quota_action',
          'free_notes_per_month',
          'notes_sent_at',
          'note_quota_refused_at',
        ])
        .where('team_id', '=', seat.teamId)
        .where('id', '=', seat.seatId)
        .executeTakeFirst();
      // A seat deleted meanwhile: the strictest policy.
      return row
        ? notePolicyOf(row, clock())
        : { premium: false, onQuota: 'fail', maxChars: FREE_NOTE_MAX_CHARS, left: 0 };
    },
    async sent() {
      const now = clock();
      const since = new Date(now.getTime() - NOTE_WINDOW_MS);
      await sql`
        update linkedin_browsers
        set notes_sent_at = array(select t from unnest(notes_sent_at) t where t > ${since}) || ${now}::timestamptz
        where team_id = ${seat.teamId} and id = ${seat.seatId}
      `.execute(db);
    },
    async refused() {
      await db
        .updateTable('linkedin_browsers')
        .set({ note_quota_refused_at: clock() })
        .where('team_id', '=', seat.teamId)
        .where('id', '=', seat.seatId)
        .execute();
    },
  };
}
