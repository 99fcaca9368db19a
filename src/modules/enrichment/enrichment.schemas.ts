import { Type } from 'typebox';
import {
  DateTime,
  Envelope,
  ListQuery,
  Nullable,
  narrowingAlternatives,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { queueSort } from './enrichment.repository.js';

const selectionFields = (what: string, filterDescription: string) => ({
  uuids: Type.Optional(
    Type.Array(Uuid(), {
      maxItems: 100_000,
      description: `${what} to enrich (UUIDs of your team; others are ignored)`,
    }),
  ),
  filter: Type.Optional(
    Nullable(Type.Record(Type.String(), Type.Unknown(), { description: filterDescription })),
  ),
  refresh: Type.Optional(
    Type.Boolean({
      description:
        'Leadflow extension: overwrite fields that already have a value with what LinkedIn shows (default ' +
        'false: only empty fields are filled)',
    }),
  ),
});

/** uuids, or a filter that says which records (the selection's own rule). */
const whichRecords = (extraKeys: string[]) => ({
  anyOf: [
    { required: ['uuids'] },
    {
      required: ['filter'],
      properties: { filter: { not: { type: 'null' }, anyOf: narrowingAlternatives(extraKeys) } },
    },
  ],
  'x-message':
    'or filter is required: say what to enrich (uuids, or a filter with ids, all: true or filter keys)',
  'x-fields': ['uuids'],
});

export const EnrichLeadsBody = Type.Object(
  selectionFields(
    'Contacts',
    'Which contacts: the contact mass-action selection ({"ids": [...]}, {"all": true}, filter keys such ' +
      'as list_uuid or tags). Blacklisted contacts are skipped',
  ),
  { additionalProperties: false, ...whichRecords(['leadFilter']) },
);

export const EnrichCompaniesBody = Type.Object(
  selectionFields(
    'Companies',
    'Which companies: {"ids": [...]}, {"all": true} or company filter keys. Blacklisted companies are skipped',
  ),
  { additionalProperties: false, ...whichRecords([]) },
);

export const EnrichmentQueued = Type.Object({
  count: Type.Integer({ description: 'Records queued for enrichment; one credit was reserved for each' }),
  skipped: Type.Integer({
    description:
      'Selected records not queued: already waiting in the queue, or nothing to read them by (a contact ' +
      'without a LinkedIn reference)',
  }),
  credits_remaining: Type.Integer({ description: "The team's enrichment credits after the reservation" }),
});

export const QueueEntry = Type.Object({
  uuid: Uuid('Queue entry'),
  object: Type.Union([Type.Literal('lead'), Type.Literal('company')], {
    description: 'What is enriched: a contact (lead) or a company',
  }),
  object_uuid: Uuid('The contact or company'),
  status: Type.Union(
    [Type.Literal('pending'), Type.Literal('processing'), Type.Literal('done'), Type.Literal('failed')],
    { description: 'pending (waiting), processing (being read), done (filled), failed (credit refunded)' },
  ),
  error: Nullable(Type.String({ description: 'Why it failed (or why the last attempt did not happen)' })),
  created_at: DateTime('When it was queued'),
  finished_at: Nullable(DateTime('When it was done or failed')),
});

export const QUEUE_FILTER_KEYS = ['status', 'object', 'object_uuid'];

export const QueueQuery = ListQuery(queueSort, QUEUE_FILTER_KEYS);
export const QueuePage = Envelope(QueueEntry);

export const QueueMetrics = Type.Object({
  this_month_count: Type.Integer({
    description: 'Entries queued since the start of the current calendar month (UTC)',
  }),
});

withExample(EnrichLeadsBody, { uuids: ['0190f000-0000-7000-8000-000000000001'] });
withExample(EnrichCompaniesBody, { filter: { industry: 'Software' } });
