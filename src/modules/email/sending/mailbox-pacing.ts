// Which mailbox of a sender sends next. Each mailbox keeps its own pace on its row, so every process
// honours it: at most automation_daily_limit automated e-mails per day of the sender's schedule zone,
// and automation_task_interval seconds between two. A sender with several mailboxes rotates: the one
// that sent longest ago goes first. The claim is one statement (SKIP LOCKED), so two processes never
// take the same slot.
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Executor } from '../../../db/database.js';
import type { MailboxRow } from '../mailboxes/mailboxes.repository.js';

export type Claim = { mailbox: MailboxRow } | { retryAfterMs: number; why: string };

export function localDay(now: Date, zone: string) {
  const day = DateTime.fromJSDate(now, { zone }).startOf('day');
  return { date: day.toISODate() as string, nextDay: day.plus({ days: 1 }).toJSDate() };
}

export async function claimMailbox(
  db: Executor,
  teamId: number,
  senderUuid: string,
  options: { pinned: string | null; zone: string; now: Date },
): Promise<Claim> {
  const { date, nextDay } = localDay(options.now, options.zone);
  const now = options.now;
  // A thread stays on its mailbox while that mailbox can send for this sender.
  const pinned = options.pinned
    ? await db
        .selectFrom('mailboxes')
        .select('uuid')
        .where('team_id', '=', teamId)
        .where('uuid', '=', options.pinned)
        .where('sender_profile_uuid', '=', senderUuid)
        .where('status', '=', 'active')
        .executeTakeFirst()
    : undefined;
  const only = pinned ? sql`and uuid = ${pinned.uuid}` : sql``;
  const claimed = await sql<MailboxRow>`
    update mailboxes m set
      next_send_at = ${now}::timestamptz + make_interval(secs => m.automation_task_interval),
      sent_today = case when m.sent_day = ${date}::date then m.sent_today + 1 else 1 end,
      sent_day = ${date}::date,
      last_send_at = ${now}
    where m.team_id = ${teamId} and m.uuid = (
      select uuid from mailboxes
      where team_id = ${teamId} and sender_profile_uuid = ${senderUuid} and status = 'active' ${only}
        and (next_send_at is null or next_send_at <= ${now})
        and (sent_day is distinct from ${date}::date or sent_today < automation_daily_limit)
        and automation_daily_limit > 0
      order by last_send_at nulls first, uuid
      limit 1
      for update skip locked
    )
    returning m.*
  `.execute(db);
  const mailbox = claimed.rows[0];
  if (mailbox) return { mailbox };
  // None free now: say when one will be.
  const waits = await sql<{ next_send_at: Date | null; full: boolean }>`
    select next_send_at, (sent_day = ${date}::date and sent_today >= automation_daily_limit) or automation_daily_limit = 0 as full
    from mailboxes
    where team_id = ${teamId} and sender_profile_uuid = ${senderUuid} and status = 'active' ${only}
  `.execute(db);
  const times = waits.rows.map((w) => (w.full ? nextDay : (w.next_send_at ?? now)).getTime());
  const at = times.length > 0 ? Math.min(...times) : now.getTime() + 60_000;
  const full = waits.rows.length > 0 && waits.rows.every((w) => w.full);
  return {
    retryAfterMs: Math.max(1000, at - now.getTime()),
    why: full
      ? 'every mailbox of the sender reached its automation_daily_limit today'
      : 'the mailbox interval has not passed yet',
  };
}

/** Gives back the day's slot of a send that did not happen. */
export async function refundMailbox(db: Executor, mailbox: MailboxRow) {
  await db
    .updateTable('mailboxes')
    .set((eb) => ({ sent_today: eb('sent_today', '-', 1) }))
    .where('team_id', '=', mailbox.team_id)
    .where('uuid', '=', mailbox.uuid)
    .where('sent_day', '=', mailbox.sent_day)
    .where('sent_today', '>', 0)
    .execute();
}
