// The engine's e-mail channel (channels/driver.ts): an email_send_message step goes out from one
// of the sender's active mailboxes, to the contact's chosen address (email_field, else the other),
// with the cc, attachments and quoted history the node asks for. A later step of the same enrollment
// with an empty subject (or the first one's) is a follow-up in the first e-mail's thread: "Re:"
// subject, In-Reply-To and References, from the same mailbox while it can send.
import { sql } from 'kysely';
import type { ActionOutcome, ActionRequest, ChannelDriver, OutcomeCheck } from '../../channels/driver.js';
import type { DriverFactories } from '../../channels/registry.js';
import { selectMailbox, selectSenderMailboxes } from '../mailboxes/mailboxes.repository.js';
import type { TrackingOptions } from '../tracking/tracking-links.js';
import { sentFolderOf } from '../transport/held-imap.js';
import type { Address } from './compose.js';
import { emailEventObject } from './email-object.js';
import { claimMailbox, refundMailbox } from './mailbox-pacing.js';
import { type EmailRow, emailOfTask, type OutboundDeps, sendEmail } from './outbound.js';

type TaskContext = {
  flow_uuid: string | null;
  flow_node_id: number | null;
  flow_lead_uuid: string | null;
  flow_settings: Record<string, unknown> | null;
  zone: string | null;
  email_status: string | null;
};

export function trackingOf(settings: Record<string, unknown> | null): TrackingOptions {
  return {
    opens: settings?.email_track_opens === true,
    clicks: settings?.email_track_clicks === true,
    unsubscribe: settings?.email_unsubscribe_link === true,
  };
}

const STOPPED_ADDRESSES = ['bounced', 'unsubscribed'];

function escapeHtml(text: string) {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function ccOf(options: Record<string, unknown>): Address[] {
  const cc = Array.isArray(options.cc)
    ? (options.cc as Array<{ to_email?: string; to_name?: string | null }>)
    : [];
  return cc
    .filter((c) => typeof c.to_email === 'string')
    .map((c) => ({ name: c.to_name ?? null, address: c.to_email as string }));
}

function attachmentsOf(request: ActionRequest): Array<{ uuid: string }> {
  return request.attachments.map((a) => (typeof a === 'string' ? { uuid: a } : a));
}

/** The e-mails this enrollment already sent, oldest first (the thread follow-ups join). */
async function earlierEmails(deps: OutboundDeps, teamId: number, flowLeadUuid: string): Promise<EmailRow[]> {
  return deps.db
    .selectFrom('emails')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('type', '=', 'outbox')
    .where('status', '=', 'sent')
    .where(
      'task_uuid',
      'in',
      deps.db
        .selectFrom('tasks')
        .select('uuid')
        .where('team_id', '=', teamId)
        .where('flow_lead_uuid', '=', flowLeadUuid),
    )
    .orderBy('sent_at')
    .execute();
}

async function quoted(deps: OutboundDeps, email: EmailRow): Promise<string> {
  const body = email.email_body_uuid
    ? await deps.db
        .selectFrom('email_bodies')
        .select('body')
        .where('team_id', '=', email.team_id)
        .where('uuid', '=', email.email_body_uuid)
        .executeTakeFirst()
    : undefined;
  const when = (email.sent_at ?? email.created_at).toUTCString();
  const who = email.from_name
    ? `${email.from_name} &lt;${email.from_email}&gt;`
    : escapeHtml(email.from_email ?? '');
  return `<br><br><div class="leadflow_quote">On ${when}, ${who} wrote:<br><blockquote style="margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex">${body?.body ?? ''}</blockquote></div>`;
}

export function createEmailDriver(deps: OutboundDeps): ChannelDriver {
  const { db } = deps;

  async function context(request: ActionRequest): Promise<TaskContext | undefined> {
    const row = await sql<TaskContext>`
      select t.flow_uuid, t.flow_node_id, t.flow_lead_uuid, f.settings as flow_settings,
        s.schedule ->> 'timezone' as zone, l.email_status
      from tasks t
      left join flows f on f.team_id = t.team_id and f.uuid = t.flow_uuid
      left join sender_profiles s on s.team_id = t.team_id and s.uuid = t.sender_profile_uuid
      left join leads l on l.team_id = t.team_id and l.uuid = t.lead_uuid
      where t.team_id = ${request.teamId} and t.uuid = ${request.taskUuid}
    `.execute(db);
    return row.rows[0];
  }

  return {
    name: 'smtp',

    async perform(request: ActionRequest): Promise<ActionOutcome> {
      const ctx = await context(request);
      if (!ctx) return { ok: false, reason: 'nothing_to_do', message: 'the task is gone' };
      const options = request.options;
      const order =
        options.email_field === 'personal_email'
          ? [request.lead.personal_email, request.lead.work_email]
          : [request.lead.work_email, request.lead.personal_email];
      const address = order.find((a) => a && a.trim() !== '')?.trim();
      if (!address)
        return { ok: false, reason: 'no_email_address', message: 'the contact has no e-mail address' };
      if (ctx.email_status && STOPPED_ADDRESSES.includes(ctx.email_status)) {
        return {
          ok: false,
          reason: 'email_suppressed',
          message: `the contact's address is ${ctx.email_status}`,
        };
      }

      const earlier = ctx.flow_lead_uuid ? await earlierEmails(deps, request.teamId, ctx.flow_lead_uuid) : [];
      const first = earlier[0];
      const last = earlier[earlier.length - 1];
      const subject = (request.subject ?? '').trim();
      const followUp = first && last && (subject === '' || subject === first.subject);
      const threadSubject = first?.subject ?? '';
      const finalSubject = followUp
        ? /^re:/i.test(threadSubject)
          ? threadSubject
          : `Re: ${threadSubject}`
        : subject;
      if (!finalSubject) {
        return {
          ok: false,
          reason: 'nothing_to_do',
          message: 'no subject, and no earlier e-mail to reply to',
        };
      }
      let html = request.text ?? '';
      if (followUp && last && (options.add_history === true || options.add_history === 1))
        html += await quoted(deps, last);

      const claim = await claimMailbox(db, request.teamId, request.senderProfileUuid, {
        pinned: followUp && last ? last.mailbox_uuid : null,
        zone: ctx.zone ?? 'UTC',
        now: request.at,
      });
      if ('retryAfterMs' in claim) {
        return { ok: false, reason: 'mailbox_limit', message: claim.why, retryAfterMs: claim.retryAfterMs };
      }
      const { mailbox } = claim;
      const name =
        request.lead.name ??
        ([request.lead.first_name, request.lead.last_name].filter(Boolean).join(' ') || null);
      const result = await sendEmail(deps, {
        mailbox,
        userId: null,
        senderProfileUuid: request.senderProfileUuid,
        leadUuid: request.lead.uuid,
        flowUuid: ctx.flow_uuid,
        flowNodeId: ctx.flow_node_id,
        taskUuid: request.taskUuid,
        to: { name, address },
        cc: ccOf(options),
        bcc: [],
        subject: finalSubject,
        html,
        attachments: attachmentsOf(request),
        thread:
          followUp && first && last
            ? {
                threadUuid: first.thread_uuid ?? first.uuid,
                inReplyTo: last.message_id,
                references: [...last.references, last.message_id].slice(-30),
              }
            : null,
        tracking: trackingOf(ctx.flow_settings),
        now: request.at,
      });
      if (!result.failure) {
        return {
          ok: true,
          remoteRef: result.email.message_id,
          detail: { email: await emailEventObject(db, result.email), mailbox_uuid: mailbox.uuid },
        };
      }
      const { failure } = result;
      if (failure.kind === 'unconfirmed') {
        // It may have gone out: the mailbox keeps the send counted and the engine asks checkOutcome.
        return { ok: false, reason: 'unconfirmed', message: failure.message };
      }
      await refundMailbox(db, mailbox);
      switch (failure.kind) {
        case 'recipient':
          return { ok: false, reason: 'invalid_recipient', message: failure.message };
        case 'rejected':
          return {
            ok: false,
            reason: 'restricted',
            message: `the server refused the message: ${failure.message}`,
          };
        case 'auth':
        case 'blocked':
          // The mailbox is now in error: the next turn uses another mailbox or parks the sender's e-mails.
          return { ok: false, reason: 'transient', message: failure.message, retryAfterMs: 1000 };
        default:
          return { ok: false, reason: 'transient', message: failure.message };
      }
    },

    async checkOutcome(request: ActionRequest): Promise<OutcomeCheck> {
      const email = await emailOfTask(db, request.teamId, request.taskUuid);
      if (!email) return 'not_done';
      if (email.status === 'sent' || email.status === 'bounced') return 'done';
      // The server answered with an error: it did not take the message.
      if (email.status === 'error') return 'not_done';
      const mailbox = await selectMailbox(db, request.teamId, email.mailbox_uuid);
      if (!mailbox) return 'unknown';
      // A crash between handing the message over and recording it: look for it in Sent by its id.
      let client: Awaited<ReturnType<typeof deps.mail.imap>> | undefined;
      try {
        client = await deps.mail.imap(mailbox);
        const lock = await client.getMailboxLock(await sentFolderOf(client), { readOnly: true });
        let found: number[] | false | undefined;
        try {
          found = await client.search({ header: { 'message-id': email.message_id } }, { uid: true });
        } finally {
          lock.release();
        }
        if (found && found.length > 0) {
          await db
            .updateTable('emails')
            .set({ status: 'sent', sent_at: email.sent_at ?? request.at, updated_at: request.at })
            .where('team_id', '=', email.team_id)
            .where('uuid', '=', email.uuid)
            .execute();
          return 'done';
        }
        // Gmail and Outlook file every SMTP message in Sent themselves: absent there means not sent. Our
        // own copy for other hosts is filed after the send, so its absence proves nothing.
        return mailbox.provider === 'smtp' ? 'unknown' : 'not_done';
      } catch {
        return 'unknown';
      } finally {
        await client?.logout().catch(() => {});
      }
    },
  };
}

/** The registry's e-mail factory: the sender's driver, or why its e-mail steps must wait. */
export function emailDriverFactory(deps: OutboundDeps): NonNullable<DriverFactories['email']> {
  const driver = createEmailDriver(deps);
  return async (teamId, senderUuid) => {
    const mailboxes = await selectSenderMailboxes(deps.db, teamId, senderUuid);
    if (mailboxes.length === 0) return { unavailable: 'no_mailbox' };
    if (!mailboxes.some((m) => m.status === 'active')) return { unavailable: 'mailbox_unavailable' };
    return driver;
  };
}
