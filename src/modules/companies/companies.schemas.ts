import { type TSchema, Type } from 'typebox';
import {
  anyPresent,
  atLeastOne,
  DateTime,
  Envelope,
  INT32_MAX,
  ListQuery,
  MAX_ID,
  Nullable,
  SearchBody,
  Selection,
  TypedBody,
  Uuid,
  Website,
  withExample,
} from '../../http/schemas.js';
import { BulkOperation } from '../bulk-operations/bulk-operations.schemas.js';
import { Lead } from '../leads/leads.schemas.js';
import { COMPANY_LINKEDIN_STATUSES, COMPANY_STATUSES, NETWORK_TYPES } from './companies.fields.js';
import { COMPANY_FILTER_KEYS, companySort } from './companies.filter.js';

const text = (description: string) => Nullable(Type.String({ description }));
const website = (description: string) => Nullable(Website({ description }));
const integer = (description: string) => Nullable(Type.Integer({ description }));
const count = (description: string) =>
  Nullable(Type.Integer({ minimum: 0, maximum: INT32_MAX, description }));
const texts = (description: string) => Nullable(Type.Array(Type.String(), { description }));
const Location = Type.Record(Type.String(), Type.Unknown(), {
  description: 'address_string, city, region, country, zip, timezone',
});

export const Company = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer(),
  user_id: integer('User who created the company'),
  data_source_uuid: Nullable(Uuid('Data source it was imported from')),
  lead_status_uuid: Nullable(Uuid('Pipeline stage UUID (same value as pipeline_stage_uuid)')),
  pipeline_stage_uuid: Nullable(Uuid('Pipeline stage UUID')),
  name: text('Company name'),
  domain: text('Website domain, normalised ("acme.com"); unique per team'),
  website: text('Website URL as given'),
  ln_id: integer('Numeric LinkedIn company id; unique per team'),
  linkedin: text('LinkedIn page slug ("acme-inc"); unique per team'),
  linkedin_url: text('LinkedIn page URL built from the slug (or the numeric id)'),
  facebook: text('Facebook page'),
  twitter: text('Twitter / X handle or URL'),
  phone: text('Phone number'),
  hq_raw_address: text('Headquarters address as free text'),
  hq_location: Nullable(Type.Array(Location, { description: 'Structured headquarters locations' })),
  logo_url: text('Logo image URL'),
  industry: text('Industry ("Technology")'),
  employees_range: text('Head-count range ("51-200")'),
  employees_on_linkedin: integer('Employees listed on LinkedIn'),
  followers: integer('LinkedIn followers'),
  year_established: integer('Year founded'),
  about: text('Description'),
  tagline: text('LinkedIn tagline'),
  hashtags: texts('LinkedIn hashtags'),
  specialities: texts('LinkedIn specialities'),
  network_type: text(`IP network type: ${NETWORK_TYPES.join(', ')}`),
  deal_size: Nullable(Type.Number({ description: 'Expected deal size' })),
  lists: Type.Array(Uuid(), { description: 'UUIDs of the lists the company is in' }),
  tags: Type.Array(Uuid(), { description: 'Tag UUIDs' }),
  custom_fields: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Custom field values keyed by custom field name (fields without a value are left out)',
  }),
  status: Type.String({ description: `Record quality: ${COMPANY_STATUSES.join(', ')}` }),
  linkedin_status: Type.String({
    description: `LinkedIn enrichment state: ${COMPANY_LINKEDIN_STATUSES.join(', ')}`,
  }),
  is_blacklisted: Type.Boolean({ description: 'Matches an entry of the companies blacklist' }),
  last_enrich_at: Nullable(DateTime('Last LinkedIn enrichment')),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const CompanyPage = Envelope(Company);
export const CompaniesQuery = ListQuery(companySort, COMPANY_FILTER_KEYS);
export const CompaniesSearchBody = SearchBody(companySort, COMPANY_FILTER_KEYS);

const linkedinInput = Nullable(
  Type.Union([Type.String({ format: 'linkedin-company' }), Type.Integer({ minimum: 1, maximum: MAX_ID })], {
    description: 'LinkedIn company page URL, Sales Navigator company URL, page slug or numeric id',
  }),
);
const lnIdInput = Nullable(
  Type.Union(
    [Type.Integer({ minimum: 1, maximum: MAX_ID }), Type.String({ pattern: '^\\s*0*[1-9]\\d{0,14}\\s*$' })],
    {
      description: 'Numeric LinkedIn company id',
    },
  ),
);
const tagsInput = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
  maxItems: 100,
  description: 'Tag UUIDs or tag names (missing names are created)',
});
const stageInput = Uuid('Pipeline stage (a company stage of your team)');

/** Writable fields shared by create and update (null clears on update). */
const writable = {
  name: Type.Optional(text('Company name')),
  domain: Type.Optional(website('Website domain or URL; stored as the bare domain')),
  website: Type.Optional(text('Website URL; when no domain is given, the domain is taken from it')),
  linkedin: Type.Optional(linkedinInput),
  ln_id: Type.Optional(lnIdInput),
  facebook: Type.Optional(text('Facebook page')),
  twitter: Type.Optional(text('Twitter / X')),
  phone: Type.Optional(text('Phone number')),
  hq_raw_address: Type.Optional(text('Headquarters address')),
  hq_location: Type.Optional(
    Nullable(
      Type.Union([Type.Array(Location, { maxItems: 50 }), Location], {
        description: 'Structured location(s); a single object is stored as a one-element array',
      }),
    ),
  ),
  logo_url: Type.Optional(text('Logo URL')),
  industry: Type.Optional(text('Industry')),
  employees_range: Type.Optional(text('Head-count range')),
  employees_on_linkedin: Type.Optional(count('Employees on LinkedIn')),
  followers: Type.Optional(count('LinkedIn followers')),
  year_established: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 9999, description: 'Year founded' })),
  ),
  about: Type.Optional(text('Description')),
  tagline: Type.Optional(text('Tagline')),
  hashtags: Type.Optional(texts('Hashtags')),
  specialities: Type.Optional(texts('Specialities')),
  network_type: Type.Optional(Nullable(Type.Enum([...NETWORK_TYPES]))),
  deal_size: Type.Optional(Nullable(Type.Number({ description: 'Expected deal size' }))),
  tags: Type.Optional(tagsInput),
  pipeline_stage_uuid: Type.Optional(stageInput),
  lead_status_uuid: Type.Optional(Uuid('Alias of pipeline_stage_uuid')),
};

export const CompanyInput = Type.Object(
  {
    ...writable,
    custom_fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Custom field values keyed by custom field name or UUID (null clears)',
      }),
    ),
  },
  {
    additionalProperties: false,
    ...atLeastOne([['name'], ['domain'], ['website'], ['linkedin'], ['ln_id']], undefined, {
      // A website identifies the company through its domain (it is stored as given otherwise).
      website: { format: 'website' },
    }),
  },
);

export const CreateCompaniesBody = Type.Object(
  {
    companies: Type.Array(CompanyInput, {
      minItems: 1,
      maxItems: 1000,
      description:
        'Companies to create (at least one of name, domain, website, linkedin, ln_id each). A company that ' +
        'matches an existing one (LinkedIn id, then LinkedIn slug, then domain, then name) updates it instead',
    }),
    list_uuids: Type.Optional(
      Type.Array(Uuid(), { maxItems: 100, description: 'Lists (of your team) to add the companies to' }),
    ),
    data_source_uuid: Type.Optional(Nullable(Uuid('Data source the companies come from'))),
  },
  { additionalProperties: false },
);

export const CreateCompaniesResponse = Type.Array(Company, {
  description: 'One company per input element, in input order (merged duplicates repeat the same company)',
});

export const UpdateCompanyBody = Type.Object(
  {
    ...writable,
    status: Type.Optional(Type.Enum([...COMPANY_STATUSES])),
    linkedin_status: Type.Optional(Type.Enum([...COMPANY_LINKEDIN_STATUSES])),
    data_source_uuid: Type.Optional(Nullable(Uuid())),
    lists: Type.Optional(
      Type.Array(Uuid(), { maxItems: 100, description: 'Replaces the company\u2019s lists' }),
    ),
    custom_fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Custom field values keyed by custom field name or UUID, merged into the company\u2019s (null clears one)',
      }),
    ),
  },
  { additionalProperties: false },
);

const LookupCriterion = Type.Object(
  {
    ln_id: Type.Optional(lnIdInput),
    linkedin: Type.Optional(linkedinInput),
    website: Type.Optional(website('Website URL; its domain is compared')),
    domain: Type.Optional(website('Domain (a URL is reduced to its domain)')),
    name: Type.Optional(text('Exact name, case-insensitive (the least precise criterion)')),
  },
  {
    additionalProperties: false,
    ...atLeastOne([['ln_id'], ['linkedin'], ['website'], ['domain'], ['name']]),
  },
);

export const LookupBody = Type.Object(
  {
    lookups: Type.Optional(Type.Array(LookupCriterion, { maxItems: 1000 })),
    companies: Type.Optional(
      Type.Array(LookupCriterion, { maxItems: 1000, description: 'Alias of lookups' }),
    ),
    disable_aggregation: Type.Optional(
      Type.Boolean({ description: 'Accepted for compatibility; no effect' }),
    ),
  },
  {
    additionalProperties: false,
    ...anyPresent(
      ['lookups', 'companies'],
      'is required: an array of {ln_id, linkedin, website, domain, name} (or its alias companies)',
    ),
  },
);

export const LookupResponse = Type.Array(Nullable(Company), {
  description:
    'Per criterion, in order: the matching company or null. Identifiers are tried from the most ' +
    'precise: ln_id, linkedin, domain (from website), name',
});

export const CompanyUuidsBody = Type.Object(
  { uuids: Type.Array(Uuid(), { minItems: 1, maxItems: 1000, description: 'Company UUIDs' }) },
  { additionalProperties: false },
);

export const CompanyContactsResponse = Type.Record(Type.String({ format: 'uuid' }), Type.Array(Lead), {
  description:
    'Contacts per company UUID, shaped as the contacts API returns them (at most 1000 each, oldest first); ' +
    'unknown or other teams\u2019 companies are left out',
});

export const COMPANY_MASS_ACTIONS = [
  'company_add_tags',
  'company_remove_tags',
  'company_replace_tags',
  'company_change_pipeline_stage',
  'company_delete',
] as const;
export type CompanyMassAction = (typeof COMPANY_MASS_ACTIONS)[number];

/** Which companies: at least one of ids, all: true or a company filter key. */
export const CompanySelection = Selection('companies', COMPANY_FILTER_KEYS);

const tagsPayload = (description: string, needs: object) =>
  Type.Unsafe<MassActionPayloadInput>({
    ...Type.Object(
      {
        tag_uuid: Type.Optional(Uuid('One tag of your team')),
        tag_uuids: Type.Optional(Type.Array(Uuid(), { maxItems: 100, description: 'Tags of your team' })),
      },
      { additionalProperties: false, description },
    ),
    ...needs,
  });
type MassActionPayloadInput = { tag_uuid?: string; tag_uuids?: string[]; pipeline_stage_uuid?: string };
/** At least one tag: tag_uuid, or a non-empty tag_uuids. */
const someTag = {
  anyOf: [
    { required: ['tag_uuid'] },
    { required: ['tag_uuids'], properties: { tag_uuids: { minItems: 1 } } },
  ],
  'x-message': 'needs tag_uuid or a non-empty tag_uuids',
};

export const MassActionBody = TypedBody<{
  type: CompanyMassAction;
  payload?: MassActionPayloadInput | null;
  filter: Record<string, unknown>;
}>(
  Object.fromEntries(
    Object.entries({
      company_add_tags: tagsPayload('Tags to add', someTag),
      company_remove_tags: tagsPayload('Tags to remove', someTag),
      company_replace_tags: tagsPayload('The tags the companies end up with (an empty list removes all)', {
        minProperties: 1,
      }),
      company_change_pipeline_stage: Type.Object(
        { pipeline_stage_uuid: Uuid('Target stage (a company stage of your team)') },
        { additionalProperties: false },
      ),
      company_delete: Type.Optional(
        Nullable(Type.Object({}, { additionalProperties: false, description: 'Nothing' })),
      ),
    } satisfies Record<CompanyMassAction, TSchema>).map(([type, payload]) => [
      type,
      { payload, filter: CompanySelection },
    ]),
  ),
  { description: 'A mass action over the selected companies (blacklisted ones are skipped)' },
);

export const MassActionResponse = Type.Object({
  affected: Nullable(
    Type.Integer({
      description: 'Companies the action changed (or deleted); null when it was queued as a bulk operation',
    }),
  ),
  operation: Nullable(BulkOperation),
});

withExample(CreateCompaniesBody, {
  companies: [
    { name: 'Acme Inc', website: 'https://acme.example', industry: 'Software', tags: ['Enterprise'] },
  ],
  list_uuids: ['0190f000-0000-7000-8000-000000000001'],
});
withExample(UpdateCompanyBody, { industry: 'Robotics', employees_range: '51-200' });
withExample(LookupBody, { lookups: [{ domain: 'acme.example' }, { linkedin: 'acme-inc' }] });
withExample(CompanyUuidsBody, { uuids: ['0190f000-0000-7000-8000-000000000001'] });
withExample(MassActionBody, {
  type: 'company_add_tags',
  payload: { tag_uuids: ['0190f000-0000-7000-8000-000000000002'] },
  filter: { ids: ['0190f000-0000-7000-8000-000000000001'] },
});
