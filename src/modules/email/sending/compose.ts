// One outgoing message as RFC 5322 bytes (nodemailer's MailComposer): our stable Message-ID, thread
// headers for follow-ups, List-Unsubscribe on one line (a folded one breaks DKIM at some MTAs), an
// X-Leadflow-Id that survives in bounce reports, and a plain-text part made from the HTML.
import type { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';

export type Address = { name?: string | null; address: string };

export type OutgoingMessage = {
  from: Address;
  to: Address | Address[];
  cc: Address[];
  bcc: Address[];
  subject: string;
  html: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  emailUuid: string;
  unsubscribeUrl: string | null;
  attachments: Array<{ filename: string; contentType: string; content: Readable | Buffer }>;
};

/** The plain-text alternative of an HTML body (links kept as "text (url)"). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href=["']([^"']+)["'][^>]*>([\s\S]*?)<\/a>/gi, (_m, href, text) => `${text} (${href})`)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr|blockquote)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const addr = (a: Address) => (a.name ? { name: a.name, address: a.address } : a.address);

export async function composeMessage(message: OutgoingMessage): Promise<Buffer> {
  const headers: Record<string, string | { prepared: true; value: string }> = {
    'X-Leadflow-Id': message.emailUuid,
  };
  if (message.unsubscribeUrl) {
    headers['List-Unsubscribe'] = { prepared: true, value: `<${message.unsubscribeUrl}>` };
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const composer = new MailComposer({
    from: addr(message.from),
    to: Array.isArray(message.to) ? message.to.map(addr) : addr(message.to),
    ...(message.cc.length > 0 ? { cc: message.cc.map(addr) } : {}),
    ...(message.bcc.length > 0 ? { bcc: message.bcc.map(addr) } : {}),
    subject: message.subject,
    html: message.html,
    text: htmlToText(message.html),
    messageId: message.messageId,
    ...(message.inReplyTo ? { inReplyTo: message.inReplyTo } : {}),
    ...(message.references.length > 0 ? { references: message.references } : {}),
    headers,
    attachments: message.attachments,
    date: new Date(),
  } as never);
  return composer.compile().build();
}
