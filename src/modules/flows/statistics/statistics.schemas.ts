import { Type } from 'typebox';
import { Nullable, Uuid, withExample } from '../../../http/schemas.js';

const count = (description: string) => Type.Integer({ description });
const counts = (description: string) => Type.Record(Type.String(), Type.Integer(), { description });

export const FlowMetricsBody = withExample(
  Type.Object(
    { uuids: Type.Array(Uuid(), { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'Flows' }) },
    { additionalProperties: false },
  ),
  { uuids: ['0190f000-0000-7000-8000-000000000002'] },
);

export const FlowMetrics = Type.Record(
  Type.String({ format: 'uuid' }),
  Type.Object({
    leads_count: count('Enrollments, every status'),
    in_progress_leads_count: count('Enrollments in progress'),
    paused_leads_count: count('Enrollments paused'),
    finished_leads_count: count('Enrollments finished'),
    canceled_leads_count: count('Enrollments canceled'),
    failed_leads_count: count('Enrollments failed'),
    task_counts: counts('Pending (in_progress) tasks by task type: the queue, not what was sent'),
    conversions: Type.Record(Type.String(), counts('Kind -> count'), {
      description:
        'Per channel (linkedin_connection_request, linkedin_message, linkedin_inmail, email): sent and what followed ' +
        '(accepted, opened, clicked, replied, blocked, bounced), over all time. Acceptance rate = ' +
        'linkedin_connection_request.accepted / .sent; reply rate = replied / sent summed over the message channels',
    }),
  }),
  { description: 'Per flow UUID (flows of other teams and unknown UUIDs are left out)' },
);

const range = Type.Union(
  [
    Type.String({ description: 'One day or instant' }),
    Type.Record(Type.String(), Type.String(), {
      description: 'Operators >=, >, <=, <, = (or from/to) with ISO 8601 dates or date-times',
    }),
  ],
  { description: 'When the tasks were executed' },
);

export const NodeStatisticsBody = withExample(
  Type.Object(
    {
      node_ids: Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), {
        minItems: 1,
        maxItems: 500,
        uniqueItems: true,
        description: 'Node ids of the flow (GET the flow for its active version)',
      }),
      filter: Type.Optional(
        Nullable(
          Type.Object(
            { executed_at: Type.Optional(range) },
            {
              additionalProperties: false,
              description: 'Only tasks executed (and conversions that happened) in a range',
            },
          ),
        ),
      ),
    },
    { additionalProperties: false },
  ),
  { node_ids: [1, 2], filter: { executed_at: { '>=': '2026-03-01', '<=': '2026-03-31' } } },
);

export const NodeStatistics = Type.Record(
  Type.String({ description: 'Node id' }),
  Type.Object({
    node_statuses: counts('Tasks of the node by status (in_progress, closed, canceled, failed, skipped)'),
    node_conversions: counts(
      'What followed the node: accepted, replied, opened, clicked, blocked, bounced (and sent), summed over channels',
    ),
    node_branches: counts('Branching nodes: how many contacts took each branch id'),
  }),
  { description: 'Per requested node id' },
);

export const ContactSourceStatisticsBody = withExample(
  Type.Object(
    {
      contact_source_ids: Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description: 'Contact source ids of the flow',
      }),
    },
    { additionalProperties: false },
  ),
  { contact_source_ids: [1] },
);

export const ContactSourceStatistics = Type.Record(
  Type.String({ description: 'Contact source id' }),
  Type.Object({
    contact_source_statuses: counts('Enrollments of the source by status'),
    contact_source_added_by: Type.Object(
      {
        user: count('Enrolled through the API or a mass action'),
        filter: count("Enrolled by the source's filter"),
        flow: count("Enrolled by another flow's gs_send_to_flow node"),
      },
      { description: 'How its enrollments entered' },
    ),
    contact_source_conversions: Type.Record(Type.String(), counts('Kind -> count'), {
      description:
        'Per channel (linkedin_connection_request, linkedin_message, linkedin_inmail, email): sent and what followed (accepted, opened, clicked, replied, blocked, bounced)',
    }),
  }),
  { description: 'Per requested contact source id' },
);
