import { Type } from 'typebox';
import { Nullable, Uuid, withExample } from '../../http/schemas.js';
import { BulkOperation } from '../bulk-operations/bulk-operations.schemas.js';
import { FileExport } from '../files/exports.schemas.js';
import { LEAD_FILTER_KEYS } from './leads.filter.js';
import { LATER_MASS_ACTION_TYPES, MASS_ACTION_TYPES } from './leads.mass-actions.js';

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
      Nullable(Type.Record(Type.String(), Type.Unknown(), { description: selectionDescription })),
    ),
  },
  { additionalProperties: false },
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
    period_from: Type.String({ description: 'Start of the period (ISO 8601 date or date-time)' }),
    period_to: Type.String({ description: 'End of the period (a bare date includes the whole day)' }),
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

export const MassActionBody = Type.Object(
  {
    type: Type.String({
      description:
        `Action: ${MASS_ACTION_TYPES.join(', ')}, contact_export_csv (queues a CSV export of the selection and ` +
        `answers it as "export"). ${LATER_MASS_ACTION_TYPES.join(', ')} answers 422 until ` +
        'its feature (the inbox) is released.',
    }),
    payload: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.Unknown(), {
          description:
            'contact_add_tags / contact_remove_tags / contact_replace_tags: {tag_uuid} or {tag_uuids}; ' +
            'contact_change_list: {list_uuid}; contact_change_pipeline_stage: {pipeline_stage_uuid}; ' +
            'contact_change_custom_field: {custom_field_uuid, value} (null clears); contact_delete: none; ' +
            'contact_add_to_flow: {flow_uuid, contact_source_id?} (default 1; affected = contacts enrolled); ' +
            'contact_cancel_from_flows: {flow_uuids?} (null or absent: every flow; affected = enrollments ended)',
        }),
      ),
    ),
    filter: Type.Record(Type.String(), Type.Unknown(), { description: selectionDescription }),
  },
  { additionalProperties: false },
);

export const MassActionResult = Type.Object({
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
      ...FileExport,
      description: 'contact_export_csv: the queued export; poll GET /leads/api/file-exports/{uuid}',
    }),
  ),
});

withExample(CountLeadsBody, { filter: { list_uuid: '0190f000-0000-7000-8000-000000000001' } });
withExample(LeadMetricsBody, {
  period_from: '2026-01-01',
  period_to: '2026-01-31',
  metrics: ['leads_count', 'new_leads_count'] as never[],
});
withExample(MassActionBody, {
  type: 'contact_add_tags',
  payload: { tag_uuids: ['0190f000-0000-7000-8000-000000000002'] },
  filter: { ids: ['0190f000-0000-7000-8000-000000000001'] },
});
