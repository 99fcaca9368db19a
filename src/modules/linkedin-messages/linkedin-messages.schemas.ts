import { type Static, Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import {
  conversationFilterFields,
  conversationSort,
  MESSAGE_COUNT_FILTER_KEYS,
  MESSAGE_GROUP_FIELDS,
  messageFilterFields,
  messageSort,
} from './linkedin-messages.repository.js';

export const LinkedInMessage = Type.Object(
  {
    uuid: Uuid(),
    team_id: Type.Integer(),
    sender_profile_uuid: Uuid('Sender profile whose seat sent or received it'),
    linkedin_account_uuid: Uuid('The LinkedIn account: in Leadflow the sender profile (same value)'),
    linkedin_conversation_uuid: Nullable(
      Uuid('Its conversation (null for a synced message of no known contact)'),
    ),
    lead_uuid: Nullable(Uuid('The contact (null: a synced message no contact matched)')),
    task_pipeline_uuid: Nullable(Uuid('The flow task that sent it (automation auto)')),
    flow_uuid: Nullable(Uuid('The flow that sent it (automation auto)')),
    template_uuid: Nullable(Uuid('The AI template its text was composed from')),
    message_hash: Nullable(
      Type.String({ description: 'The channel id of the message (synced) or of the send' }),
    ),
    subject: Nullable(Type.String({ description: 'InMail subject' })),
    text: Nullable(Type.String()),
    custom_content: Type.Null({ description: 'Always null (kept for compatibility)' }),
    attachments: Nullable(
      Type.Array(Type.Object({ uuid: Uuid('Attachment') }), { description: 'Attachments sent with it' }),
    ),
    type: Type.Union([Type.Literal('inbox'), Type.Literal('outbox')], {
      description: 'inbox: received from the contact; outbox: sent by the seat',
    }),
    automation: Type.Union([Type.Literal('auto'), Type.Literal('manual'), Type.Literal('synced')], {
      description:
        'auto: sent by a flow; manual: queued through the API; synced: read from the seat\u2019s inbox',
    }),
    linkedin_type: Type.String({
      description:
        'connection_note | message | InMail; synced messages carry LinkedIn\u2019s value (MEMBER_TO_MEMBER...)',
    }),
    status: Type.Union(
      [Type.Literal('new'), Type.Literal('in_progress'), Type.Literal('done'), Type.Literal('failed')],
      {
        description:
          'new: queued; in_progress: being sent; done: sent (or received); failed: see fail_reason',
      },
    ),
    fail_reason: Nullable(Type.String({ description: 'Why sending failed' })),
    read_at: Nullable(DateTime('When the contact read it, if known')),
    sent_at: Nullable(DateTime('Sent or received')),
    user_id: Nullable(Type.Integer({ description: 'Who queued it through the API' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'LinkedIn message' },
);
export type WireLinkedInMessage = Static<typeof LinkedInMessage>;

export const LinkedInMessagePage = Envelope(LinkedInMessage);
export const LinkedInMessagesQuery = ListQuery(messageSort, Object.keys(messageFilterFields));

export const SendLinkedInMessageBody = withExample(
  Type.Object(
    {
      sender_profile_uuid: Uuid('Sender profile whose LinkedIn seat sends it'),
      lead_uuid: Uuid('The contact'),
      text: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 8000,
          description:
            'The message (at most 8000 characters; a connection note at most 300); may be left out with template_uuid',
        }),
      ),
      template_uuid: Type.Optional(
        Nullable(Uuid('An AI template to compose the text from for this contact (when text is left out)')),
      ),
      subject: Type.Optional(
        Nullable(Type.String({ maxLength: 511, description: 'InMail subject (at most 511)' })),
      ),
      linkedin_type: Type.Optional(
        Type.Union([Type.Literal('message'), Type.Literal('InMail'), Type.Literal('connection_note')], {
          description:
            'message (default; needs a connection), InMail, or connection_note (an invitation with this note)',
        }),
      ),
      linkedin_messenger_type: Type.Optional(
        Type.Union([Type.Literal('basic'), Type.Literal('sn')], {
          description: 'Accepted for compatibility; Leadflow sends through the basic messenger',
        }),
      ),
      attachments: Type.Optional(
        Type.Array(Type.Object({ uuid: Uuid('Attachment') }, { additionalProperties: false }), {
          maxItems: 10,
          description: 'Uploaded attachments (POST /flows/api/attachments)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  {
    sender_profile_uuid: '0190f000-0000-7000-8000-000000000002',
    lead_uuid: '0190f000-0000-7000-8000-000000000001',
    text: 'Hi Ann, thanks for connecting!',
  },
);
export type SendLinkedInMessageBody = Static<typeof SendLinkedInMessageBody>;

export const LinkedInConversation = Type.Object(
  {
    uuid: Uuid(),
    id: Type.Integer(),
    team_id: Type.Integer(),
    sender_profile_uuid: Uuid('Sender profile of the seat'),
    linkedin_account_uuid: Uuid('The LinkedIn account: in Leadflow the sender profile (same value)'),
    lead_uuid: Uuid('The contact'),
    ln_id: Nullable(Type.String({ description: 'Member URN id of the contact' })),
    ln_member_id: Nullable(Type.Integer({ description: 'Numeric member id of the contact' })),
    sn_id: Nullable(Type.String({ description: 'Sales Navigator id of the contact' })),
    conversation_hash: Nullable(
      Type.String({ description: 'The channel id of the conversation, when known' }),
    ),
    linkedin_messenger_type: Type.String({ description: 'basic' }),
    lead_nickname: Nullable(Type.String({ description: 'The contact\u2019s LinkedIn nickname' })),
    group_context: Type.Null({ description: 'Always null (1:1 conversations only)' }),
    event_count: Type.Integer({ description: 'Messages stored in it' }),
    unread_count: Type.Integer({
      description: 'Messages from the contact not read yet (contact_mark_read sets it to 0)',
    }),
    last_activity_at: Nullable(DateTime('Latest message sent or received')),
    last_stored_message_at: Nullable(DateTime('Latest message stored by the sync')),
    last_msg_sync_at: Nullable(DateTime('When the sync last stored from it')),
    need_to_sync: Type.Boolean({ description: 'Always false: the seat\u2019s sync reads the whole inbox' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'LinkedIn conversation' },
);
export const LinkedInConversationPage = Envelope(LinkedInConversation);
export const LinkedInConversationsQuery = ListQuery(conversationSort, Object.keys(conversationFilterFields));

const countFilterValue = (description: string) => Type.Optional(Type.Unknown({ description }));

export const LinkedInMessageGroupCountsBody = Type.Object(
  {
    group_field: Type.Enum(MESSAGE_GROUP_FIELDS, {
      description:
        'What to group by: status, type (inbox|outbox), sender_profile_uuid or linkedin_account_uuid (the same value)',
    }),
    filter: Type.Optional(
      Nullable(
        Type.Object(
          {
            type: countFilterValue('inbox | outbox (a value or a list)'),
            status: countFilterValue('new | in_progress | done | failed (a value or a list)'),
            sender_profile_uuid: countFilterValue('Sender profile (a UUID or a list)'),
            linkedin_account_uuid: countFilterValue('Same as sender_profile_uuid'),
            lead_uuid: countFilterValue('Contact (a UUID or a list)'),
            sent_at: countFilterValue(
              'Sent or received: operators, e.g. {">=": "2026-03-01", "<=": "2026-03-31"}',
            ),
          },
          {
            additionalProperties: false,
            description: `Which messages to count; keys: ${MESSAGE_COUNT_FILTER_KEYS.join(', ')}`,
          },
        ),
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { group_field: 'status', filter: { type: 'outbox', sent_at: { '>=': '2026-03-01' } } },
      { group_field: 'sender_profile_uuid', filter: { status: 'failed' } },
    ],
  },
);
export type LinkedInMessageGroupCountsBody = Static<typeof LinkedInMessageGroupCountsBody>;

export const LinkedInMessageGroupCounts = Type.Record(Type.String(), Type.Integer(), {
  description: 'Group value -> number of messages (groups with none are left out)',
});
