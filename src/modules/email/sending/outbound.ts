// Sending one e-mail through a mailbox, for the engine's driver and the send-email endpoint alike:
// the e-mail and its body are stored first (status waiting, a stable Message-ID), then the message
// goes out over SMTP, then the row says what happened. A row already sent is never sent again, so a
// retried task cannot send twice; a hard SMTP refusal of the recipient is a bounce; a hand-over the
// server never answered stays waiting (`unconfirmed`) for the outcome check.
import type { Selectable } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database, Executor } from '../../../db/database.js';
import { newId } from '../../../lib/ids.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { requireAttachments } from '../../attachments/attachments.service.js';
import type { FileStore } from '../../files/storage.js';
import type { EmailAttachmentRef, EmailsTable } from '../email.tables.js';
import { recordMailboxError } from '../mailboxes/mailboxes.repository.js';
import { addTracking, type TrackingOptions, unsubscribeUrl } from '../tracking/tracking-links.js';
import { verifiedTrackingDomainOf } from '../tracking-domains/tracking-domains.repository.js';
import type { MailAccess, Mailbox } from '../transport/mail-access.js';
import { classifyMailError, type MailFailure } from '../transport/mail-errors.js';
import { recordBounce } from './bounces.js';
import { type Address, composeMessage, htmlToText } from './compose.js';

export type EmailRow = Selectable<EmailsTable>;

export type OutboundDeps = {
  db: Database;
  mail: MailAccess;
  config: Config;
  box: SecretBox;
  files: FileStore;
};

export type ThreadHeaders = { threadUuid: string; inReplyTo: string; references: string[] };

export type SendInput = {
  mailbox: Mailbox;
  userId: number | null;
  senderProfileUuid: string | null;
  leadUuid: string | null;
  flowUuid: string | null;
  flowNodeId: number | null;
  taskUuid: string | null;
  to: Address;
  /** More To recipients (API sends); the e-mail record names the first. */
  alsoTo?: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  html: string;
  attachments: Array<{ uuid: string }>;
  thread: ThreadHeaders | null;
  tracking: TrackingOptions;
  now: Date;
};

export type SendResult = { email: EmailRow; failure: MailFailure | null };

export function messageIdFor(uuid: string, mailboxEmail: string) {
  const domain = mailboxEmail.split('@')[1] ?? 'leadflow.local';
  return `<${uuid}@${domain}>`;
}

/** The e-mail of a task, if one was stored (sent or not). */
export async function emailOfTask(db: Executor, teamId: number, taskUuid: string) {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('task_uuid', '=', taskUuid)
    .executeTakeFirst();
}

/** The e-mail of the send, stored waiting with its body in one statement (a task's earlier one if any). */
async function storeWaiting(deps: OutboundDeps, input: SendInput, attachmentRefs: EmailAttachmentRef[]) {
  const { db } = deps;
  const teamId = input.mailbox.team_id;
  if (input.taskUuid) {
    const existing = await emailOfTask(db, teamId, input.taskUuid);
    if (existing) return existing;
  }
  const uuid = newId();
  const bodyUuid = newId();
  return db
    .with('body', (qb) =>
      qb.insertInto('email_bodies').values({
        team_id: teamId,
        uuid: bodyUuid,
        subject: input.subject,
        body: input.html,
        text_body: htmlToText(input.html),
        attachments: JSON.stringify(attachmentRefs),
      }),
    )
    .insertInto('emails')
    .values({
      team_id: teamId,
      uuid,
      user_id: input.userId,
      sender_profile_uuid: input.senderProfileUuid,
      mailbox_uuid: input.mailbox.uuid,
      email_body_uuid: bodyUuid,
      flow_uuid: input.flowUuid,
      flow_node_id: input.flowNodeId,
      task_uuid: input.taskUuid,
      lead_uuid: input.leadUuid,
      type: 'outbox',
      status: 'waiting',
      from_name: input.mailbox.sender_name,
      from_email: input.mailbox.email,
      to_name: input.to.name ?? null,
      to_email: input.to.address,
      cc: input.cc.map((c) => c.address),
      bcc: input.bcc.map((c) => c.address),
      subject: input.subject,
      message_id: messageIdFor(uuid, input.mailbox.email),
      in_reply_to: input.thread?.inReplyTo ?? null,
      references: input.thread?.references ?? [],
      thread_uuid: input.thread?.threadUuid ?? uuid,
      folder: 'Sent',
      tracking: input.tracking.opens || input.tracking.clicks,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Files a copy in the Sent folder of a generic SMTP mailbox (Gmail and Outlook file their own) on the
 * mailbox's held IMAP connection, where the copies of concurrent sends go together. The send does not
 * wait for it (stopping mail access files what is queued first); a failure is a mailbox error, the
 * e-mail stays sent.
 */
async function fileSentCopy(deps: OutboundDeps, mailbox: Mailbox, raw: Buffer) {
  if (mailbox.provider !== 'smtp') return;
  try {
    await deps.mail.fileSent(mailbox, raw);
  } catch (error) {
    await recordMailboxError(
      deps.db,
      mailbox,
      'sync',
      `Could not file the sent copy: ${classifyMailError(error).message}`,
      'sync',
    ).catch(() => {});
  }
}

export async function sendEmail(deps: OutboundDeps, input: SendInput): Promise<SendResult> {
  const { db, mail, config, box, files } = deps;
  const teamId = input.mailbox.team_id;
  const attachmentRows =
    input.attachments.length > 0 ? await requireAttachments(db, teamId, input.attachments) : [];
  const refs: EmailAttachmentRef[] = attachmentRows.map((a) => ({
    uuid: a.uuid,
    name: a.name,
    type: a.mime_type,
    size: Number(a.size_bytes),
  }));
  const email = await storeWaiting(deps, input, refs);
  if (email.status === 'sent' || email.status === 'bounced') return { email, failure: null };

  // A verified custom tracking domain of the mailbox carries its links; else this server's public URL.
  const customDomain = await verifiedTrackingDomainOf(db, teamId, input.mailbox.uuid);
  const publicUrl = customDomain
    ? `${new URL(config.publicUrl).protocol}//${customDomain}`
    : config.publicUrl;
  const html = addTracking(input.html, {
    ...input.tracking,
    publicUrl,
    box,
    teamId,
    emailUuid: email.uuid,
  });
  const raw = await composeMessage({
    from: { name: input.mailbox.sender_name, address: input.mailbox.email },
    to: [input.to, ...(input.alsoTo ?? [])],
    cc: input.cc,
    bcc: input.bcc,
    subject: input.subject,
    html,
    messageId: email.message_id,
    inReplyTo: email.in_reply_to,
    references: email.references,
    emailUuid: email.uuid,
    unsubscribeUrl: input.tracking.unsubscribe ? unsubscribeUrl(publicUrl, box, teamId, email.uuid) : null,
    attachments: attachmentRows.map((a) => ({
      filename: a.name,
      contentType: a.mime_type,
      content: files.read(a.storage_key),
    })),
  });
  const envelope = {
    from: input.mailbox.email,
    to: [input.to, ...(input.alsoTo ?? []), ...input.cc, ...input.bcc].map((a) => a.address),
  };
  try {
    await mail.send(input.mailbox, envelope, raw);
  } catch (error) {
    const failure = classifyMailError(error);
    if (failure.kind === 'unconfirmed') {
      // The server may have taken it: the e-mail stays waiting (not error), so the outcome check looks
      // for it instead of anyone sending it again.
      const waiting = await db
        .updateTable('emails')
        .set({ error: failure.message, updated_at: input.now })
        .where('team_id', '=', teamId)
        .where('uuid', '=', email.uuid)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { email: waiting, failure };
    }
    const updated = await db.transaction().execute(async (trx) => {
      if (failure.kind === 'recipient') {
        return recordBounce(trx, {
          email,
          reason: failure.message,
          hard: true,
          at: input.now,
          bouncedBy: null,
        });
      }
      if (failure.kind === 'auth')
        await recordMailboxError(trx, input.mailbox, 'auth', `SMTP: ${failure.message}`, 'send');
      else
        await recordMailboxError(
          trx,
          input.mailbox,
          'send',
          failure.kind === 'blocked' ? `SMTP: ${failure.message}` : failure.message,
          'send',
          failure.needsAttention,
        );
      return trx
        .updateTable('emails')
        .set({ status: 'error', error: failure.message, updated_at: input.now })
        .where('team_id', '=', teamId)
        .where('uuid', '=', email.uuid)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return { email: updated, failure };
  }
  // One statement: concurrent sends of a mailbox hold its row's lock only for that statement.
  const sent = await db
    .with('mailbox', (qb) =>
      qb
        .updateTable('mailboxes')
        .set({ last_send_at: input.now, send_status: 'ok' })
        .where('team_id', '=', teamId)
        .where('uuid', '=', input.mailbox.uuid),
    )
    .updateTable('emails')
    .set({ status: 'sent', sent_at: input.now, error: null, updated_at: input.now })
    .where('team_id', '=', teamId)
    .where('uuid', '=', email.uuid)
    .returningAll()
    .executeTakeFirstOrThrow();
  void fileSentCopy(deps, input.mailbox, raw);
  return { email: sent, failure: null };
}
