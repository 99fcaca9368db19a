// The e-mails API: what was sent and received (list, get, delete, threads, the latest per contact, a
// conversation as text for an LLM), their bodies, and sending one e-mail by hand through a mailbox.
// Sending goes through the same outbound code as the engine's driver (sending/outbound.ts): the
// e-mail and its Message-ID are stored before SMTP, so a stored e-mail is never sent twice.
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { AuthContext } from '../../../http/auth.js';
import type { Clock } from '../../../lib/clock.js';
import { invalidField, notFound } from '../../../lib/errors.js';
import { envelope, type PageParams, resolvePage } from '../../../lib/pagination.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { emitEvents } from '../../events/emit.js';
import { senderObject } from '../../events/event-objects.js';
import type { FileStore } from '../../files/storage.js';
import { selectMailbox, selectSenderMailboxes } from '../mailboxes/mailboxes.repository.js';
import type { Address } from '../sending/compose.js';
import { emailEventObject } from '../sending/email-object.js';
import { sendEmail, type ThreadHeaders } from '../sending/outbound.js';
import type { MailAccess } from '../transport/mail-access.js';
import * as repo from './emails.repository.js';
import type { LlmThreadBody, SendEmailBody } from './emails.schemas.js';
import { formatThread } from './llm-thread.js';

export type EmailsServiceDeps = {
  db: Database;
  mail: MailAccess;
  config: Config;
  box: SecretBox;
  files: FileStore;
  clock: Clock;
};

type ListParams = PageParams & { filter?: unknown };

const NO_TRACKING = { opens: false, clicks: false, unsubscribe: false };

function withPagination<T>(page: ReturnType<typeof envelope<T>>) {
  const { limit, offset, total, has_more } = page;
  return { ...page, pagination: { limit, offset, total, has_more } };
}

function threadHeaders(parent: repo.EmailRow): ThreadHeaders {
  const references = [...parent.references, parent.in_reply_to, parent.message_id].filter(
    (id): id is string => Boolean(id),
  );
  return {
    threadUuid: parent.thread_uuid ?? parent.uuid,
    inReplyTo: parent.message_id,
    references: [...new Set(references)].slice(-30),
  };
}

function addressOf(value: string | { to_email: string; to_name?: string | null }): Address {
  return typeof value === 'string'
    ? { address: value.trim() }
    : { address: value.to_email.trim(), name: value.to_name ?? null };
}

export function createEmailsService(deps: EmailsServiceDeps) {
  const { db } = deps;

  async function requireEmail(teamId: number, uuid: string) {
    const email = await repo.selectEmail(db, teamId, uuid);
    if (!email) throw notFound('E-mail');
    return email;
  }

  /** The mailbox a send-email body names (mailbox_uuid, or the sender profile's), able to send. */
  async function mailboxFor(teamId: number, body: SendEmailBody) {
    let mailbox: Awaited<ReturnType<typeof selectMailbox>>;
    if (body.mailbox_uuid) {
      mailbox = await selectMailbox(db, teamId, body.mailbox_uuid);
      if (!mailbox) throw invalidField('mailbox_uuid', 'mailbox_uuid does not name one of your mailboxes.');
      if (body.sender_profile_uuid && mailbox.sender_profile_uuid !== body.sender_profile_uuid) {
        throw invalidField(
          'mailbox_uuid',
          'The mailbox belongs to another sender profile than sender_profile_uuid.',
        );
      }
    } else if (body.sender_profile_uuid) {
      const mailboxes = await selectSenderMailboxes(db, teamId, body.sender_profile_uuid);
      const from = body.from_email?.trim().toLowerCase();
      mailbox = from
        ? mailboxes.find((m) => m.email.toLowerCase() === from)
        : (mailboxes.find((m) => m.status === 'active') ?? mailboxes[0]);
      if (!mailbox) {
        throw invalidField(
          'mailbox_uuid',
          from
            ? `The sender profile has no mailbox ${body.from_email}; connect it first (POST /emails/api/mailboxes).`
            : 'The sender profile has no mailbox; connect one (POST /emails/api/mailboxes) or send mailbox_uuid.',
        );
      }
    } else {
      throw invalidField(
        'mailbox_uuid',
        'mailbox_uuid (or sender_profile_uuid) is required: which mailbox sends.',
      );
    }
    if (mailbox.status !== 'active') {
      throw invalidField(
        'mailbox_uuid',
        `The mailbox ${mailbox.email} is ${mailbox.status}${mailbox.status === 'error' ? ' (see GET /emails/api/mailbox-errors)' : ''}; activate it first (PUT /emails/api/mailboxes/{uuid}/activate).`,
      );
    }
    return mailbox;
  }

  async function parentOf(teamId: number, body: SendEmailBody) {
    if (body.in_reply_to_email_uuid) {
      const parent = await repo.selectEmail(db, teamId, body.in_reply_to_email_uuid);
      if (!parent) {
        throw invalidField(
          'in_reply_to_email_uuid',
          'in_reply_to_email_uuid does not name one of your e-mails.',
        );
      }
      return parent;
    }
    if (body.thread_uuid) {
      const thread = await repo.selectThread(db, teamId, body.thread_uuid);
      const latest = thread[thread.length - 1];
      if (!latest) throw invalidField('thread_uuid', 'thread_uuid does not name one of your e-mail threads.');
      return latest;
    }
    return undefined;
  }

  return {
    async listEmails(teamId: number, params: ListParams) {
      const page = resolvePage(params, repo.emailSort);
      const { rows, total } = await repo.selectEmails(db, teamId, params.filter, page);
      return withPagination(envelope(rows, total, page));
    },

    getEmail: requireEmail,

    async deleteEmail(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteEmail(trx, teamId, uuid))) throw notFound('E-mail');
      });
    },

    async thread(teamId: number, uuid: string) {
      const email = await requireEmail(teamId, uuid);
      const threadUuid = email.thread_uuid ?? email.uuid;
      const data = email.thread_uuid ? await repo.selectThread(db, teamId, threadUuid) : [];
      if (data.length === 0) {
        const body = email.email_body_uuid
          ? await repo.selectEmailBody(db, teamId, email.email_body_uuid)
          : undefined;
        data.push({ ...email, body: body?.body ?? null, text_body: body?.text_body ?? null });
      }
      return { thread_uuid: threadUuid, data };
    },

    async latestByLeads(teamId: number, leadUuids: string[]) {
      return { data: await repo.selectLatestByLeads(db, teamId, [...new Set(leadUuids)]) };
    },

    async llmThread(teamId: number, body: LlmThreadBody) {
      const limit = body.limit === undefined ? 20 : Math.min(Number(body.limit), 1000);
      if (!Number.isInteger(limit) || limit < 1)
        throw invalidField('limit', 'limit must be a whole number from 1 to 1000.');
      const since = body.sent_at_recency_in_days
        ? new Date(deps.clock.now().getTime() - body.sent_at_recency_in_days * 86_400_000)
        : null;
      const rows = await repo.selectConversation(db, teamId, {
        senderProfileUuid: body.sender_profile_uuid,
        leadUuid: body.lead_uuid,
        since,
        limit,
      });
      return { thread: formatThread(rows, body.lead_name.trim()), messages: rows.length };
    },

    async listEmailBodies(teamId: number, params: ListParams & { search?: string }) {
      const page = resolvePage(params, repo.emailBodySort);
      const { rows, total } = await repo.selectEmailBodies(db, teamId, params.filter, params.search, page);
      return envelope(rows, total, page);
    },

    async getEmailBody(teamId: number, uuid: string) {
      const body = await repo.selectEmailBody(db, teamId, uuid);
      if (!body) throw notFound('E-mail body');
      return body;
    },

    /** POST send-email: both body shapes of the facts (1.21); answers {email, email_body}. */
    async sendEmail(actor: AuthContext, body: SendEmailBody) {
      const teamId = actor.teamId;
      const mailbox = await mailboxFor(teamId, body);
      const parent = await parentOf(teamId, body);
      const lead = body.lead_uuid ? await repo.selectLeadAddress(db, teamId, body.lead_uuid) : undefined;
      if (body.lead_uuid && !lead)
        throw invalidField('lead_uuid', 'lead_uuid does not name one of your contacts.');

      const recipients: Address[] = body.to?.map(addressOf) ?? [];
      if (recipients.length === 0 && body.to_email) {
        recipients.push({ address: body.to_email.trim(), name: body.to_name ?? null });
      }
      if (recipients.length === 0 && parent) {
        const address = parent.type === 'inbox' ? parent.from_email : parent.to_email;
        const name = parent.type === 'inbox' ? parent.from_name : parent.to_name;
        if (address) recipients.push({ address, name });
      }
      if (recipients.length === 0 && lead) {
        const address = lead.work_email?.trim() || lead.personal_email?.trim();
        const name = lead.name ?? ([lead.first_name, lead.last_name].filter(Boolean).join(' ') || null);
        if (address) recipients.push({ address, name });
      }
      const [to, ...alsoTo] = recipients;
      if (!to) {
        throw invalidField(
          body.to ? 'to' : 'to_email',
          'A recipient is required: to_email, to: [{to_email}], or a lead_uuid whose contact has an e-mail address.',
        );
      }

      let subject = body.subject?.trim() ?? '';
      if (!subject && parent?.subject)
        subject = /^re:/i.test(parent.subject) ? parent.subject : `Re: ${parent.subject}`;
      if (!subject) throw invalidField('subject', 'subject is required (a reply may leave it out).');

      const leadUuid =
        lead?.uuid ??
        parent?.lead_uuid ??
        (await repo.selectLeadUuidByAddress(db, teamId, to.address)) ??
        null;

      const now = deps.clock.now();
      // An attachment that is not the team's is a 422 naming it (requireAttachments).
      const result = await sendEmail(deps, {
        mailbox,
        userId: actor.userId,
        senderProfileUuid: mailbox.sender_profile_uuid,
        leadUuid,
        flowUuid: null,
        flowNodeId: null,
        taskUuid: null,
        to,
        alsoTo,
        cc: (body.cc ?? []).map(addressOf),
        bcc: (body.bcc ?? []).map(addressOf),
        subject,
        html: body.body ?? '',
        attachments: body.attachments ?? [],
        thread: parent ? threadHeaders(parent) : null,
        tracking: NO_TRACKING,
        now,
      });
      const { email } = result;
      if (email.status === 'sent' && leadUuid) {
        await emitEvents(db, teamId, [
          {
            name: 'sender_profile_sent_email',
            leadUuid,
            sender_profile: await senderObject(db, teamId, mailbox.sender_profile_uuid),
            automation: null,
            email: await emailEventObject(db, email),
            occurredAt: now,
          },
        ]);
      }
      const emailBody = await repo.selectEmailBody(db, teamId, email.email_body_uuid as string);
      if (!emailBody) throw new Error(`the body of e-mail ${email.uuid} is gone`);
      return { email, email_body: emailBody, emailDomain: email, emailBodyDomain: emailBody };
    },
  };
}

export type EmailsService = ReturnType<typeof createEmailsService>;
