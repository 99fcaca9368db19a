// What a received message is, from its headers and parts: a delivery status report (RFC 3464) about
// one of our e-mails, an automatic answer (RFC 3834 and the common out-of-office markers), or mail
// from a person. Replies are matched to our e-mails afterwards, by Message-ID (sync/imap-sync.ts).
import type { ParsedMail } from 'mailparser';

export type Bounce = {
  hard: boolean;
  recipient: string | null;
  status: string | null;
  originalMessageId: string | null;
  leadflowId: string | null;
  diagnostic: string;
};

const AUTO_SUBJECT =
  /^(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|abwesenheit|oof:|ooo:|absence|automatische antwort)/i;

function header(mail: ParsedMail, name: string): string {
  const value = mail.headers.get(name);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in (value as object))
    return String((value as { value: unknown }).value);
  return String(value);
}

export function isAutoReply(mail: ParsedMail): boolean {
  const submitted = header(mail, 'auto-submitted').toLowerCase();
  if (submitted && submitted !== 'no') return true;
  if (['x-autoreply', 'x-autorespond', 'x-autoresponder'].some((h) => header(mail, h))) return true;
  if (/auto_reply/i.test(header(mail, 'precedence'))) return true;
  return AUTO_SUBJECT.test((mail.subject ?? '').trim());
}

function field(text: string, name: string): string | null {
  const match = text.match(new RegExp(`^${name}:\\s*(.+)$`, 'im'));
  return match?.[1]?.trim() ?? null;
}

/** The bounce a DSN reports, or null when the message is not one. */
export function bounceOf(mail: ParsedMail, raw: string): Bounce | null {
  const contentType = header(mail, 'content-type').toLowerCase();
  const from = (mail.from?.value?.[0]?.address ?? '').toLowerCase();
  const report =
    /multipart\/report/.test(contentType) || /report-type=delivery-status/i.test(raw.slice(0, 8000));
  const daemon = /^(mailer-daemon|postmaster)@/.test(from);
  if (!report && !(daemon && header(mail, 'x-failed-recipients'))) return null;
  // The machine-readable part and the returned headers (kept by mailparser as attachments).
  const parts = (mail.attachments ?? []).map((a) => ({
    type: a.contentType.toLowerCase(),
    text: a.content.toString('utf8'),
  }));
  const status = parts.find((p) => p.type === 'message/delivery-status')?.text ?? raw;
  const returned =
    parts.find((p) => p.type === 'text/rfc822-headers' || p.type === 'message/rfc822')?.text ?? raw;
  const code = field(status, 'Status');
  const action = field(status, 'Action')?.toLowerCase() ?? null;
  const recipient =
    field(status, 'Final-Recipient')?.replace(/^rfc822;\s*/i, '') ||
    header(mail, 'x-failed-recipients') ||
    null;
  return {
    hard: action === 'failed' || (code?.startsWith('5') ?? false),
    recipient,
    status: code,
    originalMessageId: field(returned, 'Message-ID'),
    leadflowId: field(returned, 'X-Leadflow-Id'),
    diagnostic: field(status, 'Diagnostic-Code') ?? code ?? 'delivery failed',
  };
}

/** Message-ids a message refers to: In-Reply-To first, then References newest first. */
export function referencedIds(mail: ParsedMail): string[] {
  const refs = Array.isArray(mail.references)
    ? [...mail.references]
    : mail.references
      ? [mail.references]
      : [];
  return [...new Set([mail.inReplyTo, ...refs.reverse()].filter((id): id is string => Boolean(id)))];
}
