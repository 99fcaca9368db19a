import { type TProperties, Type } from 'typebox';
import {
  atLeastOne,
  DateTime,
  EmailText,
  Envelope,
  INT32_MAX,
  LN_ID_PATTERN,
  MAX_ID,
  Nullable,
  SearchBody,
  SN_ID_PATTERN,
  TimeZone,
  together,
  Uuid,
  Website,
  withExample,
} from '../../http/schemas.js';
import { LeadMarkers } from '../activities/markers.schemas.js';
import { EMAIL_STATUSES, LEAD_STATUSES, LINKEDIN_STATUSES } from './lead-fields.js';
import { LEAD_FILTER_KEYS } from './leads.filter.js';
import { CONTACT_NEEDS } from './leads.input.js';
import { leadSort } from './leads.query.js';

// Nullable values are written as JSON type lists rather than anyOf unions: the serializer then
// checks a type instead of trying schema branches, which matters at 1000 contacts per response.
const str = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], description });
const int = (description: string) => Type.Unsafe<number | null>({ type: ['integer', 'null'], description });
const uuidOrNull = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid', description });
const dateOrNull = (description: string) =>
  Type.Unsafe<Date | string | null>({ type: ['string', 'null'], format: 'date-time', description });
const arrayOrNull = <T>(items: object, description: string) =>
  Type.Unsafe<T[] | null>({ type: ['array', 'null'], items, description });
const enumOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description: `${description}: ${values.join(', ')}` });
const enumOrNull = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T | null>({
    type: ['string', 'null'],
    enum: [...values, null],
    description: `${description}: ${values.join(', ')} or null`,
  });

const LooseObject = Type.Record(Type.String(), Type.Unknown());
type Loose = Record<string, unknown>;

export const Lead = Type.Object(
  {
    uuid: Uuid('Contact identifier'),
    team_id: Type.Integer({ description: 'Team (workspace) the contact belongs to' }),
    user_id: int('User who created the contact, when known'),
    sender_profile_uuid: uuidOrNull('Owning sender profile'),
    list_uuid: Uuid('The list the contact belongs to (exactly one)'),
    data_source_uuid: uuidOrNull('Data source (LinkedIn import job) the contact came from'),
    pipeline_stage_uuid: Uuid('Pipeline stage of the contact'),
    company_uuid: uuidOrNull(
      'Company of the team the contact is linked to (by company name, work e-mail domain or given domain)',
    ),
    name: str('Full name; first + last name when not given'),
    first_name: str('First name'),
    last_name: str('Last name'),
    company_name: str('Employer name'),
    company_ln_id: str('LinkedIn id of the employer'),
    position: str('Job title'),
    headline: str('LinkedIn headline'),
    about: str('LinkedIn "about" text'),
    avatar_url: str('Profile picture URL'),
    ln_member_id: int('Numeric LinkedIn member id (deduplication key 1)'),
    ln_id: str('LinkedIn profile id, "ACoAA..." (deduplication key 2)'),
    sn_id: str('Sales Navigator id, "ACwAA..." (deduplication key 3)'),
    linkedin: str('LinkedIn public nickname, lower case (deduplication key 4)'),
    linkedin_url: str('Profile URL built from the nickname'),
    sales_navigator_url: str('Sales Navigator lead URL built from sn_id'),
    facebook: str('Facebook profile'),
    twitter: str('Twitter/X handle'),
    work_email: str('Work e-mail, lower case (deduplication key 5)'),
    personal_email: str('Personal e-mail, lower case (deduplication key 6)'),
    work_phone_number: str('Work phone'),
    personal_phone_number: str('Personal phone'),
    connections_number: int('LinkedIn connections'),
    followers_number: int('LinkedIn followers'),
    primary_language: str('Primary language code, e.g. "en"'),
    supported_languages: arrayOrNull<string>({ type: 'string' }, 'Language codes'),
    has_open_profile: int('1 when the LinkedIn profile is open, 0 when not'),
    has_verified_profile: int('1 when the LinkedIn profile is verified'),
    has_premium: int('1 when the member has LinkedIn Premium'),
    experience: arrayOrNull<Loose>(LooseObject, '[{title, company, start_date, end_date}]'),
    posts: arrayOrNull<Loose>(LooseObject, '[{content, date}]'),
    educations: arrayOrNull<Loose>(LooseObject, '[{school, degree, field_of_study, start_year, end_year}]'),
    skills: arrayOrNull<string>({ type: 'string' }, 'Skills'),
    raw_address: str('Free-text location'),
    location: arrayOrNull<Loose>(LooseObject, 'Structured location, [{address_string}]'),
    tags: Type.Array(Type.String({ format: 'uuid' }), { description: 'Tag UUIDs' }),
    custom_fields: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Custom field values keyed by custom field name (fields without a value are left out)',
    }),
    status: enumOf(LEAD_STATUSES, 'Record status'),
    linkedin_status: enumOf(LINKEDIN_STATUSES, 'LinkedIn data status'),
    email_status: enumOrNull(EMAIL_STATUSES, 'E-mail status'),
    timezone: str('IANA time zone of the contact (automations with use_lead_timezone plan its steps in it)'),
    is_blacklisted: Type.Boolean({
      description: 'A blacklist entry matches the contact; mass actions and automations skip it',
    }),
    last_automation_approve_at: dateOrNull('Last time an automation step was approved'),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'Contact' },
);

// ---- input ----

const text = (description: string, maxLength = 2000) =>
  Type.Optional(Nullable(Type.String({ maxLength, description })));
const email = (description: string) => Type.Optional(Nullable(EmailText({ description })));

/** Create-lead fields shared by create, upsert and update. */
const standardFields = {
  linkedin_id: text(
    'Any LinkedIn reference: profile URL (any subdomain, with or without www., query or trailing slash), ' +
      'Sales Navigator lead URL, nickname, numeric member id, ACoAA... or ACwAA... id. Parsed into ' +
      'ln_member_id, ln_id, sn_id or linkedin.',
  ),
  name: text('Full name (default: first_name + last_name)'),
  first_name: text('First name'),
  last_name: text('Last name'),
  company_name: text('Employer name'),
  company_ln_id: text('LinkedIn id of the employer'),
  position: text('Job title'),
  headline: text('LinkedIn headline'),
  about: text('About text', 20_000),
  avatar_url: text('Profile picture URL'),
  avatar: text('Alias of avatar_url'),
  ln_member_id: Type.Optional(
    Nullable(
      Type.Union(
        [Type.Integer({ minimum: 1, maximum: MAX_ID }), Type.String({ pattern: '^0*[1-9]\\d{0,14}$' })],
        {
          description: 'Numeric LinkedIn member id',
        },
      ),
    ),
  ),
  ln_id: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        pattern: LN_ID_PATTERN,
        description: 'LinkedIn profile id "ACoAA..." (or a URL / URN holding it)',
      }),
    ),
  ),
  sn_id: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        pattern: SN_ID_PATTERN,
        description: 'Sales Navigator id "ACwAA..." (or a Sales Navigator URL)',
      }),
    ),
  ),
  linkedin: text('LinkedIn nickname or profile URL'),
  facebook: text('Facebook profile'),
  twitter: text('Twitter/X handle'),
  email: email(
    'E-mail; stored as work_email, or as personal_email when work_email is given too (422 when both are)',
  ),
  work_email: email('Work e-mail'),
  personal_email: email('Personal e-mail'),
  domain: Type.Optional(
    Nullable(
      Website({
        description:
          'Company domain (or website): links the contact to the team\u2019s company with that domain',
      }),
    ),
  ),
  work_phone_number: text('Work phone'),
  personal_phone_number: text('Personal phone'),
  connections_number: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'LinkedIn connections' })),
  ),
  followers_number: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'LinkedIn followers' })),
  ),
  primary_language: text('Primary language code'),
  supported_languages: Type.Optional(
    Nullable(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 100, description: 'Language codes' })),
  ),
  has_open_profile: Type.Optional(
    Nullable(
      Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Boolean()], {
        description: '1 (or true) when the LinkedIn profile is open, 0 when not',
      }),
    ),
  ),
  has_verified_profile: Type.Optional(
    Nullable(
      Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Boolean()], {
        description: '1 (or true) when the LinkedIn profile is verified',
      }),
    ),
  ),
  has_premium: Type.Optional(
    Nullable(
      Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Boolean()], {
        description: '1 (or true) when the member has LinkedIn Premium',
      }),
    ),
  ),
  experience: Type.Optional(
    Nullable(
      Type.Array(LooseObject, { maxItems: 200, description: '[{title, company, start_date, end_date}]' }),
    ),
  ),
  posts: Type.Optional(
    Nullable(Type.Array(LooseObject, { maxItems: 200, description: '[{content, date}]' })),
  ),
  educations: Type.Optional(
    Nullable(
      Type.Array(LooseObject, {
        maxItems: 200,
        description: '[{school, degree, field_of_study, start_year, end_year}]',
      }),
    ),
  ),
  skills: Type.Optional(
    Nullable(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500, description: 'Skills' })),
  ),
  raw_address: text('Free-text location'),
  timezone: Type.Optional(
    Nullable(
      TimeZone({
        description:
          'IANA time zone of the contact, e.g. "Europe/Berlin"; flows with use_lead_timezone plan its steps in it',
      }),
    ),
  ),
  location: Type.Optional(
    Nullable(
      Type.Array(LooseObject, { maxItems: 20, description: 'Structured location, [{address_string}]' }),
    ),
  ),
  linkedin_status: Type.Optional(enumOf(LINKEDIN_STATUSES, 'LinkedIn data status')),
  email_status: Type.Optional(Nullable(enumOf(EMAIL_STATUSES, 'E-mail status'))),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      maxItems: 100,
      description: 'Tag names (created when missing) or tag UUIDs',
    }),
  ),
} satisfies TProperties;

const customFieldsInput = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Custom field values keyed by custom field name or UUID; null clears a value',
});

/** What names or identifies a contact (leads.input.ts requireIdentifiable; aliases included). */
const NAME_KEYS = ['name', 'first_name', 'last_name'];
const IDENTIFIER_KEYS = [
  'linkedin_id',
  'linkedin',
  'ln_member_id',
  'ln_id',
  'sn_id',
  'email',
  'work_email',
  'personal_email',
];

export const LeadInput = Type.Object(
  { ...standardFields, custom_fields: Type.Optional(customFieldsInput) },
  {
    additionalProperties: false,
    ...atLeastOne([...NAME_KEYS, ...IDENTIFIER_KEYS].map((key) => [key])),
    // The service's own words (leads.input.ts), reported as "leads.1: a contact needs ...".
    'x-message': `: ${CONTACT_NEEDS}`,
    title: 'Create-lead fields',
    description:
      'A contact needs a name (first_name, last_name or name) or an identifier (a LinkedIn reference or an ' +
      'e-mail); deduplication needs an identifier, or name together with company_name.',
  },
);

export const CreateLeadsBody = Type.Object(
  {
    list_uuid: Uuid('List the contacts are added to'),
    leads: Type.Array(LeadInput, { minItems: 1, maxItems: 1000, description: '1 to 1000 contacts' }),
  },
  { additionalProperties: false },
);

export const CreatedLead = Type.Object(
  {
    ...Lead.properties,
    create_status: Type.Union([Type.Literal('created'), Type.Literal('duplicate')], {
      description:
        'created: a new contact. duplicate: the input matched an existing contact (or an earlier entry of ' +
        'the same request) by a deduplication key; that contact is returned unchanged and nothing is created.',
    }),
  },
  { title: 'Created contact' },
);

export const UpsertLeadBody = Type.Object(
  {
    lead: LeadInput,
    custom_fields: Type.Optional(customFieldsInput),
    list_uuid: Uuid('List of a new contact (and of an existing one when move_to_list is true)'),
    update_if_exists: Type.Optional(
      Type.Boolean({ default: true, description: 'Write the given fields onto a matched contact' }),
    ),
    move_to_list: Type.Optional(
      Type.Boolean({ default: false, description: 'Move a matched contact into list_uuid' }),
    ),
  },
  { additionalProperties: false },
);

export const UpsertedLead = Type.Object(
  {
    ...Lead.properties,
    upsert_status: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('unchanged')], {
      description:
        'created: no contact matched; updated: a matched contact changed; unchanged: it matched and ' +
        'nothing changed (or update_if_exists was false)',
    }),
  },
  { title: 'Upserted contact' },
);

export const LookupLeadBody = Type.Object(
  {
    linkedin_id: text('Any LinkedIn reference (see create-lead linkedin_id)'),
    email: email('Matches work_email or personal_email'),
    name: text('Full name (with company_name)'),
    company_name: text('Company name (with name)'),
    disable_aggregation: Type.Optional(Type.Boolean({ description: 'Accepted; has no effect' })),
  },
  {
    additionalProperties: false,
    ...atLeastOne([['linkedin_id'], ['email'], ['name', 'company_name']]),
    ...together('name', 'company_name'),
  },
);

const { tags: _tags, ...updatableFields } = standardFields;

export const UpdateLeadBody = Type.Object(
  {
    ...updatableFields,
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
        maxItems: 100,
        description: 'Replaces the contact\u2019s tags: tag names (created when missing) or tag UUIDs',
      }),
    ),
    list_uuid: Type.Optional(Uuid('Move the contact to this list of the team')),
    pipeline_stage_uuid: Type.Optional(Uuid('Move the contact to this contact pipeline stage of the team')),
    custom_fields: Type.Optional(customFieldsInput),
  },
  { additionalProperties: false },
);

export const LeadQuery = Type.Object({
  disable_aggregation: Type.Optional(
    Type.Boolean({ description: 'true leaves out the aggregated markers (default false)' }),
  ),
});

/** One contact with its aggregates (GET without disable_aggregation). */
export const LeadDetail = Type.Object(
  {
    ...Lead.properties,
    markers: Type.Optional(LeadMarkers),
    unread_counts: Type.Optional(
      Type.Array(
        Type.Object({
          category: Type.Enum(['linkedin', 'email'], { description: 'The channel' }),
          sender_profile_uuid: Nullable(Uuid('The sender profile it was sent to')),
          count: Type.Integer({ description: 'Messages or e-mails from the contact not read yet' }),
        }),
        {
          description: 'What the contact sent that nobody has read, per channel and sender (empty: nothing)',
        },
      ),
    ),
  },
  { title: 'Contact with aggregates' },
);

// The search filter is the selection language of count, export and mass actions (leads.selection.ts).
export const SearchLeadsBody = SearchBody(leadSort, [
  ...LEAD_FILTER_KEYS,
  'all',
  'ids',
  'excludeIds',
  'leadFilter',
]);
export const LeadPage = Envelope(Lead);

withExample(CreateLeadsBody, {
  list_uuid: '0190f000-0000-7000-8000-000000000001',
  leads: [
    {
      first_name: 'Jane',
      last_name: 'Doe',
      company_name: 'Acme Inc',
      position: 'CTO',
      linkedin_id: 'https://www.linkedin.com/in/jane-doe',
      email: 'jane@acme.example',
      tags: ['Hot lead'],
    },
  ],
});
withExample(UpsertLeadBody, {
  list_uuid: '0190f000-0000-7000-8000-000000000001',
  lead: { linkedin_id: 'jane-doe', first_name: 'Jane', last_name: 'Doe', position: 'CTO' },
  update_if_exists: true,
  move_to_list: false,
});
withExample(LookupLeadBody, { email: 'jane@acme.example' });
withExample(UpdateLeadBody, {
  position: 'VP Engineering',
  pipeline_stage_uuid: '0190f000-0000-7000-8000-000000000002',
});
