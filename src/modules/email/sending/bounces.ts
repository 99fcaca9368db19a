// A message that could not be delivered: refused at RCPT while sending, or reported by a delivery
// status notification the sync found. A hard bounce marks the e-mail bounced, the contact's address
// (email_status "bounced") and tells the engine (email_bounced: the contact's e-mail steps end).
import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { ingestSignalsIn } from '../../engine/index.js';
import { setLeadEmailStatus } from '../../leads/leads.repository.js';
import type { EmailsTable } from '../email.tables.js';
import { emailEventObject } from './email-object.js';

type EmailRow = Selectable<EmailsTable>;

export async function recordBounce(
  trx: Executor,
  bounce: { email: EmailRow; reason: string; hard: boolean; at: Date; bouncedBy: string | null },
): Promise<EmailRow> {
  const { email } = bounce;
  const updated = await trx
    .updateTable('emails')
    .set({
      ...(bounce.hard ? { status: 'bounced' as const } : {}),
      bounced_by_uuid: bounce.bouncedBy,
      error: bounce.reason.slice(0, 2000),
      updated_at: bounce.at,
    })
    .where('team_id', '=', email.team_id)
    .where('uuid', '=', email.uuid)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (!bounce.hard || !email.lead_uuid) return updated;
  await setLeadEmailStatus(trx, email.team_id, email.lead_uuid, 'bounced', bounce.at);
  await ingestSignalsIn(trx, email.team_id, bounce.at, [
    {
      kind: 'email_bounced',
      leadUuid: email.lead_uuid,
      senderProfileUuid: email.sender_profile_uuid,
      occurredAt: bounce.at,
      externalKey: `bounce:${email.message_id}`,
      payload: { email: await emailEventObject(trx, updated), reason: bounce.reason },
    },
  ]);
  return updated;
}
