import { type Static, Type } from 'typebox';
import { DateTime, Envelope, Int32, Nullable, Uuid, withExample } from '../../../http/schemas.js';
import { MAX_LIMIT } from '../../../lib/pagination.js';
import { LeadInput } from '../../leads/leads.schemas.js';

export const ENROLLMENT_STATUSES = ['in_progress', 'paused', 'finished', 'canceled', 'failed'] as const;

const statusSchema = Type.Union(
  [
    Type.Literal('in_progress'),
    Type.Literal('paused'),
    Type.Literal('finished'),
    Type.Literal('canceled'),
    Type.Literal('failed'),
  ],
  { description: 'in_progress, paused, finished, canceled or failed' },
);

export const Enrollment = Type.Object(
  {
    uuid: Uuid('Enrollment UUID'),
    team_id: Type.Integer({ description: 'Team' }),
    flow_uuid: Uuid('Flow'),
    flow_version_uuid: Uuid('The version it runs on'),
    lead_uuid: Uuid('Contact'),
    contact_source_id: Type.Integer({ description: 'Contact source it entered through' }),
    added_by: Type.String({
      description:
        'How it entered: user (API, mass action), filter (a self-filling contact source) or flow (another flow)',
    }),
    sender_profile_uuid: Nullable(Uuid('Sender working it (assigned on its first step)')),
    status: statusSchema,
    flow_node_id: Nullable(Type.Integer({ description: 'The node it is at' })),
    next_run_at: Nullable(
      DateTime('When the engine looks at it next (null: waiting for an event, paused or ended)'),
    ),
    reason: Nullable(
      Type.String({
        description:
          'Why it paused or ended: replied, canceled, moved, node_removed, flow_deleted, flow_archived, contact_deleted, blacklisted, ...',
      }),
    ),
    started_at: Nullable(DateTime('When it entered')),
    finished_at: Nullable(DateTime('When it ended')),
    created_at: DateTime('Created'),
    updated_at: DateTime('Last changed'),
  },
  { description: 'One contact in one flow (a flow-lead)' },
);

export const EnrollmentPage = Envelope(Enrollment);

const uuidList = (description: string) =>
  Type.Union([Type.Array(Uuid(), { maxItems: 1000 }), Uuid()], {
    description: `${description} (a list or one)`,
  });

export const ListEnrollmentsBody = Type.Object(
  {
    filter: Type.Optional(
      Nullable(
        Type.Object(
          {
            flow_uuid: Type.Optional(uuidList('Flows')),
            lead_uuid: Type.Optional(uuidList('Contacts')),
            status: Type.Optional(
              Type.Union([Type.Array(statusSchema, { maxItems: 5 }), statusSchema], {
                description: 'Statuses (a list or one)',
              }),
            ),
          },
          { additionalProperties: false, description: 'Filter keys: flow_uuid, lead_uuid, status' },
        ),
      ),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: 20,
        description: `Page size (at most ${MAX_LIMIT} used)`,
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'Records to skip' }),
    ),
    order_field: Type.Optional(
      Type.Union([Type.Literal('created_at'), Type.Literal('uuid')], {
        description: 'Sort by (default created_at)',
      }),
    ),
    order_type: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc'), Type.Literal(0), Type.Literal(1)], {
        description: 'Sort direction, default desc (0/1 accepted as asc/desc)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { filter: { flow_uuid: ['0190f000-0000-7000-8000-000000000002'], status: ['in_progress'] }, limit: 20 },
    ],
  },
);
export type ListEnrollmentsBody = Static<typeof ListEnrollmentsBody>;

const contactSourceId = Type.Union(
  [Int32({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,9}$', description: 'The id as text ("1")' })],
  { description: 'Contact source to enter through (default 1)' },
);

export const EnrolBody = withExample(
  Nullable(
    Type.Object({ contact_source_id: Type.Optional(contactSourceId) }, { additionalProperties: false }),
  ),
  { contact_source_id: 1 },
);

export const MoveBody = Type.Object(
  {
    to_flow_uuid: Uuid('The flow the contact moves to (one of your flows, not archived)'),
    contact_source_id: Type.Optional(contactSourceId),
  },
  {
    additionalProperties: false,
    examples: [{ to_flow_uuid: '0190f000-0000-7000-8000-000000000002', contact_source_id: 1 }],
  },
);
export type MoveBody = Static<typeof MoveBody>;

export const EnrolParams = Type.Object({ flowUuid: Uuid('Flow UUID'), leadUuid: Uuid('Contact UUID') });
export const LeadParams = Type.Object({ leadUuid: Uuid('Contact UUID') });

export const AddNewLeadBody = Type.Object(
  {
    lead: LeadInput,
    custom_fields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Custom field values keyed by custom field name or UUID; null clears a value',
      }),
    ),
    list_uuid: Uuid('List of a new contact (and of an existing one with move_to_list)'),
    update_lead_if_exists: Type.Optional(
      Type.Boolean({ default: true, description: 'Write the given fields onto a matched contact' }),
    ),
    move_to_list: Type.Optional(
      Type.Boolean({ default: false, description: 'Move a matched contact into list_uuid' }),
    ),
    flow_segment_id: Type.Optional(contactSourceId),
    skip_if_lead_exists: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'When the contact already exists, change nothing, enrol nothing and answer 200 {"reason": "skipped"}',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        lead: { linkedin_id: 'https://www.linkedin.com/in/jane-smith-12345', first_name: 'Jane' },
        list_uuid: '0190f000-0000-7000-8000-000000000003',
        flow_segment_id: 1,
      },
    ],
  },
);
export type AddNewLeadBody = Static<typeof AddNewLeadBody>;

export const Skipped = Type.Object(
  { reason: Type.Literal('skipped', { description: 'The contact existed; nothing was done' }) },
  { description: 'skip_if_lead_exists and the contact existed' },
);

export const CancelBody = Type.Object(
  {
    flow_uuids: Type.Array(Uuid(), {
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      description: 'Flows to remove the contact from',
    }),
  },
  { additionalProperties: false, examples: [{ flow_uuids: ['0190f000-0000-7000-8000-000000000002'] }] },
);
