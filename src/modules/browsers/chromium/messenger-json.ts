// LinkedIn's messaging page fetches its conversations as JSON (a Voyager messenger GraphQL call whose URL
// carries `messengerConversations`); the inbox read takes them from that response instead of the DOM: the
// real sidebar has no links or ids, only the open thread's messages are in the DOM, and opening a
// conversation marks it read. The shape read here - `elements[]` with `entityUrn`
// (`urn:li:msg_conversation:(<own profile urn>,<id>)`), `conversationParticipants[].hostIdentityUrn` and
// `.participantType.member.profileUrl`, `messages.elements[]` with `entityUrn`, `deliveredAt` (ms),
// `subject`, `body.text`, `sender.hostIdentityUrn` - is what 2026 tools report (reference R5) and what the
// replica serves: UNVERIFIED against linkedin.com (guess). Anything else answers null (the DOM is tried).
import { profileHandle } from './linkedin-pages.js';

export type JsonMessage = {
  person: string;
  from: 'me' | 'them';
  index: string;
  at: string;
  subject: string | null;
  text: string;
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The conversations list of the response (the first `elements` under `data`), or null when absent. */
function elementsOf(body: unknown): unknown[] | null {
  const data = obj(obj(body)?.data);
  if (!data) return null;
  for (const value of Object.values(data)) {
    const elements = obj(value)?.elements;
    if (Array.isArray(elements)) return elements;
  }
  return null;
}

/** Each 1:1 conversation's member (vanity or profile id) and messages; null when the shape is unknown. */
export function conversationsOf(body: unknown): Array<{ person: string; messages: JsonMessage[] }> | null {
  const elements = elementsOf(body);
  if (!elements) return null;
  return elements.flatMap((element) => {
    const c = obj(element);
    const self = /^urn:li:msg_conversation:\((urn:li:fsd_profile:[^,]+),/.exec(str(c?.entityUrn) ?? '')?.[1];
    const other = arr(c?.conversationParticipants)
      .map(obj)
      .find((p) => p && str(p.hostIdentityUrn) !== self);
    if (!c || !self || !other) return [];
    const url = str(obj(obj(other.participantType)?.member)?.profileUrl);
    const person = (url && profileHandle(url)) || str(other.hostIdentityUrn)?.split(':').pop() || '';
    if (!person) return [];
    const messages = arr(obj(c.messages)?.elements).flatMap((m): JsonMessage[] => {
      const message = obj(m);
      const at = Number(message?.deliveredAt);
      if (!message || !Number.isFinite(at)) return [];
      return [
        {
          person,
          from: str(obj(message.sender)?.hostIdentityUrn) === self ? 'me' : 'them',
          index: str(message.entityUrn) ?? String(at),
          at: new Date(at).toISOString(),
          subject: str(message.subject),
          text: str(obj(message.body)?.text) ?? '',
        },
      ];
    });
    return [{ person, messages }];
  });
}
