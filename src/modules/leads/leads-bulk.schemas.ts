import { type TSchema, Type } from 'typebox';
import { DateOrDateTime, Nullable, Selection, TypedBody, Uuid, withExample } from '../../http/schemas.js';
import { BulkOperation } from '../bulk-operations/bulk-operations.schemas.js';
import { LEAD_FILTER_KEYS } from './leads.filter.js';
import type { MassActionType } from './leads.mass-actions.js';
import type { Actor } from './leads.write.js';

const selectionDescription =
  'Which contacts: {"ids": [...]}, {"all": true} (optionally with "excludeIds": [...]), and/or contact ' +
  `filter keys (${LEAD_FILTER_KEYS.join(', ')}), combined with AND. {"all": true, "leadFilter": {...}} ` +
  'is accepted too. At least one of ids, all: true or a filter key is required.';

export const CountLeadsBody = Type.Object(
  {
    all: Type.Optional(
      Type.Boolean({ description: 'Count every contact of the team (ids are then ignored)' }),
    ),
    ids: Type.Optional(Type.Array(Uuid(), { maxItems: 100_000, description: 'Count these contacts' })),
    filter: Type.Optional(
      Type.Union([Selection('contacts', LEAD_FILTER_KEYS, ['leadFilter']), Type.Null()], {
        description: selectionDescription,
      }),
    ),
  },
  {
    additionalProperties: false,
    anyOf: [
      { required: ['all'], properties: { all: { const: true } } },
      { required: ['ids'] },
      { required: ['filter'], properties: { filter: { not: { type: 'null' } } } },
    ],
    'x-message':
      'is required (ids, all: true or contact filter keys such as list_uuid or tags), unless all: true or ids is given',
    'x-fields': ['filter'],
  },
);

export const LeadCount = Type.Object({
  total: Type.Integer({ description: 'Contacts matching' }),
  count: Type.Integer({ description: 'Same as total (GetSales clients read count)' }),
});

export const ACTIVITY_METRICS = [
  'linkedin_connection_request_sent_count',
  'linkedin_connection_request_accepted_count',
  'linkedin_sent_count',
  'linkedin_opened_count',
  'linkedin_inbox_count',
  'linkedin_inmail_sent_count',
  'linkedin_inmail_replied_count',
  'linkedin_positive_count',
  'email_sent_count',
  'email_opened_count',
  'email_clicked_count',
  'email_bounced_count',
  'email_unsubscribed_count',
  'email_inbox_count',
  'email_positive_count',
] as const;
export const METRICS = ['leads_count', 'new_leads_count', ...ACTIVITY_METRICS] as const;

const GROUP_BY = [
  'sender_profiles',
  'flows',
  'lists',
  'tags',
  'pipeline_stages',
  'workflows',
  'date',
] as const;

export const LeadMetricsBody = Type.Object(
  {
    period_from: Type.Optional(
      DateOrDateTime('Start of the period (ISO 8601 date or date-time); left out: no start (all time)'),
    ),
    period_to: Type.Optional(
      DateOrDateTime('End of the period (a bare date includes the whole day); left out: no end'),
    ),
    metrics: Type.Array(Type.Union(METRICS.map((metric) => Type.Literal(metric))), {
      minItems: 1,
      description:
        'Metrics to compute. leads_count: contacts matching the filter; new_leads_count: of those, the ones ' +
        'created within the period. The activity metrics (LinkedIn and e-mail sends, replies, opens...) are ' +
        'accepted and answer 0: this release records no messaging activity yet.',
    }),
    flows: Type.Optional(
      Type.Array(Uuid(), {
        description: 'Automations to count activity of ([] = all); no effect on contact metrics',
      }),
    ),
    filter: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.Unknown(), {
          description: 'Contact filter (search keys); unlike the hosted service it restricts the counts',
        }),
      ),
    ),
    group_by: Type.Optional(
      Type.Union(
        GROUP_BY.map((value) => Type.Literal(value)),
        { description: 'Accepted for compatibility; totals are not split yet' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const LeadMetrics = Type.Object({
  total: Type.Record(Type.String(), Type.Integer(), { description: 'Requested metric → value' }),
});

/** The selection of a mass action or an export of contacts: at least one of ids, all: true or a filter key. */
export const ContactSelection = Selection('contacts', LEAD_FILTER_KEYS, ['leadFilter']);

const closed = (properties: Parameters<typeof Type.Object>[0], description: string) =>
  Type.Object(properties, { additionalProperties: false, description });

const tagsPayload = (what: string) =>
  closed(
    {
      tag_uuid: Type.Optional(Uuid('One tag of your team')),
      tag_uuids: Type.Optional(
        Type.Array(Uuid(), { maxItems: 1000, description: 'Tags of your team (used when both are given)' }),
      ),
    },
    `${what}: tag_uuid or tag_uuids`,
  );
const requiredTags = (what: string) => ({ ...tagsPayload(what), minProperties: 1 });

/** Each mass action type with its payload (`payload` optional where the action needs nothing). */
const MASS_ACTION_PAYLOADS = {
  contact_add_tags: { payload: requiredTags('Tags to add') },
  contact_remove_tags: { payload: requiredTags('Tags to remove') },
  contact_replace_tags: { payload: requiredTags('The tags the contacts end up with') },
  contact_change_list: {
    payload: closed({ list_uuid: Uuid('List to move the contacts to') }, 'The target list'),
  },
  contact_change_pipeline_stage: {
    payload: closed(
      { pipeline_stage_uuid: Uuid('Contact pipeline stage to move the contacts to') },
      'The target stage',
    ),
  },
  contact_change_custom_field: {
    payload: closed(
      {
        custom_field_uuid: Uuid('A contact custom field of your team'),
        value: Type.Unknown({
          description: 'The value, checked against the field\u2019s type; null clears it',
        }),
      },
      'The field and its new value',
    ),
  },
  contact_delete: {
    payload: Type.Optional(Nullable(closed({}, 'Nothing: contact_delete takes no payload'))),
  },
  contact_add_to_flow: {
    payload: closed(
      {
        flow_uuid: Uuid('The flow to enrol the contacts in (affected = contacts enrolled)'),
        contact_source_id: Type.Optional(
          Nullable(
            Type.Union(
              [Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.String({ pattern: '^\\d{1,9}$' })],
              { description: 'Contact source of the flow (default 1)' },
            ),
          ),
        ),
      },
      'The flow',
    ),
  },
  contact_cancel_from_flows: {
    payload: Type.Optional(
      Nullable(
        closed(
          {
            flow_uuids: Type.Optional(
              Nullable(
                Type.Array(Uuid(), {
                  maxItems: 1000,
                  description: 'Flows to end the enrollments in; null or absent: every flow',
                }),
              ),
            ),
          },
          'Which flows (affected = enrollments ended)',
        ),
      ),
    ),
  },
  contact_mark_read: {
    payload: Type.Optional(
      Nullable(
        closed(
          {},
          'Nothing. Marks what the contacts sent as read: their LinkedIn messages and conversations ' +
            '(unread_count 0) and their e-mails (affected = contacts that had something unread)',
        ),
      ),
    ),
  },
} satisfies Record<MassActionType, { payload: TSchema }>;

/**
 * The contact mass action that answers a record instead of a count: `contact_export_csv`, the CSV export
 * of the selection. The files module gives it (`files/contact-export.ts`, handed over by src/app.ts), so
 * this module imports nothing of files; its payload and record schemas join the route's.
 */
export interface ContactExportAction {
  type: 'contact_export_csv';
  payload: TSchema;
  /** The queued export, answered as `export`. */
  record: TSchema;
  queue(actor: Actor, body: { payload?: unknown; filter: unknown }): Promise<unknown>;
}

/** The body and answer of PUT /leads/api/leads/mass-action: the module's own actions, then the export. */
export function massActionSchemas(exportAction: Pick<ContactExportAction, 'type' | 'payload' | 'record'>) {
  const payloads = { ...MASS_ACTION_PAYLOADS, [exportAction.type]: { payload: exportAction.payload } };
  const body = TypedBody<{ type: string; payload?: unknown; filter: Record<string, unknown> }>(
    Object.fromEntries(
      Object.entries(payloads).map(([type, { payload }]) => [type, { payload, filter: ContactSelection }]),
    ),
    {
      description:
        'A mass action over the selected contacts (blacklisted ones are skipped): `type` decides the payload.',
    },
  );
  const result = Type.Object({
    affected: Nullable(
      Type.Integer({
        description:
          'Contacts changed (blacklisted contacts are skipped, contacts already in the wanted state are not ' +
          'counted). null when the action was queued as a bulk operation.',
      }),
    ),
    operation: Nullable(BulkOperation),
    export: Type.Optional(
      Nullable({
        ...exportAction.record,
        description: 'contact_export_csv: the queued export; poll GET /leads/api/file-exports/{uuid}',
      }),
    ),
  });
  withExample(body, {
    type: 'contact_add_tags',
    payload: { tag_uuids: ['0190f000-0000-7000-8000-000000000002'] },
    filter: { ids: ['0190f000-0000-7000-8000-000000000001'] },
  });
  return { body, result };
}

withExample(CountLeadsBody, { filter: { list_uuid: '0190f000-0000-7000-8000-000000000001' } });
withExample(LeadMetricsBody, {
  period_from: '2026-01-01',
  period_to: '2026-01-31',
  metrics: ['leads_count', 'new_leads_count'] as never[],
});
