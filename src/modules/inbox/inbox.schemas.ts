import { Type } from 'typebox';
import { DateTime, Envelope, Int32, Nullable, Uuid, withExample } from '../../http/schemas.js';

export const INBOX_MAX_LIMIT = 200;

export const InboxQuery = Type.Object(
  {
    limit: Type.Optional(
      Int32({ minimum: 1, maximum: INBOX_MAX_LIMIT, default: 50, description: 'Page size (at most 200)' }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Conversations to skip' }),
    ),
    channel: Type.Optional(
      Type.Enum(['linkedin', 'email'], { description: 'Only LinkedIn conversations or only e-mail threads' }),
    ),
    sender_profile_uuid: Type.Optional(
      Type.Array(Uuid(), {
        maxItems: 200,
        description: 'Only these sender profiles (repeat the parameter for several)',
      }),
    ),
    lead_uuid: Type.Optional(Uuid('Only the conversations of this contact')),
    unread: Type.Optional(Type.Boolean({ description: 'true: only conversations with something unread' })),
  },
  { additionalProperties: false },
);

export const InboxConversation = Type.Object(
  {
    channel: Type.Enum(['linkedin', 'email'], { description: 'linkedin or email' }),
    uuid: Uuid(
      'The LinkedIn conversation (GET /flows/api/linkedin-messages?filter[linkedin_conversation_uuid]=…) or ' +
        'the e-mail thread (GET /emails/api/emails?filter[thread_uuid]=…)',
    ),
    lead_uuid: Uuid('The contact'),
    sender_profile_uuid: Nullable(Uuid('The sender profile it is with')),
    mailbox_uuid: Nullable(Uuid('E-mail: the mailbox of its latest e-mail')),
    subject: Nullable(Type.String({ description: 'E-mail: the subject of its first e-mail' })),
    last_message_at: Nullable(DateTime('Latest message sent or received')),
    last_message: Nullable(
      Type.Object({
        uuid: Uuid('The LinkedIn message or e-mail'),
        direction: Type.Enum(['inbox', 'outbox'], {
          description: 'inbox: the contact wrote it; outbox: it was sent to them',
        }),
        snippet: Nullable(Type.String({ description: 'Its first 280 characters, as plain text' })),
      }),
    ),
    unread_count: Type.Integer({ description: 'Messages from the contact nobody has read yet' }),
  },
  { title: 'Inbox conversation' },
);

export const InboxPage = Envelope(InboxConversation);

export const ConversationReadBody = Type.Object(
  {
    channel: Type.Enum(['linkedin', 'email'], { description: 'The conversation\u2019s channel' }),
    uuid: Uuid('The LinkedIn conversation or the e-mail thread (uuid of an inbox conversation)'),
    lead_uuid: Uuid('The contact of the conversation'),
    read: Type.Boolean({
      description:
        'true: everything the contact sent in it is read; false: its latest message from the contact is unread again',
    }),
  },
  { additionalProperties: false },
);

export const ConversationReadState = Type.Object({
  channel: Type.Enum(['linkedin', 'email']),
  uuid: Uuid(),
  lead_uuid: Uuid(),
  unread_count: Type.Integer({ description: 'Messages from the contact not read yet' }),
});

withExample(ConversationReadBody, {
  channel: 'linkedin',
  uuid: '0190f000-0000-7000-8000-000000000001',
  lead_uuid: '0190f000-0000-7000-8000-000000000002',
  read: true,
});
