import { Type } from 'typebox';
import { ScheduleSchema } from '../../http/schedule.schemas.js';
import {
  anyPresent,
  DateTime,
  Envelope,
  Id,
  Nullable,
  SearchBody,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { SEAT_SORT } from './browsers.sort.js';
import { NOTE_QUOTA_ACTIONS } from './browsers.tables.js';

export const SEAT_DRIVERS = ['chromium', 'sandbox'] as const;
export const SEAT_STATUSES = [
  'running',
  'stopped',
  'idle',
  'start_issue',
  'running_issue',
  'login_issue',
  'initializing',
] as const;
export const PROXY_TYPES = ['http', 'https', 'socks5'] as const;

const ProxyOut = Type.Object({
  type: Type.Enum([...PROXY_TYPES]),
  host: Type.String(),
  port: Type.Integer(),
  username: Nullable(Type.String()),
  has_password: Type.Boolean({ description: 'A password is stored (sealed; never shown)' }),
});

const SelectorHealth = Type.Object(
  {
    checked_at: Nullable(DateTime('When the last health check ran (a chromium seat; null: never)')),
    requested_at: Nullable(
      DateTime('When a check was asked for (health-check); the health round, every 5 minutes, runs it'),
    ),
    missed: Type.Array(Type.String(), {
      description:
        'What the last check did not find, by item (e.g. profile.topCard, messaging.conversation); the pages ' +
        'are saved redacted under LEADFLOW_LINKEDIN_PAGE_DUMPS_DIR',
    }),
    error: Nullable(Type.String({ description: 'Why the last check could not run' })),
    paused_actions: Type.Array(
      Type.Object({
        type: Type.String({ description: 'The action type, e.g. linkedin_send_connection_request' }),
        since: DateTime(),
        reason: Type.String(),
      }),
      {
        description:
          'Action types this seat holds back until a check passes (its pages no longer show what the driver ' +
          'needs): a check missed what they need, or they missed it 3 times in a row',
      },
    ),
  },
  {
    description:
      'Whether LinkedIn\u2019s pages still show what the browser driver needs: a read-only tour after each ' +
      'login, daily and on demand',
  },
);

const Invitations = Type.Object(
  {
    premium: Type.Boolean({
      description:
        'The LinkedIn account is known to be Premium: notes up to 300 characters and no monthly note quota. ' +
        'false (default): a free account - notes up to 200 characters, free_notes_per_month of them per 30 days',
    }),
    note_quota: Type.Enum([...NOTE_QUOTA_ACTIONS], {
      description:
        'What a note quota does to an invitation with a note - predicted (notes_left is 0) or shown by ' +
        'LinkedIn (a Premium upsell): fail (default; the step fails with note_quota) or send_without_note',
    }),
    free_notes_per_month: Type.Integer({
      description:
        'Personalised invitations a free account may send per 30 days (default 5, LinkedIn\u2019s)',
    }),
    note_max_chars: Type.Integer({
      description: 'The longest note this seat sends (200, or 300 when premium); a longer one fails the step',
    }),
    notes_sent_30_days: Type.Integer({
      description: 'Invitations with a note the seat sent in the last 30 days',
    }),
    notes_left: Nullable(
      Type.Integer({
        description:
          'Notes the seat may still send before the quota (0 also after LinkedIn refused one in the last 30 ' +
          'days); null when premium',
      }),
    ),
    note_quota_refused_at: Nullable(DateTime('When LinkedIn last refused a note (asked for Premium)')),
  },
  { description: 'Invitation notes: the account\u2019s limits and what the seat has used of them' },
);

export const Seat = Type.Object(
  {
    id: Type.Integer({ description: 'Seat id' }),
    team_id: Type.Integer(),
    sender_profile_uuid: Uuid('The sender profile that acts through this seat'),
    linkedin_account_uuid: Nullable(
      Uuid('Set once a LinkedIn account is connected (the same account keeps the same uuid)'),
    ),
    external_id: Nullable(Type.String({ description: 'Stable reference of the seat for other systems' })),
    driver: Type.Enum([...SEAT_DRIVERS], {
      description: 'chromium: a real browser logged in to LinkedIn; sandbox: the simulated LinkedIn network',
    }),
    name: Nullable(Type.String()),
    shared_emails: Type.Array(Type.String(), { description: 'Team members the seat is shared with' }),
    linkedin_automation_server_id: Type.Null({
      description: 'Always null: any worker process runs any seat',
    }),
    linkedin_proxy_id: Type.Null({ description: 'Always null: there is no managed proxy pool' }),
    proxy_country_code: Nullable(
      Type.String({ description: 'Country of the proxy (ISO 3166 alpha-2), as set' }),
    ),
    custom_proxy_config: Type.Array(ProxyOut, {
      description: 'The seat\u2019s own proxy (at most one); the browser goes out through it',
    }),
    schedule: Nullable(ScheduleSchema),
    linkedin_login: Type.Null({
      description: 'Always null: credentials are typed by the owner in the live view, never stored',
    }),
    linkedin_password: Type.Null({ description: 'Always null (see linkedin_login)' }),
    ln_code: Type.Null({ description: 'Always null (see linkedin_login)' }),
    browser_owner: Type.String({ description: '"customer": the browser runs on your own Leadflow' }),
    status: Type.Enum([...SEAT_STATUSES], {
      description:
        'stopped (new, or stopped by hand), initializing (someone is in the login live view), running (logged in; ' +
        'the engine acts through it), login_issue (needs a login: never logged in, logged out or a LinkedIn ' +
        'checkpoint), start_issue (the browser cannot start: Chromium missing at LEADFLOW_CHROMIUM_PATH, or the ' +
        'proxy refused - error_reason says which; run the seat again once fixed), running_issue (the browser ' +
        'failed repeatedly)',
    }),
    error_reason: Nullable(Type.String({ description: 'Why the seat is not running, when it is not' })),
    selector_health: SelectorHealth,
    invitations: Invitations,
    user_id: Nullable(Type.Integer()),
    last_start_at: Nullable(DateTime()),
    external_access_key_expires_at: Nullable(DateTime('When the current login link stops working')),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'LinkedIn browser seat' },
);

export const SeatPage = Envelope(Seat);

const ProxyIn = Type.Object(
  {
    type: Type.Enum([...PROXY_TYPES], { description: 'http, https or socks5 (socks5 without credentials)' }),
    host: Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9.:\\[\\]-]+$',
      description: 'Host name or IP address, no scheme',
    }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    username: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    password: Type.Optional(
      Nullable(Type.String({ maxLength: 255, description: 'Stored sealed, never shown again' })),
    ),
  },
  {
    additionalProperties: false,
    allOf: [
      {
        // A password needs a username.
        if: { required: ['password'], properties: { password: { type: 'string', minLength: 1 } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
        then: { required: ['username'], properties: { username: { type: 'string', pattern: '\\S' } } },
      },
      {
        // Chromium cannot authenticate to a SOCKS5 proxy: no credentials with socks5.
        if: { required: ['type'], properties: { type: { const: 'socks5' } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
        then: {
          properties: {
            username: { anyOf: [{ type: 'null' }, { type: 'string', pattern: '^\\s*$' }] },
            password: { anyOf: [{ type: 'null' }, { type: 'string', maxLength: 0 }] },
          },
        },
      },
    ],
  },
);

const InvitationsIn = Type.Object(
  {
    premium: Type.Optional(
      Type.Boolean({ description: 'The account is Premium (300-character notes, no monthly note quota)' }),
    ),
    note_quota: Type.Optional(
      Type.Enum([...NOTE_QUOTA_ACTIONS], {
        description:
          'fail: the step fails with note_quota; send_without_note: the invitation goes without it',
      }),
    ),
    free_notes_per_month: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'Notes per 30 days of a free account (LinkedIn: 5)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'The seat\u2019s invitation-note policy; keys left out keep their value',
  },
);

const proxyFields = {
  proxy_country_code: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        description: 'Country of the proxy (two letters, e.g. US, DE); recorded with the seat',
      }),
    ),
  ),
  custom_proxy_config: Type.Optional(
    Nullable(
      Type.Union([ProxyIn, Type.Array(ProxyIn, { maxItems: 1 })], {
        description: 'The seat\u2019s proxy: one object (or an array of one); null or [] removes it',
      }),
    ),
  ),
};

export const CreateSeatBody = withExample(
  Type.Object(
    {
      sender_profile_uuid: Uuid('Sender profile the seat belongs to (one seat per sender)'),
      driver: Type.Optional(
        Type.Enum([...SEAT_DRIVERS], {
          default: 'chromium',
          description:
            'chromium (default): a real browser; sandbox: the simulated LinkedIn network for demos and tests (runs at once, no login)',
        }),
      ),
      name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
      ...proxyFields,
    },
    { additionalProperties: false },
  ),
  {
    sender_profile_uuid: '0190a5f2-6c1e-7a3b-9c2d-1e2f3a4b5c6d',
    driver: 'chromium',
    name: 'Anna - sales',
    proxy_country_code: 'DE',
    custom_proxy_config: {
      type: 'http',
      host: 'proxy.example.com',
      port: 8080,
      username: 'anna',
      password: 'secret',
    },
  },
);

export const UpdateSeatBody = withExample(
  Type.Object(
    {
      name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
      ...proxyFields,
      invitations: Type.Optional(InvitationsIn),
    },
    { additionalProperties: false },
  ),
  { name: 'Anna - sales EU', invitations: { premium: false, note_quota: 'send_without_note' } },
);

export const SetProxyBody = withExample(
  Type.Object(proxyFields, {
    additionalProperties: false,
    ...anyPresent(
      ['proxy_country_code', 'custom_proxy_config'],
      'is required unless proxy_country_code is given: send proxy_country_code and/or custom_proxy_config',
      'custom_proxy_config',
    ),
  }),
  {
    proxy_country_code: 'US',
    custom_proxy_config: [{ type: 'socks5', host: '203.0.113.7', port: 1080 }],
  },
);

export const ShareSeatBody = withExample(
  Type.Object(
    {
      recipients: Type.Array(Type.String({ format: 'email', maxLength: 320 }), {
        minItems: 1,
        maxItems: 100,
        description: 'E-mails of members of this team',
      }),
    },
    { additionalProperties: false },
  ),
  { recipients: ['colleague@example.com'] },
);

export const AccessKey = Type.Object({
  external_access_key: Type.String({ description: 'lb_ak_...: the key inside the link (shown once)' }),
  cloud_browser_url: Type.String({
    description: 'Public login page; no API key needed; valid 7 days; a new key revokes this one',
  }),
  expires_at: DateTime(),
});

/** Paging and sorting of the seat list (order_field: created_at, updated_at or id; default order asc). */
export const ListSeatsBody = SearchBody(SEAT_SORT);

export const SeatParams = Type.Object({
  id: Id({ description: 'Seat id' }),
});
