// The `email` object of webhook events (events.schemas.ts EmailObject) from a stored e-mail.
import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { EmailsTable } from '../email.tables.js';

export async function emailEventObject(db: Executor, email: Selectable<EmailsTable>) {
  const body = email.email_body_uuid
    ? await db
        .selectFrom('email_bodies')
        .select('body')
        .where('team_id', '=', email.team_id)
        .where('uuid', '=', email.email_body_uuid)
        .executeTakeFirst()
    : undefined;
  return {
    uuid: email.uuid,
    subject: email.subject,
    body: body?.body ?? null,
    type: email.type,
    status: email.status,
    from_name: email.from_name,
    from_email: email.from_email,
    to_name: email.to_name,
    to_email: email.to_email,
    sent_at: email.sent_at ? email.sent_at.toISOString() : null,
  };
}
