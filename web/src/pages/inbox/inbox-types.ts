import type { paths } from '@leadflow/sdk';

export type Conversation =
  paths['/leads/api/inbox']['get']['responses']['200']['content']['application/json']['data'][number];

export const conversationKey = (c: Pick<Conversation, 'channel' | 'uuid'>) => `${c.channel}:${c.uuid}`;

/** Text as the HTML body of an e-mail: escaped, paragraphs and line breaks kept. */
export function textToHtml(text: string): string {
  const escaped = text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
  return escaped
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replaceAll('\n', '<br>')}</p>`)
    .join('');
}
