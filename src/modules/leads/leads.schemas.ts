import { type TOptional, type TSchema, type TUnknown, Type } from 'typebox';
import {
  atLeastOne,
  EmailText,
  Envelope,
  Nullable,
  SearchBody,
  together,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { inWireOrder } from '../../lib/field-catalog.js';
import { LeadMarkers } from '../activities/markers.schemas.js';
import { IDENTIFYING_INPUTS, LEAD_CATALOG, NAME_INPUTS } from '../record-fields/lead-catalog.js';
import { textInput } from '../record-fields/lead-catalog.kinds.js';
import { LEAD_FILTER_KEYS } from './leads.filter.js';
import { CONTACT_NEEDS } from './leads.input.js';
import { leadSort } from './leads.query.js';
import type { LeadsTable } from './leads.tables.js';

/**
 * Properties of the catalog's fields that have a schema, in the given order. Typed loosely: the field
 * set comes from the catalog, and services read the normalised input, not these types.
 */
function propertiesOf<K extends string, T extends TSchema>(
  fields: ReadonlyArray<readonly [string, TSchema | undefined]>,
) {
  return Object.fromEntries(fields.filter((entry) => entry[1] !== undefined)) as Record<K, T>;
}

type RecordKey = Exclude<keyof LeadsTable, 'search_text'> | 'linkedin_url' | 'sales_navigator_url';
type InputKey = keyof LeadsTable | 'linkedin_id' | 'avatar' | 'email' | 'domain';

export const Lead = Type.Object(
  propertiesOf<RecordKey, TUnknown>(LEAD_CATALOG.map((field) => [field.key, field.schema])),
  { title: 'Contact' },
);

// ---- input ----

const text = (description: string) => textInput(description);
const email = (description: string) => Type.Optional(Nullable(EmailText({ description })));

/**
 * Key order of the create-lead fields in request schemas (the OpenAPI document shows it); fields added
 * since go at the `*`.
 */
const INPUT_ORDER = `linkedin_id name first_name last_name company_name company_ln_id position headline about
  avatar_url avatar ln_member_id ln_id sn_id linkedin facebook twitter email work_email personal_email domain
  work_phone_number personal_phone_number connections_number followers_number primary_language
  supported_languages has_open_profile has_verified_profile has_premium experience posts educations skills
  raw_address timezone location linkedin_status email_status * tags`;

/** Create-lead fields shared by create, upsert and update. */
const standardFields = propertiesOf<InputKey, TOptional<TUnknown>>(
  inWireOrder(
    INPUT_ORDER,
    LEAD_CATALOG.filter((field) => field.input).map((field) => [field.key, field.input] as const),
  ),
);

const customFieldsInput = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Custom field values keyed by custom field name or UUID; null clears a value',
});

export const LeadInput = Type.Object(
  { ...standardFields, custom_fields: Type.Optional(customFieldsInput) },
  {
    additionalProperties: false,
    ...atLeastOne([...NAME_INPUTS, ...IDENTIFYING_INPUTS].map((key) => [key])),
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
