// A read that answers the seat is logged out (or hit a checkpoint) says the same as an action would:
// the seat goes to `login_issue` and one `sender_profile_issue` event is recorded, in one statement
// pair inside the caller's transaction. Only a seat that was running changes (and emits), so repeated
// failed reads do not repeat the event. (Data sources and enrichment use it.)
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { emitEvents } from '../events/emit.js';
import { senderObject } from '../events/event-objects.js';
import type { ReadFailureReason } from './reader.js';

export async function markSeatReadIssue(
  trx: Executor,
  input: { teamId: number; senderProfileUuid: string; reason: ReadFailureReason; message: string; at: Date },
): Promise<boolean> {
  const changed = await sql<{ id: number }>`
    update linkedin_browsers set status = 'login_issue', error_reason = ${input.message}, updated_at = ${input.at}
    where team_id = ${input.teamId} and sender_profile_uuid = ${input.senderProfileUuid} and status = 'running'
    returning id
  `.execute(trx);
  if (changed.rows.length === 0) return false;
  await emitEvents(trx, input.teamId, [
    {
      name: 'sender_profile_issue',
      sender_profile: await senderObject(trx, input.teamId, input.senderProfileUuid),
      issue: { type: input.reason === 'no_channel' ? 'no_channel' : 'login_issue', message: input.message },
      occurredAt: input.at,
    },
  ]);
  return true;
}
