// An inbox read that lists no conversation although the seat's inbox listed some before is suspicious: a
// driver that no longer recognises the messaging page would read "no news" forever, and sequences would
// keep following up people who already answered. The second such read in a row flags the seat
// (`running_issue`, the reason in error_reason, one `sender_profile_issue` event of type `selector_miss`):
// the engine stops acting through it until someone looks and runs it again.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { emitEvents } from '../events/emit.js';
import { senderObject } from '../events/event-objects.js';

/** Empty reads in a row, after conversations were listed, that flag the seat. */
export const EMPTY_INBOX_READS_FLAG = 2;

/** Records how many conversations a read listed; flags the seat at the second empty read in a row. */
export async function recordInboxListing(
  trx: Executor,
  teamId: number,
  senderUuid: string,
  conversations: number,
  now: Date,
): Promise<boolean> {
  const state = await sql<{ empty_inbox_reads: number }>`
    update linkedin_sync_state set
      listed_conversations = case when ${conversations} > 0 then ${conversations} else listed_conversations end,
      empty_inbox_reads = case when ${conversations} > 0 or coalesce(listed_conversations, 0) = 0 then 0
        else empty_inbox_reads + 1 end
    where team_id = ${teamId} and sender_profile_uuid = ${senderUuid}
    returning empty_inbox_reads
  `.execute(trx);
  if ((state.rows[0]?.empty_inbox_reads ?? 0) !== EMPTY_INBOX_READS_FLAG) return false;
  const message =
    'The LinkedIn inbox came back empty twice in a row although it listed conversations before: the ' +
    'messaging page is probably no longer recognised (selector_miss). Replies may be missed; check the seat ' +
    'and run it again.';
  const changed = await sql<{ id: number }>`
    update linkedin_browsers set status = 'running_issue', error_reason = ${message}, updated_at = ${now}
    where team_id = ${teamId} and sender_profile_uuid = ${senderUuid} and status = 'running'
    returning id
  `.execute(trx);
  if (changed.rows.length === 0) return false;
  await emitEvents(trx, teamId, [
    {
      name: 'sender_profile_issue',
      sender_profile: await senderObject(trx, teamId, senderUuid),
      issue: { type: 'selector_miss', message },
      occurredAt: now,
    },
  ]);
  return true;
}
