// The incremental IMAP sync of a mailbox's INBOX. The cursor (UIDVALIDITY, UIDNEXT) lives in
// mailbox_folders and moves in the transaction that stores a batch, so a crash repeats at most one
// batch, and the unique (mailbox, Message-ID) key stores every message once. Batches of
// `syncBatchSize` UIDs keep memory flat whatever the mailbox size. Each new message is classified:
// - a delivery status report about one of our e-mails: a bounce (sending/bounces.ts);
// - an automatic answer (out of office): stored, stops nothing;
// - a reply: In-Reply-To/References name an e-mail we sent (else: from the contact's address with an
//   e-mail from this mailbox to them in the last 30 days) - stored as inbox, email_replied signal (the
//   engine's stop rule, triggers, contact_replied_email);
// - anything else: stored as inbox mail.

import { sql } from 'kysely';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Database, Executor } from '../../../db/database.js';
import { newId } from '../../../lib/ids.js';
import { ingestSignalsIn } from '../../engine/index.js';
import type { EmailClassification } from '../email.tables.js';
import { recordBounce } from '../sending/bounces.js';
import { emailEventObject } from '../sending/email-object.js';
import type { EmailRow } from '../sending/outbound.js';
import type { MailAccess, Mailbox } from '../transport/mail-access.js';
import { bounceOf, isAutoReply, referencedIds } from './classify.js';

export type SyncDeps = { db: Database; mail: MailAccess; batchSize: number; historyDays: number };
export type SyncResult = {
  fetched: number;
  stored: number;
  replies: number;
  bounces: number;
  autoReplies: number;
};

const FOLDER = 'INBOX';
const REPLY_WINDOW_DAYS = 30;

type Fetched = { uid: number; source: Buffer; internalDate: Date | null };

async function cursorOf(db: Executor, mailbox: Mailbox) {
  return db
    .selectFrom('mailbox_folders')
    .selectAll()
    .where('team_id', '=', mailbox.team_id)
    .where('mailbox_uuid', '=', mailbox.uuid)
    .where('path', '=', FOLDER)
    .executeTakeFirst();
}

async function saveCursor(db: Executor, mailbox: Mailbox, uidValidity: bigint, uidNext: number, now: Date) {
  await sql`
    insert into mailbox_folders (team_id, mailbox_uuid, path, uid_validity, uid_next, synced_at)
    values (${mailbox.team_id}, ${mailbox.uuid}, ${FOLDER}, ${uidValidity.toString()}, ${uidNext}, ${now})
    on conflict (team_id, mailbox_uuid, path) do update
      set uid_validity = excluded.uid_validity, uid_next = excluded.uid_next, synced_at = excluded.synced_at
  `.execute(db);
}

/** Our outgoing e-mails among `ids` (team-wide: a reply may reach another mailbox of the team). */
async function ourEmails(db: Executor, teamId: number, ids: string[]): Promise<Map<string, EmailRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('emails')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('type', '=', 'outbox')
    .where('message_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.message_id, r]));
}

/** The latest e-mail this mailbox sent to `address` in the reply window. */
async function latestTo(db: Executor, mailbox: Mailbox, address: string, now: Date) {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('team_id', '=', mailbox.team_id)
    .where('mailbox_uuid', '=', mailbox.uuid)
    .where('type', '=', 'outbox')
    .where('status', '=', 'sent')
    .where(sql`lower(to_email)`, '=', address)
    .where('sent_at', '>=', new Date(now.getTime() - REPLY_WINDOW_DAYS * 86_400_000))
    .orderBy('sent_at', 'desc')
    .executeTakeFirst();
}

async function leadByAddress(db: Executor, teamId: number, address: string) {
  const row = await db
    .selectFrom('leads')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where((eb) => eb.or([eb('work_email', '=', address), eb('personal_email', '=', address)]))
    .executeTakeFirst();
  return row?.uuid ?? null;
}

type Stored = { counted: keyof Omit<SyncResult, 'fetched' | 'stored'> | null };

async function storeMessage(
  trx: Executor,
  mailbox: Mailbox,
  message: Fetched,
  mail: ParsedMail,
  raw: string,
  now: Date,
): Promise<Stored | null> {
  const from = mail.from?.value?.[0];
  const fromAddress = (from?.address ?? '').toLowerCase();
  // Our own copies (a Sent copy filed into INBOX by a rule, a message to ourselves) are not mail to us.
  if (fromAddress === mailbox.email.toLowerCase()) return { counted: null };
  const messageId = mail.messageId ?? `<${message.uid}.${mailbox.uuid}@leadflow.sync>`;
  const bounce = bounceOf(mail, raw);
  let classification: EmailClassification | null = null;
  let original: EmailRow | undefined;
  if (bounce) {
    classification = 'bounce';
    const byId = await ourEmails(
      trx,
      mailbox.team_id,
      [bounce.originalMessageId].filter((v): v is string => Boolean(v)),
    );
    original = bounce.originalMessageId ? byId.get(bounce.originalMessageId) : undefined;
    if (!original && bounce.leadflowId) {
      original = await trx
        .selectFrom('emails')
        .selectAll()
        .where('team_id', '=', mailbox.team_id)
        .where('uuid', '=', bounce.leadflowId)
        .executeTakeFirst();
    }
  } else {
    const ids = referencedIds(mail);
    const ours = await ourEmails(trx, mailbox.team_id, ids);
    original = ids.map((id) => ours.get(id)).find(Boolean);
    if (!original && fromAddress) original = await latestTo(trx, mailbox, fromAddress, now);
    if (original) classification = isAutoReply(mail) ? 'auto_reply' : 'reply';
    else if (isAutoReply(mail)) classification = 'auto_reply';
  }
  const leadUuid =
    original?.lead_uuid ?? (fromAddress ? await leadByAddress(trx, mailbox.team_id, fromAddress) : null);
  const bodyUuid = newId();
  const uuid = newId();
  const inserted = await trx
    .insertInto('emails')
    .values({
      team_id: mailbox.team_id,
      uuid,
      user_id: null,
      sender_profile_uuid: mailbox.sender_profile_uuid,
      mailbox_uuid: mailbox.uuid,
      email_body_uuid: bodyUuid,
      flow_uuid: null,
      flow_node_id: null,
      task_uuid: null,
      lead_uuid: leadUuid,
      type: 'inbox',
      status: 'sync',
      classification,
      from_name: from?.name || null,
      from_email: fromAddress || null,
      to_name: mail.to && !Array.isArray(mail.to) ? (mail.to.value[0]?.name ?? null) : null,
      to_email: mail.to && !Array.isArray(mail.to) ? (mail.to.value[0]?.address ?? null) : mailbox.email,
      subject: mail.subject ?? null,
      message_id: messageId,
      in_reply_to: mail.inReplyTo ?? null,
      references: referencedIds(mail).filter((id) => id !== mail.inReplyTo),
      thread_uuid: original?.thread_uuid ?? uuid,
      replied_to_uuid:
        classification === 'reply' || classification === 'auto_reply' ? (original?.uuid ?? null) : null,
      folder: FOLDER,
      imap_uid: String(message.uid),
      sent_at: mail.date ?? message.internalDate ?? now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) return null;
  await trx
    .insertInto('email_bodies')
    .values({
      team_id: mailbox.team_id,
      uuid: bodyUuid,
      subject: mail.subject ?? null,
      body: typeof mail.html === 'string' ? mail.html : null,
      text_body: mail.text ?? null,
      attachments: JSON.stringify(
        (mail.attachments ?? [])
          .filter(
            (a) => !/^(message\/delivery-status|text\/rfc822-headers|message\/rfc822)$/i.test(a.contentType),
          )
          .map((a) => ({ name: a.filename ?? 'attachment', type: a.contentType, size: a.size })),
      ),
    })
    .execute();

  if (classification === 'bounce' && bounce && original) {
    await recordBounce(trx, {
      email: original,
      reason: bounce.diagnostic,
      hard: bounce.hard,
      at: now,
      bouncedBy: inserted.uuid,
    });
    return { counted: 'bounces' };
  }
  if (classification === 'reply' && original?.lead_uuid) {
    await ingestSignalsIn(trx, mailbox.team_id, now, [
      {
        kind: 'email_replied',
        leadUuid: original.lead_uuid,
        senderProfileUuid: original.sender_profile_uuid ?? mailbox.sender_profile_uuid,
        occurredAt: inserted.sent_at ?? now,
        externalKey: `reply:${messageId}`,
        payload: {
          email: await emailEventObject(trx, inserted),
          subject: inserted.subject,
          text: mail.text ?? null,
        },
      },
    ]);
    return { counted: 'replies' };
  }
  return { counted: classification === 'auto_reply' ? 'autoReplies' : null };
}

/** Syncs new INBOX mail of one mailbox; throws a MailFailure when the server cannot be used. */
export async function syncMailbox(deps: SyncDeps, mailbox: Mailbox, now: Date): Promise<SyncResult> {
  const result: SyncResult = { fetched: 0, stored: 0, replies: 0, bounces: 0, autoReplies: 0 };
  const client = await deps.mail.imap(mailbox);
  try {
    const lock = await client.getMailboxLock(FOLDER, { readOnly: true });
    try {
      const box = client.mailbox;
      if (!box) return result;
      const uidValidity = BigInt(box.uidValidity);
      const uidNext = box.uidNext;
      const cursor = await cursorOf(deps.db, mailbox);
      let from: number;
      if (cursor && BigInt(cursor.uid_validity) === uidValidity) {
        from = Number(cursor.uid_next);
      } else {
        // First sync, or the server renumbered the folder: start from recent mail; messages already
        // stored are recognised by their Message-ID and not stored again.
        const since = cursor
          ? new Date(cursor.synced_at.getTime() - 86_400_000)
          : new Date(now.getTime() - deps.historyDays * 86_400_000);
        const uids = deps.historyDays > 0 || cursor ? await client.search({ since }, { uid: true }) : [];
        from = uids && uids.length > 0 ? Math.min(...uids) : uidNext;
      }
      while (from < uidNext) {
        const to = Math.min(from + deps.batchSize - 1, uidNext - 1);
        // fetchAll, not a loop over fetch(): no other IMAP command may run inside a fetch iteration.
        const messages = await client.fetchAll(
          `${from}:${to}`,
          { uid: true, source: true, internalDate: true },
          { uid: true },
        );
        result.fetched += messages.length;
        const parsed = await Promise.all(
          messages
            .filter((m) => m.source)
            .map(async (m) => ({
              message: {
                uid: m.uid,
                source: m.source as Buffer,
                internalDate: (m.internalDate as Date | undefined) ?? null,
              },
              mail: (await simpleParser(
                m.source as Buffer,
                {
                  keepDeliveryStatus: true,
                } as Parameters<typeof simpleParser>[1],
              )) as ParsedMail,
            })),
        );
        await deps.db.transaction().execute(async (trx) => {
          for (const { message, mail } of parsed) {
            const stored = await storeMessage(
              trx,
              mailbox,
              message,
              mail,
              message.source.toString('utf8'),
              now,
            );
            if (!stored) continue;
            if (stored.counted !== null || mail.messageId) result.stored += 1;
            if (stored.counted) result[stored.counted] += 1;
          }
          await saveCursor(trx, mailbox, uidValidity, to + 1, now);
        });
        from = to + 1;
      }
      if (!cursor || BigInt(cursor.uid_validity) !== uidValidity || from === uidNext) {
        await saveCursor(deps.db, mailbox, uidValidity, uidNext, now);
      }
    } finally {
      lock.release();
    }
    await deps.db
      .updateTable('mailboxes')
      .set({ last_sync_at: now, sync_status: 'ok' })
      .where('team_id', '=', mailbox.team_id)
      .where('uuid', '=', mailbox.uuid)
      .execute();
  } finally {
    await client.logout().catch(() => {});
  }
  return result;
}
