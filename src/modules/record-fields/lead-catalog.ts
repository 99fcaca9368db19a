// The contact record's field catalog: one entry per field, in the order of the record the API answers.
// The Contact and create-lead schemas, the contact filter, CSV export and import, webhook payloads and
// their samples, template variables, enrichment and the bulk INSERTs all derive from it. A plain text
// column is one line here (after its migration and the line in leads.tables.ts); lead-catalog.test.ts
// fails when a column of the table is neither here nor in SERVER_ONLY_COLUMNS.
import { Type } from 'typebox';
import {
  DateTime,
  EmailText,
  LN_ID_PATTERN,
  MAX_ID,
  Nullable,
  SN_ID_PATTERN,
  TimeZone,
  Uuid,
  Website,
} from '../../http/schemas.js';
import { type CatalogField, defineCatalog, storedFields } from '../../lib/field-catalog.js';
import { caseInsensitiveField } from '../../lib/filter.js';
import { parseLinkedInPerson } from '../../lib/linkedin.js';
import {
  count,
  dateOrNull,
  enumOf,
  enumOrNull,
  flag,
  fromProfileOnly,
  int,
  notInPayloads,
  objects,
  str,
  text,
  textInput,
  texts,
  uuid,
} from './lead-catalog.kinds.js';
import {
  EMAIL_STATUSES,
  type IdentifierField,
  LEAD_STATUSES,
  LINKEDIN_STATUSES,
  profileUrl,
  salesNavigatorUrl,
} from './lead-catalog.values.js';

export {
  EMAIL_STATUSES,
  IDENTIFYING_INPUTS,
  type IdentifierField,
  LEAD_STATUSES,
  LINKEDIN_STATUSES,
  NAME_INPUTS,
} from './lead-catalog.values.js';

/** Columns of `leads` that are no field of the record (lead-catalog.test.ts checks the two add up). */
export const SERVER_ONLY_COLUMNS = ['search_text'] as const;

const lower = (value: string) => value.trim().toLowerCase();
const email = (description: string) => Type.Optional(Nullable(EmailText({ description })));
const SAMPLE_UUID = '0190d4c2-7b1e-7c3a-9f00-00000000000';

export const LEAD_CATALOG: readonly CatalogField[] = defineCatalog('l', {
  uuid: { ...uuid(''), schema: Uuid('Contact identifier'), sample: `${SAMPLE_UUID}1` },
  team_id: {
    owner: 'server',
    sql: 'bigint',
    schema: Type.Integer({ description: 'Team (workspace) the contact belongs to' }),
    webhook: false,
    export: false,
  },
  user_id: {
    owner: 'server',
    sql: 'bigint',
    schema: int('User who created the contact, when known'),
    filter: { type: 'integer' },
    webhook: false,
    export: false,
  },
  sender_profile_uuid: { ...uuid('Owning sender profile'), webhook: false, export: false },
  list_uuid: {
    ...uuid(''),
    schema: Uuid('The list the contact belongs to (exactly one)'),
    sample: `${SAMPLE_UUID}3`,
  },
  data_source_uuid: {
    ...uuid('Data source (LinkedIn import job) the contact came from'),
    webhook: false,
    export: false,
  },
  pipeline_stage_uuid: {
    ...uuid(''),
    schema: Uuid('Pipeline stage of the contact'),
    sample: `${SAMPLE_UUID}4`,
  },
  company_uuid: {
    ...uuid(
      'Company of the team the contact is linked to (by company name, work e-mail domain or given domain)',
    ),
    sample: `${SAMPLE_UUID}2`,
  },
  linkedin_id: {
    owner: 'input',
    input: textInput(
      'Any LinkedIn reference: profile URL (any subdomain, with or without www., query or trailing slash), ' +
        'Sales Navigator lead URL, nickname, numeric member id, ACoAA... or ACwAA... id. Parsed into ' +
        'ln_member_id, ln_id, sn_id or linkedin.',
    ),
    import: { kind: 'text' },
  },
  name: text('Full name; first + last name when not given', {
    in: 'Full name (default: first_name + last_name)',
    filter: caseInsensitiveField('l.name', 'Full name, case-insensitive'),
    aliases: ['full_name'],
    template: ['Full name', 'Jane Smith'],
    sample: 'Jane Smith',
    profile: true,
  }),
  first_name: text('First name', { template: ['First name', 'Jane'], sample: 'Jane', profile: true }),
  last_name: text('Last name', { template: ['Last name', 'Smith'], sample: 'Smith', profile: true }),
  company_name: text('Employer name', {
    filter: caseInsensitiveField('l.company_name', 'Company name, case-insensitive'),
    aliases: ['company'],
    template: ['Company name (the contact\u2019s, else its linked company\u2019s)', 'Acme'],
    sample: 'Acme Inc',
    profile: true,
  }),
  company_ln_id: text('LinkedIn id of the employer', { webhook: false, profile: true }),
  position: text('Job title', {
    aliases: ['job_title'],
    template: ['Job title', 'CTO'],
    sample: 'Head of Sales',
    profile: true,
  }),
  headline: text('LinkedIn headline', {
    template: ['LinkedIn headline', 'CTO at Acme | Cloud'],
    sample: 'Helping teams sell better',
    profile: true,
  }),
  about: text('LinkedIn "about" text', {
    in: 'About text',
    maxLength: 20_000,
    template: ['LinkedIn "about" text', 'Building things.'],
    profile: true,
  }),
  avatar_url: text('Profile picture URL', { aliases: ['avatar'], profile: true }),
  avatar: { owner: 'input', input: textInput('Alias of avatar_url') },
  ln_member_id: {
    owner: 'client',
    sql: 'bigint',
    schema: int('Numeric LinkedIn member id (deduplication key 1)'),
    input: Type.Optional(
      Nullable(
        Type.Union(
          [Type.Integer({ minimum: 1, maximum: MAX_ID }), Type.String({ pattern: '^0*[1-9]\\d{0,14}$' })],
          { description: 'Numeric LinkedIn member id' },
        ),
      ),
    ),
    read: 'special',
    filter: { type: 'integer' },
    import: { kind: 'text' },
    identifier: true,
    profile: true,
  },
  ln_id: text('LinkedIn profile id, "ACoAA..." (deduplication key 2)', {
    input: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          pattern: LN_ID_PATTERN,
          description: 'LinkedIn profile id "ACoAA..." (or a URL / URN holding it)',
        }),
      ),
    ),
    read: 'special',
    identifier: true,
    profile: true,
    sample: 'ACoAAB6GuQ4BexampleId',
  }),
  sn_id: text('Sales Navigator id, "ACwAA..." (deduplication key 3)', {
    input: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          pattern: SN_ID_PATTERN,
          description: 'Sales Navigator id "ACwAA..." (or a Sales Navigator URL)',
        }),
      ),
    ),
    read: 'special',
    aliases: ['sales_navigator_url'],
    identifier: true,
    profile: true,
  }),
  linkedin: text('LinkedIn public nickname, lower case (deduplication key 4)', {
    in: 'LinkedIn nickname or profile URL',
    read: 'special',
    filter: {
      type: 'string',
      column: 'l.linkedin',
      description: 'LinkedIn nickname (a profile URL is accepted too)',
      normalize: (value) => parseLinkedInPerson(value)?.linkedin ?? lower(value),
    },
    aliases: ['linkedin_url'],
    template: ['LinkedIn nickname', 'jane-smith'],
    identifier: true,
    profile: true,
    sample: 'jane-smith-12345',
  }),
  linkedin_url: {
    owner: 'computed',
    schema: str('Profile URL built from the nickname'),
    expression: profileUrl,
    template: ['LinkedIn profile URL', 'https://www.linkedin.com/in/jane-smith'],
    sample: 'https://www.linkedin.com/in/jane-smith-12345',
  },
  sales_navigator_url: {
    owner: 'computed',
    schema: str('Sales Navigator lead URL built from sn_id'),
    expression: salesNavigatorUrl,
    template: ['Sales Navigator URL', 'https://www.linkedin.com/sales/lead/ACwAA...'],
  },
  facebook: text('Facebook profile', { webhook: false, template: ['Facebook handle or URL', 'jane.smith'] }),
  twitter: text('Twitter/X handle', { webhook: false, template: ['Twitter/X handle or URL', 'janesmith'] }),
  email: {
    owner: 'input',
    input: email(
      'E-mail; stored as work_email, or as personal_email when work_email is given too (422 when both are)',
    ),
    import: { kind: 'text' },
  },
  work_email: text('Work e-mail, lower case (deduplication key 5)', {
    input: email('Work e-mail'),
    read: 'special',
    filter: { type: 'string', normalize: lower },
    template: ['Work e-mail', 'jane@acme.com'],
    identifier: true,
    sample: 'jane.smith@acme.example',
  }),
  personal_email: text('Personal e-mail, lower case (deduplication key 6)', {
    input: email('Personal e-mail'),
    read: 'special',
    filter: { type: 'string', normalize: lower },
    template: ['Personal e-mail', 'jane@gmail.com'],
    identifier: true,
  }),
  domain: {
    owner: 'input',
    input: Type.Optional(
      Nullable(
        Website({
          description:
            'Company domain (or website): links the contact to the team\u2019s company with that domain',
        }),
      ),
    ),
    import: { kind: 'text' },
  },
  work_phone_number: text('Work phone', {
    aliases: ['phone'],
    template: ['Work phone', '+49 30 1234567'],
  }),
  personal_phone_number: text('Personal phone', { template: ['Personal phone', '+49 171 1234567'] }),
  connections_number: count('LinkedIn connections', { profile: true, sample: 500 }),
  followers_number: count('LinkedIn followers', { profile: true, sample: 1200 }),
  primary_language: text('Primary language code, e.g. "en"', {
    in: 'Primary language code',
    webhook: false,
    template: ['Primary language', 'German'],
    profile: true,
  }),
  supported_languages: texts(
    'Language codes',
    { maxLength: 50, maxItems: 100 },
    { webhook: false, profile: true },
  ),
  has_open_profile: flag('1 when the LinkedIn profile is open, 0 when not', {
    in: '1 (or true) when the LinkedIn profile is open, 0 when not',
    ...fromProfileOnly(),
  }),
  has_verified_profile: flag('1 when the LinkedIn profile is verified', {
    in: '1 (or true) when the LinkedIn profile is verified',
    ...fromProfileOnly(),
  }),
  has_premium: flag('1 when the member has LinkedIn Premium', {
    in: '1 (or true) when the member has LinkedIn Premium',
    ...fromProfileOnly(),
  }),
  experience: objects('[{title, company, start_date, end_date}]', 200, fromProfileOnly()),
  posts: objects('[{content, date}]', 200, fromProfileOnly()),
  educations: objects('[{school, degree, field_of_study, start_year, end_year}]', 200, fromProfileOnly()),
  skills: texts(
    'Skills',
    { maxLength: 200, maxItems: 500 },
    {
      webhook: false,
      template: ['Skills (a list: use `join`, `first` or a `for` loop)', 'Go, Kubernetes'],
      profile: true,
    },
  ),
  raw_address: text('Free-text location', {
    aliases: ['location'],
    template: ['Location as written on the profile', 'Berlin, Germany'],
    profile: true,
    sample: 'Berlin, Germany',
  }),
  location: objects('Structured location, [{address_string}]', 20, { export: false, profile: true }),
  tags: {
    owner: 'server',
    sql: 'uuid[]',
    schema: Type.Array(Type.String({ format: 'uuid' }), { description: 'Tag UUIDs' }),
    input: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
        maxItems: 100,
        description: 'Tag names (created when missing) or tag UUIDs',
      }),
    ),
    import: { kind: 'tags' },
    sample: ['Hot Lead'],
  },
  custom_fields: {
    owner: 'server',
    sql: 'jsonb',
    schema: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Custom field values keyed by custom field name (fields without a value are left out)',
    }),
    // Exports add one column per custom field instead.
    export: false,
    sample: { Industry_Vertical: 'SaaS' },
  },
  status: {
    owner: 'server',
    sql: 'text',
    schema: enumOf(LEAD_STATUSES, 'Record status'),
    filter: { type: 'enum', values: LEAD_STATUSES },
    sample: 'ok',
  },
  linkedin_status: {
    owner: 'client',
    sql: 'text',
    schema: enumOf(LINKEDIN_STATUSES, 'LinkedIn data status'),
    input: Type.Optional(enumOf(LINKEDIN_STATUSES, 'LinkedIn data status')),
    read: 'value',
    filter: { type: 'enum', values: LINKEDIN_STATUSES },
    import: { kind: 'enum', values: LINKEDIN_STATUSES },
    sample: 'ok',
  },
  email_status: {
    owner: 'client',
    sql: 'text',
    schema: enumOrNull(EMAIL_STATUSES, 'E-mail status'),
    input: Type.Optional(Nullable(enumOf(EMAIL_STATUSES, 'E-mail status'))),
    read: 'value',
    filter: { type: 'enum', values: EMAIL_STATUSES },
    import: { kind: 'enum', values: EMAIL_STATUSES },
    sample: 'ok',
  },
  /** IANA zone (checked in leads.input.ts): flows with use_lead_timezone plan this contact's steps in it. */
  timezone: text('IANA time zone of the contact (automations with use_lead_timezone plan its steps in it)', {
    input: Type.Optional(
      Nullable(
        TimeZone({
          description:
            'IANA time zone of the contact, e.g. "Europe/Berlin"; flows with use_lead_timezone plan its steps in it',
        }),
      ),
    ),
    ...notInPayloads(),
  }),
  is_blacklisted: {
    owner: 'server',
    sql: 'boolean',
    schema: Type.Boolean({
      description: 'A blacklist entry matches the contact; mass actions and automations skip it',
    }),
    filter: { type: 'boolean' },
    ...notInPayloads(),
  },
  last_automation_approve_at: {
    owner: 'server',
    sql: 'timestamptz',
    schema: dateOrNull('Last time an automation step was approved'),
    filter: { type: 'datetime' },
    ...notInPayloads(),
  },
  created_at: { owner: 'server', sql: 'timestamptz', schema: DateTime(), filter: { type: 'datetime' } },
  updated_at: { owner: 'server', sql: 'timestamptz', schema: DateTime(), filter: { type: 'datetime' } },
});

/** Columns of the contact table that are fields of the record. */
export const LEAD_COLUMNS = storedFields(LEAD_CATALOG);

/** LinkedIn identifiers and e-mails: the deduplication keys, in their order, normalised before stored. */
export const IDENTIFIER_FIELDS = LEAD_CATALOG.filter((field) => field.identifier).map(
  (field) => field.key,
) as readonly IdentifierField[];
