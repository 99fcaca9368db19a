import { type Static, Type } from 'typebox';
import {
  anyPresent,
  DateTime,
  Envelope,
  Int32,
  ListQuery,
  Nullable,
  Uuid,
  withExample,
} from '../../../http/schemas.js';
import { emailBodyFilterFields, emailBodySort, emailFilterFields, emailSort } from './emails.repository.js';

const emailFields = {
  uuid: Uuid(),
  team_id: Type.Integer(),
  user_id: Nullable(Type.Integer({ description: 'Who sent it through the API (null: automation or sync)' })),
  sender_profile_uuid: Nullable(Uuid('Sender profile of the mailbox')),
  mailbox_uuid: Uuid('Mailbox it was sent from or synced into'),
  email_body_uuid: Nullable(Uuid('Its body: GET /emails/api/email-bodies/{uuid}')),
  flow_uuid: Nullable(Uuid('Flow that sent it (null for API sends and synced mail)')),
  flow_node_id: Nullable(Type.Integer({ description: 'Node of that flow' })),
  task_uuid: Nullable(Uuid('The flow task that sent it')),
  lead_uuid: Nullable(Uuid('The contact')),
  status: Type.Union(
    [
      Type.Literal('need_sync'),
      Type.Literal('idle'),
      Type.Literal('waiting'),
      Type.Literal('sent'),
      Type.Literal('sync'),
      Type.Literal('cancelled'),
      Type.Literal('missing_body'),
      Type.Literal('error'),
      Type.Literal('bounced'),
    ],
    {
      description:
        'waiting: stored, not yet handed to SMTP; sent: sent by Leadflow; sync: received (synced from the mailbox); error: the server refused it (see error); bounced: undeliverable',
    },
  ),
  type: Type.Union([Type.Literal('inbox'), Type.Literal('outbox')], {
    description: 'inbox: received; outbox: sent',
  }),
  classification: Nullable(
    Type.Union([Type.Literal('reply'), Type.Literal('auto_reply'), Type.Literal('bounce')], {
      description: 'What a received message is: reply, auto_reply (out of office), bounce (a DSN)',
    }),
  ),
  from_name: Nullable(Type.String()),
  from_email: Nullable(Type.String()),
  to_name: Nullable(Type.String()),
  to_email: Nullable(Type.String()),
  cc: Type.Array(Type.String()),
  bcc: Type.Array(Type.String()),
  subject: Nullable(Type.String()),
  message_id: Type.String({ description: 'RFC 5322 Message-ID' }),
  in_reply_to: Nullable(Type.String({ description: 'Message-ID it answers' })),
  thread_uuid: Nullable(Uuid('Thread (the uuid of its first e-mail)')),
  replied_to_uuid: Nullable(Uuid('The e-mail of ours a received reply answers')),
  bounced_by_uuid: Nullable(Uuid('The delivery report that bounced this e-mail')),
  folder: Nullable(Type.String()),
  opened_at: Nullable(DateTime('First open (tracking on)')),
  clicked_at: Nullable(DateTime('First click (tracking on)')),
  read_at: Nullable(DateTime('Incoming e-mails: when it was marked read (contact_mark_read); null: unread')),
  error: Nullable(Type.String({ description: 'Why sending failed' })),
  sent_at: Nullable(DateTime('Sent or received')),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const Email = Type.Object(emailFields, { description: 'An e-mail sent or received' });

export const EmailPage = Type.Object({
  ...Envelope(Email).properties,
  pagination: Type.Object(
    {
      limit: Type.Integer(),
      offset: Type.Integer(),
      total: Type.Integer(),
      has_more: Type.Boolean(),
    },
    { description: 'The same paging fields again (some clients read them here)' },
  ),
});
export const EmailsQuery = ListQuery(emailSort, Object.keys(emailFilterFields));

export const ThreadEmail = Type.Object(
  {
    ...emailFields,
    body: Nullable(Type.String({ description: 'HTML body' })),
    text_body: Nullable(Type.String({ description: 'Plain-text body' })),
  },
  { description: 'An e-mail of the thread with its body' },
);
export const Thread = Type.Object({
  thread_uuid: Uuid('The thread'),
  data: Type.Array(ThreadEmail, { description: 'Its e-mails, oldest first' }),
});

export const LatestByLeadsBody = withExample(
  Type.Object(
    {
      lead_uuids: Type.Array(Uuid(), {
        minItems: 1,
        maxItems: 1000,
        description: 'Contacts (up to 1,000)',
      }),
    },
    { additionalProperties: false },
  ),
  { lead_uuids: ['0190f000-0000-7000-8000-000000000001'] },
);
export const LatestByLeads = Type.Object({
  data: Type.Array(Email, {
    description: 'The latest e-mail of each contact that has one (sent or received)',
  }),
});

export const LlmThreadBody = withExample(
  Type.Object(
    {
      sender_profile_uuid: Uuid('Sender profile whose mailboxes wrote to the contact'),
      lead_uuid: Uuid('The contact'),
      lead_name: Type.String({ minLength: 1, maxLength: 255, description: 'How the contact is named' }),
      limit: Type.Optional(
        Type.Union([Type.String({ pattern: '^[0-9]{1,4}$' }), Int32({ minimum: 1, maximum: 1000 })], {
          description:
            'At most this many of the latest e-mails (default 20, at most 1000; a string as real clients send)',
        }),
      ),
      sent_at_recency_in_days: Type.Optional(
        Int32({ minimum: 1, maximum: 36_500, description: 'Only e-mails of the last N days' }),
      ),
    },
    { additionalProperties: false },
  ),
  {
    sender_profile_uuid: '0190f000-0000-7000-8000-000000000002',
    lead_uuid: '0190f000-0000-7000-8000-000000000001',
    lead_name: 'Ann Lee',
    limit: '10',
  },
);
export type LlmThreadBody = Static<typeof LlmThreadBody>;

export const LlmThread = Type.Object({
  thread: Type.String({
    description:
      'The conversation as plain text, oldest first: one block per e-mail ("From", "Date", "Subject", then the text without quoted history)',
  }),
  messages: Type.Integer({ description: 'E-mails in it' }),
});

const address = Type.String({ minLength: 3, maxLength: 320, format: 'email', description: 'Address' });
const recipient = Type.Object(
  {
    to_email: address,
    to_name: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Display name' }))),
  },
  { additionalProperties: false },
);
const copy = Type.Array(Type.Union([address, recipient]), {
  maxItems: 50,
  description: 'Addresses, or {to_email, to_name} objects',
});

export const SendEmailBody = withExample(
  Type.Object(
    {
      // Shape 1 (the documented one): the sender profile's mailbox sends to to_email.
      sender_profile_uuid: Type.Optional(
        Uuid('Sender profile; its mailbox from_email (else its first active mailbox) sends'),
      ),
      from_name: Type.Optional(
        Nullable(Type.String({ maxLength: 255, description: 'Accepted; the mailbox sender name is used' })),
      ),
      from_email: Type.Optional(
        Nullable(Type.String({ maxLength: 320, description: 'Which mailbox of the sender profile sends' })),
      ),
      to_name: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Recipient name' }))),
      to_email: Type.Optional(Nullable(address)),
      // Shape 2 (n8n): a mailbox and a list of recipients.
      mailbox_uuid: Type.Optional(Uuid('Mailbox that sends (instead of sender_profile_uuid)')),
      to: Type.Optional(
        Type.Array(recipient, {
          minItems: 1,
          maxItems: 50,
          description: 'Recipients (the first is the contact)',
        }),
      ),
      in_reply_to_email_uuid: Type.Optional(
        Nullable(Uuid('An e-mail this one answers: same thread, In-Reply-To/References, "Re:" subject')),
      ),
      thread_uuid: Type.Optional(Nullable(Uuid('A thread to continue (answers its latest e-mail)'))),
      template_uuid: Type.Optional(
        Nullable(Uuid('Accepted for compatibility; not used (send subject and body)')),
      ),
      // Both shapes.
      lead_uuid: Type.Optional(
        Nullable(Uuid('The contact (default: the contact with the recipient address, if any)')),
      ),
      subject: Type.Optional(Nullable(Type.String({ maxLength: 998, description: 'Subject' }))),
      body: Type.Optional(Nullable(Type.String({ maxLength: 1_000_000, description: 'HTML body' }))),
      cc: Type.Optional(copy),
      bcc: Type.Optional(copy),
      attachments: Type.Optional(
        Type.Array(Type.Object({ uuid: Uuid('Attachment') }, { additionalProperties: false }), {
          maxItems: 20,
          description: 'Uploaded attachments (POST /flows/api/attachments)',
        }),
      ),
    },
    {
      additionalProperties: false,
      ...anyPresent(
        ['mailbox_uuid', 'sender_profile_uuid'],
        '(or sender_profile_uuid) is required: which mailbox sends',
      ),
    },
  ),
  {
    mailbox_uuid: '0190f000-0000-7000-8000-000000000003',
    to: [{ to_email: 'ann@example.com', to_name: 'Ann Lee' }],
    subject: 'Quick question',
    body: '<p>Hi Ann, do you have a minute this week?</p>',
    lead_uuid: '0190f000-0000-7000-8000-000000000001',
  },
);
export type SendEmailBody = Static<typeof SendEmailBody>;

export const EmailBody = Type.Object(
  {
    uuid: Uuid(),
    team_id: Type.Integer(),
    subject: Nullable(Type.String()),
    body: Nullable(Type.String({ description: 'HTML' })),
    text_body: Nullable(Type.String({ description: 'Plain text' })),
    attachments: Type.Array(
      Type.Object({
        uuid: Type.Optional(Uuid('Attachment (sent ones)')),
        name: Type.String(),
        type: Type.String({ description: 'MIME type' }),
        size: Type.Integer({ description: 'Bytes' }),
      }),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { description: 'The content of an e-mail' },
);
export const EmailBodyPage = Envelope(EmailBody);
export const EmailBodiesQuery = ListQuery(emailBodySort, Object.keys(emailBodyFilterFields), {
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Subject contains' })),
});

export const SentEmail = Type.Object({
  email: Email,
  email_body: EmailBody,
  emailDomain: Email,
  emailBodyDomain: EmailBody,
});
