import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../../http/schemas.js';
import {
  mailboxErrorFilterFields,
  mailboxErrorSort,
  mailboxFilterFields,
  mailboxSort,
} from './mailboxes.repository.js';

const host = (side: string) =>
  Type.String({ minLength: 1, maxLength: 255, description: `${side} server host name` });
const port = (side: string, typical: string) =>
  Type.Integer({ minimum: 1, maximum: 65535, description: `${side} port (${typical})` });
const secure = (side: string, implicit: number) =>
  Type.Boolean({
    description: `${side} over TLS from the first byte (port ${implicit}); false: plain, upgraded with STARTTLS when the server offers it. Default: true on port ${implicit}`,
  });
const username = (side: string) =>
  Type.String({ minLength: 1, maxLength: 320, description: `${side} login; default: the mailbox address` });
const password = (side: string) =>
  Type.String({
    minLength: 1,
    maxLength: 1024,
    description: `${side} password; stored encrypted, never returned`,
  });

export const ConnectionSettingsOut = Type.Object(
  {
    smtp_host: Type.Optional(Type.String()),
    smtp_port: Type.Optional(Type.Integer()),
    smtp_secure: Type.Optional(Type.Boolean()),
    smtp_username: Type.Optional(Type.String()),
    imap_host: Type.Optional(Type.String()),
    imap_port: Type.Optional(Type.Integer()),
    imap_secure: Type.Optional(Type.Boolean()),
    imap_username: Type.Optional(Type.String()),
  },
  { description: 'Servers and logins (passwords and tokens are never returned)' },
);

export const Mailbox = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer(),
  user_id: Nullable(Type.Integer()),
  sender_profile_uuid: Uuid('Sender profile that sends through this mailbox'),
  email: Type.String({ description: 'Address the mailbox sends from' }),
  sender_name: Type.String({ description: 'Display name of the From header' }),
  provider: Type.Union([Type.Literal('smtp'), Type.Literal('gmail'), Type.Literal('outlook')]),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('error')], {
    description:
      'active: sends and syncs; inactive: switched off; error: a login or connection failed (see mailbox-errors)',
  }),
  automation_daily_limit: Type.Integer({
    description: 'Automated e-mails a day (the sender profile schedule\u2019s days)',
  }),
  automation_task_interval: Type.Integer({ description: 'Seconds at least between two automated e-mails' }),
  custom_tracking_domain_uuid: Nullable(Uuid()),
  connection_settings: ConnectionSettingsOut,
  send_status: Type.Union([Type.Literal('pending'), Type.Literal('ok'), Type.Literal('error')], {
    description: 'Outcome of the last send or SMTP check',
  }),
  sync_status: Type.Union([Type.Literal('pending'), Type.Literal('ok'), Type.Literal('error')], {
    description: 'Outcome of the last IMAP sync or check',
  }),
  last_send_at: Nullable(DateTime()),
  last_sync_at: Nullable(DateTime()),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const MailboxPage = Envelope(Mailbox);
export const MailboxesQuery = ListQuery(mailboxSort, Object.keys(mailboxFilterFields));

const settingsFields = {
  smtp_host: Type.Optional(host('SMTP')),
  smtp_port: Type.Optional(port('SMTP', '465 TLS, 587 STARTTLS')),
  smtp_secure: Type.Optional(secure('SMTP', 465)),
  smtp_username: Type.Optional(username('SMTP')),
  smtp_password: Type.Optional(password('SMTP')),
  imap_host: Type.Optional(host('IMAP')),
  imap_port: Type.Optional(port('IMAP', '993 TLS, 143 STARTTLS')),
  imap_secure: Type.Optional(secure('IMAP', 993)),
  imap_username: Type.Optional(username('IMAP')),
  imap_password: Type.Optional(password('IMAP')),
};

export const ConnectionSettingsIn = Type.Object(settingsFields, {
  additionalProperties: false,
  description:
    'SMTP and IMAP servers of an smtp mailbox. On create smtp_host, smtp_port, smtp_password, imap_host, imap_port and imap_password are required; on update the fields sent replace the stored ones',
});

const limits = {
  automation_daily_limit: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 10_000, description: 'Automated e-mails a day (default 50)' }),
  ),
  automation_task_interval: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 86_400,
      description: 'Seconds at least between two automated e-mails of this mailbox (default 120)',
    }),
  ),
  custom_tracking_domain_uuid: Type.Optional(
    Nullable(
      Uuid('One of your custom tracking domains: once verified, its links, pixel and unsubscribe URL use it'),
    ),
  ),
};

export const CreateMailboxBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320, description: 'Address the mailbox sends from' }),
    sender_name: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Display name of the From header',
    }),
    sender_profile_uuid: Uuid('Sender profile that sends through this mailbox'),
    provider: Type.Optional(
      Type.Literal('smtp', {
        description:
          'smtp (the default). Gmail and Outlook mailboxes connect with OAuth: GET /emails/api/mailboxes/oauth/{provider}/start',
      }),
    ),
    connection_settings: ConnectionSettingsIn,
    ...limits,
  },
  { additionalProperties: false },
);

export const UpdateMailboxBody = Type.Object(
  {
    sender_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Display name' })),
    sender_profile_uuid: Type.Optional(Uuid('Move the mailbox to this sender profile')),
    connection_settings: Type.Optional(ConnectionSettingsIn),
    ...limits,
  },
  { additionalProperties: false },
);

export const DeleteMailboxBody = Type.Union([
  Type.Object(
    {
      automation_reassign_mailboxes: Type.Boolean({
        description:
          'true: the mailbox named in automation_mailbox_to_reassign takes over this mailbox\u2019s sender profile (its flows\u2019 e-mail steps, follow-ups of open threads); false: they wait for another mailbox of the sender profile',
      }),
      automation_mailbox_to_reassign: Type.Optional(Uuid('Mailbox that takes over (required with true)')),
    },
    {
      additionalProperties: false,
      anyOf: [
        { properties: { automation_reassign_mailboxes: { const: false } } },
        { required: ['automation_mailbox_to_reassign'] },
      ],
      'x-message': 'is required when automation_reassign_mailboxes is true',
      'x-fields': ['automation_mailbox_to_reassign'],
    },
  ),
  Type.Null(),
]);

export const OAuthStartParams = Type.Object({
  provider: Type.Union([Type.Literal('gmail'), Type.Literal('outlook')], { description: 'gmail or outlook' }),
});
export const OAuthStartQuery = Type.Object({
  sender_profile_uuid: Uuid('Sender profile the mailbox is for'),
  sender_name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Display name (default: the address)' }),
  ),
  login_hint: Type.Optional(
    Type.String({ maxLength: 320, description: 'Address to preselect at the provider' }),
  ),
  automation_daily_limit: limits.automation_daily_limit,
  automation_task_interval: limits.automation_task_interval,
});
export const OAuthStart = Type.Object({
  url: Type.String({
    description:
      'Open this URL in a browser; after consent the provider returns to Leadflow, which stores the mailbox',
  }),
  redirect_uri: Type.String({
    description: 'The callback registered with the provider must be exactly this',
  }),
});

export const MailboxError = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer(),
  mailbox_uuid: Uuid(),
  error_type: Type.Union([Type.Literal('send'), Type.Literal('sync'), Type.Literal('auth')]),
  message: Type.String({ description: 'What the server said' }),
  created_at: DateTime(),
});
export const MailboxErrorPage = Envelope(MailboxError);
export const MailboxErrorsQuery = ListQuery(mailboxErrorSort, Object.keys(mailboxErrorFilterFields), {
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Message contains (case-insensitive)' })),
});

withExample(CreateMailboxBody, {
  email: 'outreach@company.com',
  sender_name: 'John from Company',
  sender_profile_uuid: '0190f000-0000-7000-8000-000000000001',
  provider: 'smtp',
  connection_settings: {
    smtp_host: 'smtp.company.com',
    smtp_port: 465,
    smtp_password: 'app-password',
    imap_host: 'imap.company.com',
    imap_port: 993,
    imap_password: 'app-password',
  },
  automation_daily_limit: 50,
  automation_task_interval: 120,
});
withExample(UpdateMailboxBody, { sender_name: 'John Smith', automation_daily_limit: 40 });
withExample(DeleteMailboxBody, {
  automation_reassign_mailboxes: true,
  automation_mailbox_to_reassign: '0190f000-0000-7000-8000-000000000002',
});
