import { type TSchema, Type } from 'typebox';
import { ScheduleInput, ScheduleSchema } from '../../http/schedule.schemas.js';
import { DateTime, Envelope, Id, ListQuery, Nullable, Uuid } from '../../http/schemas.js';
import {
  DEFAULT_DAILY_LIMITS,
  DEFAULT_WEEKLY_LIMITS,
  MAX_DAILY_LIMITS,
  MAX_WEEKLY_LIMITS,
  SENDER_ACTION_TYPES,
  WEEKLY_LIMITED_ACTION_TYPES,
} from './sender-limits.js';
import { senderFilterFields, senderSort } from './senders.repository.js';

const ACTION_WORDS: Record<string, string> = {
  linkedin_send_connection_request: 'LinkedIn connection requests',
  linkedin_send_message: 'LinkedIn messages',
  linkedin_send_inmail: 'LinkedIn InMails',
  linkedin_visit_profile: 'LinkedIn profile visits',
  linkedin_like_latest_post: 'likes of a contact\u2019s latest LinkedIn post',
  linkedin_endorse_skills: 'LinkedIn skill endorsements',
  linkedin_withdraw_connection_request: 'withdrawals of pending LinkedIn connection requests',
  email_send_message: 'e-mails',
};

/** An object with one key per action type; `value` builds each key's schema. */
function perAction<K extends string, T extends TSchema>(
  types: readonly K[],
  value: (type: K) => T,
  options: { description: string; examples?: unknown[] },
) {
  const properties = Object.fromEntries(types.map((type) => [type, value(type)])) as { [P in K]: T };
  return Type.Object(properties, { additionalProperties: false, ...options });
}

const dailyDescription = (type: string) =>
  `${ACTION_WORDS[type] ?? type} per local day (default ${DEFAULT_DAILY_LIMITS[type as keyof typeof DEFAULT_DAILY_LIMITS]}, at most ${MAX_DAILY_LIMITS[type as keyof typeof MAX_DAILY_LIMITS]})`;
const weeklyDescription = (type: string) =>
  `${ACTION_WORDS[type] ?? type} per rolling 7 local days (default ${DEFAULT_WEEKLY_LIMITS[type as keyof typeof DEFAULT_WEEKLY_LIMITS]}, at most ${MAX_WEEKLY_LIMITS[type as keyof typeof MAX_WEEKLY_LIMITS]})`;

export const LimitsOutput = perAction(
  SENDER_ACTION_TYPES,
  (type) => Type.Integer({ description: dailyDescription(type) }),
  {
    description:
      'Daily limits per action type in force (the profile\u2019s overrides over the defaults), before the ' +
      'warm-up ramp of smart limits',
  },
);
export const WeeklyLimitsOutput = perAction(
  WEEKLY_LIMITED_ACTION_TYPES,
  (type) => Type.Integer({ description: weeklyDescription(type) }),
  { description: 'Caps over a rolling week per action type in force' },
);

const LimitsInput = perAction(
  SENDER_ACTION_TYPES,
  (type) =>
    Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: MAX_DAILY_LIMITS[type],
          description: `${dailyDescription(type)}; 0 switches the action off, null restores the default`,
        }),
      ),
    ),
  {
    description:
      'Daily limit overrides per action type; keys left out keep their current value. Above the defaults ' +
      'the account\u2019s risk of a restriction grows (README, "Sender limits")',
    examples: [{ linkedin_send_connection_request: 15, linkedin_send_message: 30 }],
  },
);
const WeeklyLimitsInput = perAction(
  WEEKLY_LIMITED_ACTION_TYPES,
  (type) =>
    Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: MAX_WEEKLY_LIMITS[type],
          description: `${weeklyDescription(type)}; null restores the default`,
        }),
      ),
    ),
  {
    description: 'Rolling-week cap overrides; keys left out keep their current value',
    examples: [{ linkedin_send_connection_request: 80 }],
  },
);

const StatusField = Type.Enum(['enabled', 'disabled'], {
  description:
    'enabled: automations use the profile; disabled: its automation steps wait until it is enabled',
});

export const SenderProfile = Type.Object({
  uuid: Uuid('Sender profile identifier'),
  team_id: Type.Integer({ description: 'Team the profile belongs to' }),
  first_name: Type.String({
    description: 'First name (shown to contacts; {{sender.first_name}} in templates)',
  }),
  last_name: Nullable(Type.String({ description: 'Last name' })),
  label: Nullable(Type.String({ description: 'Label for your team, e.g. "Sales Team - US"' })),
  avatar_url: Nullable(Type.String({ description: 'Picture URL' })),
  assignee_user_id: Nullable(
    Type.Integer({ description: 'Team member who works this profile\u2019s tasks' }),
  ),
  schedule: ScheduleSchema,
  limits: LimitsOutput,
  weekly_limits: WeeklyLimitsOutput,
  smart_limits_enabled: Type.Boolean({
    description:
      'Warm-up ramp for a new account: a quarter of every daily limit in its first week, half in the ' +
      'second, three quarters in the third, all from day 21 (days counted from created_at in the ' +
      'schedule\u2019s zone)',
  }),
  action_interval_seconds: Nullable(
    Type.Integer({
      description: 'Seconds between two actions inside a window (randomised around it); null = the default',
    }),
  ),
  status: StatusField,
  hold_tasks_till: Nullable(
    DateTime('Automation steps of this profile wait until then (set by the engine after a limit signal)'),
  ),
  linkedin_browser_id: Nullable(Type.Integer({ description: 'LinkedIn browser seat bound to the profile' })),
  mailbox_uuid: Nullable(Uuid('Mailbox bound to the profile')),
  notification_emails: Nullable(
    Type.String({ description: 'Comma-separated addresses told about problems with the profile' }),
  ),
  user_id: Nullable(Type.Integer({ description: 'User who created the profile' })),
  created_at: DateTime('When it was created (day 0 of the warm-up ramp)'),
  updated_at: DateTime('When it last changed'),
});

export const SenderProfilePage = Envelope(SenderProfile);
export const SenderProfilesQuery = ListQuery(senderSort, Object.keys(senderFilterFields));

const NotificationEmails = Nullable(
  Type.Union(
    [
      Type.String({ maxLength: 2000, description: 'Comma-separated e-mail addresses' }),
      Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20, description: 'E-mail addresses' }),
    ],
    { description: 'Who is told about problems with the profile: addresses, as a list or comma-separated' },
  ),
);

const writableFields = {
  last_name: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Last name' }))),
  label: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Label for your team' }))),
  avatar_url: Type.Optional(
    Nullable(Type.String({ maxLength: 2048, format: 'uri', description: 'Picture URL (http or https)' })),
  ),
  assignee_user_id: Type.Optional(Id({ description: 'A member of your team; defaults to you on create' })),
  schedule: Type.Optional(ScheduleInput),
  limits: Type.Optional(LimitsInput),
  weekly_limits: Type.Optional(WeeklyLimitsInput),
  smart_limits_enabled: Type.Optional(
    Type.Boolean({ description: 'Warm-up ramp for a new account (default false)' }),
  ),
  action_interval_seconds: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 10,
        maximum: 86_400,
        description: 'Seconds between two actions inside a window; null = the default (60-180 s, random)',
      }),
    ),
  ),
  notification_emails: Type.Optional(NotificationEmails),
};

const FirstName = Type.String({ minLength: 1, maxLength: 255, description: 'First name (required)' });

export const CreateSenderProfileBody = Type.Object(
  {
    first_name: FirstName,
    ...writableFields,
    status: Type.Optional(StatusField),
  },
  {
    additionalProperties: false,
    description:
      'schedule defaults to Monday-Friday 09:00-18:00 in the team\u2019s time zone; limits default to the ' +
      'figures in the README',
    examples: [
      {
        first_name: 'Jane',
        last_name: 'Doe',
        label: 'Sales Team - US',
        schedule: {
          timezone: 'America/New_York',
          use_lead_timezone: false,
          timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
        },
        limits: { linkedin_send_connection_request: 15 },
        smart_limits_enabled: true,
      },
    ],
  },
);

export const UpdateSenderProfileBody = Type.Object(
  { first_name: Type.Optional(FirstName), ...writableFields },
  {
    additionalProperties: false,
    description: 'Only the fields sent change; limits and weekly_limits merge key by key',
    examples: [
      { label: 'Sales Team - EU', limits: { linkedin_send_message: 30, linkedin_send_inmail: null } },
    ],
  },
);
