// A conversation as plain text for a prompt: oldest first, one block per e-mail, each message's own
// words only - the history mail clients quote under an answer ("On ... wrote:", "-----Original
// Message-----", "> " lines) is cut, since the earlier e-mails are in the text already.
import { htmlToText } from '../sending/compose.js';

/** Where quoted history starts: the first line matching one of these ends the message's own text. */
const QUOTE_HEADERS = [
  /^On .{1,300}wrote:\s*$/m,
  /^On .{1,200}\n.{0,200}wrote:\s*$/m,
  /^Am .{1,300}schrieb .{0,200}:\s*$/m,
  /^Le .{1,300}a écrit\s*:\s*$/m,
  /^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}\s*$/im,
  /^_{10,}\s*$/m,
  /^From: .+\n(Sent|Date|Gesendet): .+$/m,
];

export function stripQuoted(text: string): string {
  let cut = text.length;
  for (const pattern of QUOTE_HEADERS) {
    const match = pattern.exec(text);
    if (match && match.index < cut) cut = match.index;
  }
  return text
    .slice(0, cut)
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export type ThreadMessage = {
  type: 'inbox' | 'outbox';
  from_name: string | null;
  from_email: string | null;
  subject: string | null;
  sent_at: Date | null;
  created_at: Date;
  body: string | null;
  text_body: string | null;
};

function when(date: Date) {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatThread(messages: ThreadMessage[], leadName: string): string {
  return messages
    .map((m) => {
      const who =
        m.type === 'inbox'
          ? `${leadName}${m.from_email ? ` <${m.from_email}>` : ''}`
          : `${m.from_name ?? 'Sender'}${m.from_email ? ` <${m.from_email}>` : ''} (us)`;
      const text = stripQuoted(m.text_body ?? (m.body ? htmlToText(m.body) : ''));
      return [
        `From: ${who}`,
        `Date: ${when(m.sent_at ?? m.created_at)}`,
        `Subject: ${m.subject ?? ''}`,
        '',
        text || '(no text)',
      ].join('\n');
    })
    .join('\n\n---\n\n');
}
