import { Type } from 'typebox';
import { DateTime, Envelope, Int32, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { dataSourceFilterFields, dataSourceSort } from './data-sources.repository.js';
import { DATA_SOURCE_STATUSES, DATA_SOURCE_TYPES, URL_LESS_TYPES } from './data-sources.types.js';

const TypeField = Type.Enum([...DATA_SOURCE_TYPES], {
  description:
    'What the source reads: a Sales Navigator search, saved search or list (sn_leads_* people, sn_accounts_* ' +
    'companies), a LinkedIn search (ln_leads_search, ln_accounts_search), the sender\u2019s own network or inbox ' +
    '(ln_my_network, ln_my_messenger), the people engaging with a post (post_engagement), a Recruiter search ' +
    '(recruiter_leads_search), or csv_leads: the record a CSV import names (it does not run)',
});
const StatusField = Type.Enum([...DATA_SOURCE_STATUSES], {
  description:
    'not_started (created, not run), in_progress (paging through the search), on_hold (paused), completed ' +
    '(the search ended), failed (the search cannot be read: see errors), contacts_limit_achieved ' +
    '(payload.contacts_limit records saved)',
});

const URL_KEYS = ['url', 'search_url', 'saved_search_url', 'list_url', 'post_url'];

const url = (description: string) =>
  Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        format: 'uri',
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://\\S+$',
        description: `${description} (an http or https URL)`,
      }),
    ),
  );

export const DataSourcePayload = Type.Object(
  {
    url: url(
      'The search, saved search, list or post URL as copied from LinkedIn; required for every type but ' +
        'ln_my_network, ln_my_messenger and csv_leads',
    ),
    search_url: url('Alias of url (searches)'),
    saved_search_url: url('Alias of url (saved searches)'),
    list_url: url('Alias of url (lead and account lists)'),
    post_url: url('Alias of url (post_engagement)'),
    contacts_limit: Type.Optional(
      Nullable(
        Int32({
          minimum: 1,
          description:
            'Stop after this many records were saved (status contacts_limit_achieved); null: no limit',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Type-specific configuration. At most one of url, search_url, saved_search_url, list_url, post_url.',
    // Two URL keys that are both set are refused (the not/anyOf), so the document says what the service checks.
    not: {
      anyOf: URL_KEYS.flatMap((a, i) =>
        URL_KEYS.slice(i + 1).map((b) => ({
          required: [a, b],
          properties: { [a]: { type: 'string' }, [b]: { type: 'string' } },
        })),
      ),
    },
    'x-message':
      'gives the URL more than once: send one of url, search_url, saved_search_url, list_url, post_url',
  },
);

const StoredPayload = Type.Object(
  {
    url: Nullable(Type.String({ description: 'The search, saved search, list or post URL (null: none)' })),
    contacts_limit: Nullable(Type.Integer({ description: 'Most records saved before the source stops' })),
  },
  { description: 'Type-specific configuration' },
);

export const DataSource = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer({ description: 'Team the source belongs to' }),
  user_id: Nullable(Type.Integer({ description: 'User who created it' })),
  sender_profile_uuid: Nullable(
    Uuid('Sender whose LinkedIn seat runs the search (null: any reading sender of the team)'),
  ),
  list_uuid: Uuid('List the records are saved into'),
  type: TypeField,
  status: StatusField,
  payload: StoredPayload,
  tags: Type.Array(Uuid(), { description: 'Tag UUIDs added to every saved record' }),
  errors: Type.Array(
    Type.Object({
      at: Type.String({ description: 'When it happened (ISO 8601)' }),
      reason: Type.String({
        description: 'Reader failure reason, or row for a record that could not be saved',
      }),
      message: Type.String({ description: 'What went wrong' }),
      page: Type.Optional(Nullable(Type.Integer({ description: 'Search page it happened on' }))),
      row: Type.Optional(Nullable(Type.Integer({ description: 'Position of the result in the search' }))),
    }),
    { description: 'The latest problems (at most 100)' },
  ),
  next_page: Type.Integer({
    description: 'Search page the next read asks for (the cursor a resume starts at)',
  }),
  total_results: Nullable(Type.Integer({ description: 'Results the search says it holds, once read' })),
  started_at: Nullable(DateTime('When it first ran')),
  finished_at: Nullable(DateTime('When it completed, failed or reached its limit')),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const DataSourcePage = Envelope(DataSource);
export const DataSourcesQuery = ListQuery(dataSourceSort, Object.keys(dataSourceFilterFields));

const senderField = Type.Optional(
  Nullable(Uuid('Sender whose LinkedIn seat runs the search (null: any reading sender of the team)')),
);
const tagsField = Type.Optional(
  Nullable(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      maxItems: 100,
      description: 'Tags added to every saved record: tag UUIDs or names (new names are created)',
    }),
  ),
);

export const CreateDataSourceBody = Type.Object(
  {
    type: TypeField,
    list_uuid: Uuid('List the records are saved into'),
    payload: Type.Optional(Nullable(DataSourcePayload)),
    tags: tagsField,
    sender_profile_uuid: senderField,
    status: Type.Optional(
      Type.Enum(['in_progress', 'not_started'], {
        description: 'in_progress (default): start at once; not_started: create it stopped',
      }),
    ),
  },
  {
    additionalProperties: false,
    // Every search but the sender's own network and inbox needs its URL (the anyOf), as the service checks.
    anyOf: [
      { properties: { type: { enum: [...URL_LESS_TYPES, 'csv_leads'] } } },
      {
        required: ['payload'],
        properties: {
          payload: {
            not: { type: 'null' },
            anyOf: URL_KEYS.map((key) => ({ required: [key], properties: { [key]: { type: 'string' } } })),
          },
        },
      },
    ],
    'x-message': `needs payload.url (the LinkedIn search, saved search, list or post URL) for every type but ${[...URL_LESS_TYPES].join(', ')} and csv_leads`,
    // A csv_leads source never runs, so it cannot be created in_progress (the if/then).
    if: { required: ['type'], properties: { type: { const: 'csv_leads' } } },
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
    then: {
      properties: {
        status: {
          not: { const: 'in_progress' },
          'x-message': 'cannot be in_progress for a csv_leads source: it does not run (CSV imports fill it)',
        },
      },
    },
  },
);

export const UpdateDataSourceBody = Type.Object(
  {
    type: Type.Optional(TypeField),
    list_uuid: Type.Optional(Uuid('List the records are saved into')),
    payload: Type.Optional(Nullable(DataSourcePayload)),
    tags: tagsField,
    sender_profile_uuid: senderField,
    status: Type.Optional(
      Type.Enum(['in_progress', 'on_hold'], {
        description:
          'on_hold pauses a running source; in_progress starts or resumes it where it stopped (a completed ' +
          'source, or one whose search changed, starts again from the first page)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DataSourceMetricsBody = Type.Object(
  { uuids: Type.Array(Uuid(), { minItems: 1, maxItems: 1000, description: 'Data source UUIDs' }) },
  { additionalProperties: false },
);

const count = (description: string) => Type.Integer({ description });
export const DataSourceMetrics = Type.Record(
  Type.String({ format: 'uuid' }),
  Type.Object({
    queued_records: count('Results the search still holds that were not read yet (0 once it stopped)'),
    saved_records: count('New contacts or companies saved into the list'),
    duplicate_records: count('Results that matched a record already stored (left as it was)'),
    blacklisted_records: count('Results that matched the blacklist (not saved)'),
    error_records: count('Results that could not be saved (see errors)'),
    child_queued_records: count('Records queued by child sources (always 0: sources have no children here)'),
    child_saved_records: count('Records saved by child sources (always 0)'),
    child_duplicate_records: count('Duplicates of child sources (always 0)'),
  }),
  { description: 'Counters per data source UUID (unknown UUIDs and other teams\u2019 sources are left out)' },
);

withExample(CreateDataSourceBody, {
  type: 'sn_leads_search',
  list_uuid: '0190f000-0000-7000-8000-000000000001',
  payload: {
    url: 'https://www.linkedin.com/sales/search/people?query=(keywords%3ACTO)',
    contacts_limit: 500,
  },
  tags: ['CTO search'],
  sender_profile_uuid: '0190f000-0000-7000-8000-000000000002',
});
withExample(UpdateDataSourceBody, { status: 'on_hold' });
withExample(DataSourceMetricsBody, { uuids: ['0190f000-0000-7000-8000-000000000003'] });
