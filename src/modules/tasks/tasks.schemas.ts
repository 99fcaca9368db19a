import { Type } from 'typebox';
import { FilterObject } from '../../http/filter-schema.js';
import {
  DateTime,
  Envelope,
  Id,
  Int32,
  ListQuery,
  Nullable,
  SearchBody,
  TimeZone,
  Uuid,
} from '../../http/schemas.js';
import { BulkOperation } from '../bulk-operations/bulk-operations.schemas.js';
import { ContactSelection } from '../leads/leads-bulk.schemas.js';
import { GROUP_FIELDS } from './tasks.counts.js';
import { MANUAL_TASK_TYPES, TASK_STATUSES, taskFilter, taskFilterFields, taskSort } from './tasks.filter.js';
import { NEEDS_TEXT, TEXT_RULE, WHICH_TASKS } from './tasks.rules.js';

const filterKeys = Object.keys(taskFilterFields);

export const Task = Type.Object(
  {
    uuid: Uuid('Task identifier'),
    team_id: Type.Integer({ description: 'Team the task belongs to' }),
    lead_uuid: Uuid('The contact the task is about'),
    company_uuid: Nullable(Uuid('The contact\u2019s company when the task was made')),
    sender_profile_uuid: Nullable(Uuid('The sender profile that acts')),
    mailbox_uuid: Nullable(Uuid('Mailbox of an e-mail task')),
    flow_uuid: Nullable(Uuid('The flow that made it (null for a to-do)')),
    flow_lead_uuid: Nullable(Uuid('The enrollment whose step it is (null for a to-do)')),
    flow_node_id: Nullable(Type.Integer({ description: 'The flow node whose visit it is' })),
    type: Type.String({
      description:
        'What is to be done: the node type (linkedin_send_connection_request, email_send_message, ' +
        'rule_filter, util_timer...); to-dos have one of the five manual types',
    }),
    automation: Type.Enum(['manual', 'auto'], {
      description: 'manual: a to-do for a person; auto: made by a flow',
    }),
    status: Type.Enum(TASK_STATUSES, {
      description:
        'in_progress (planned or running), closed (done), canceled, failed, skipped (passed over; the ' +
        'contact moved on)',
    }),
    payload: Nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'What to send: template (the text), rendered_text, attachments...; to-dos: {template}',
      }),
    ),
    attempts: Type.Integer({ description: 'Times it was run' }),
    error_msg: Nullable(Type.String({ description: 'Why it failed or was skipped or canceled' })),
    automation_error_code: Nullable(
      Type.String({ description: 'Machine-readable failure: replied, too_many_attempts, unknown...' }),
    ),
    fork_result: Nullable(Type.Integer({ description: 'Branch taken (rules and triggers)' })),
    priority: Type.Integer({ description: 'Lower runs first among a sender\u2019s ready tasks' }),
    note: Nullable(Type.String({ description: 'A note for the person doing it' })),
    timezone: Nullable(Type.String({ description: 'IANA time zone schedule_at is meant in' })),
    schedule_at: Nullable(DateTime('When it is planned')),
    executed_at: Nullable(DateTime('When it was done')),
    taken_to_execute_at: Nullable(DateTime('When it was handed to its channel (LinkedIn, e-mail)')),
    assigned_to: Nullable(Type.Integer({ description: 'Team member who does it (to-dos)' })),
    user_id: Nullable(Type.Integer({ description: 'User who created it (to-dos)' })),
    created_at: DateTime('When it was created'),
    updated_at: DateTime('When it last changed'),
  },
  { title: 'Task' },
);

export const TaskPage = Envelope(Task);

export const TasksQuery = ListQuery(taskSort, filterKeys);

export const CreateTaskBody = Type.Object(
  {
    lead_uuid: Type.Optional(
      Uuid('The contact (one of your team\u2019s); required unless filter selects contacts'),
    ),
    filter: Type.Optional(ContactSelection),
    sender_profile_uuid: Uuid('The sender profile it is done as (one of your team\u2019s)'),
    type: Type.Optional(
      Type.Enum(MANUAL_TASK_TYPES, {
        default: 'linkedin_send_message',
        description: 'What to do (default linkedin_send_message)',
      }),
    ),
    text: Type.Optional(
      Type.String({
        maxLength: 8000,
        description: 'The message to send; stored as payload.template. Required for messages and InMails',
      }),
    ),
    payload: Type.Optional(
      Type.Object(
        {
          template: Type.Optional(Type.String({ maxLength: 8000, description: 'The text (same as text)' })),
          note: Type.Optional(Nullable(Type.String({ maxLength: 5000, description: 'Same as note' }))),
        },
        { additionalProperties: false, description: 'The shape some clients send: {template, note}' },
      ),
    ),
    note: Type.Optional(
      Nullable(Type.String({ maxLength: 5000, description: 'A note for the person doing it' })),
    ),
    schedule_at: Type.Optional(DateTime('When it is due (default now)')),
    timezone: Type.Optional(
      TimeZone({ minLength: 1, description: 'IANA time zone (default the sender profile\u2019s)' }),
    ),
    assigned_to: Type.Optional(
      Id({ description: 'Team member who does it (default the profile\u2019s assignee)' }),
    ),
    automation: Type.Optional(
      Type.Literal('manual', { description: 'Accepted for compatibility; always manual' }),
    ),
    status: Type.Optional(
      Type.Enum(['new', 'in_progress'], {
        description: 'Accepted for compatibility; a new task is in_progress',
      }),
    ),
  },
  {
    additionalProperties: false,
    // Two rules at once, as one anyOf of every pair (a form request samplers and clients read): which
    // contacts (lead_uuid or filter), and the text of messages and InMails (the default type is a message).
    anyOf: [
      { required: ['lead_uuid'], properties: {} },
      { required: ['filter'], properties: { filter: { not: { type: 'null' } } } },
    ].flatMap((who) =>
      TEXT_RULE.map((text) => ({
        required: [...who.required, ...text.required],
        properties: { ...who.properties, ...text.properties },
      })),
    ),
    'x-message':
      `needs lead_uuid (or a filter selecting contacts), and for ${NEEDS_TEXT.join(' and ')} tasks the ` +
      'text to send (text or payload.template)',
    'x-fields': ['lead_uuid', 'text'],
    examples: [
      {
        lead_uuid: '0190f1c2-7a3b-7c00-8a00-00000000a001',
        sender_profile_uuid: '0190f1c2-7a3b-7c00-8a00-00000000b001',
        type: 'linkedin_send_message',
        text: 'Hi {{first_name}}, thanks for connecting!',
        schedule_at: '2026-03-02T10:00:00Z',
        timezone: 'Europe/Berlin',
      },
    ],
  },
);

export const CreatedTasks = Type.Object(
  {
    affected: Nullable(
      Type.Integer({ description: 'To-dos made (one per selected contact); null when queued' }),
    ),
    operation: Nullable(BulkOperation),
    data: Type.Array(Task, { description: 'The to-dos made ([] when queued)' }),
  },
  { title: 'CreatedTasks' },
);

export const TasksListBody = SearchBody(taskSort, filterKeys);

export const GroupCountsQuery = Type.Object({
  group_field: Type.Optional(
    Type.Enum(GROUP_FIELDS, { default: 'status', description: 'What to group by (default status)' }),
  ),
  filter: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: `Task filter, filter[key]=value; keys: ${filterKeys.join(', ')}`,
    }),
  ),
  timezone: Type.Optional(
    TimeZone({ minLength: 1, description: 'IANA time zone of day/week/month periods (default UTC)' }),
  ),
});

export const CompleteTaskBody = Type.Union(
  [
    Type.Object(
      {
        fork_result: Type.Optional(
          Int32({
            minimum: 0,
            description:
              'For a flow\u2019s rule_manual_router to-do: the branch id the contact takes (one of the node\u2019s branches)',
          }),
        ),
      },
      { additionalProperties: false, examples: [{ fork_result: 2 }] },
    ),
    Type.Null(),
  ],
  { examples: [{ fork_result: 2 }] },
);

export const FailTaskBody = Type.Union(
  [
    Type.Object(
      { error_msg: Type.Optional(Type.String({ maxLength: 5000, description: 'Why it failed' })) },
      { additionalProperties: false, examples: [{ error_msg: 'Profile no longer exists' }] },
    ),
    Type.Null(),
  ],
  { examples: [{ error_msg: 'Profile no longer exists' }] },
);

const selectionDescription =
  'Which tasks: uuids and/or a filter (the list\u2019s keys, e.g. {"automation": "manual", "status": "in_progress"}); ' +
  'with both, tasks matching both';

export const MassMoveBody = Type.Object(
  {
    uuids: Type.Optional(Type.Array(Uuid(), { maxItems: 100_000, description: 'Task UUIDs' })),
    filter: Type.Optional(Nullable(FilterObject(taskFilter, `Task filter; keys: ${filterKeys.join(', ')}`))),
  },
  {
    additionalProperties: false,
    description: selectionDescription,
    ...WHICH_TASKS,
    examples: [
      { uuids: ['0190f1c2-7a3b-7c00-8a00-00000000c001'] },
      { filter: { automation: 'manual', status: 'in_progress' } },
    ],
  },
);

export const RestartFromTopBody = Type.Object(
  {
    ...MassMoveBody.properties,
    flow_uuid: Uuid('The flow whose enrollments restart (only its tasks are selected)'),
    flow_origin: Type.Optional(Type.Literal('automation', { description: 'Accepted for compatibility' })),
    new_contact_source_id: Type.Optional(
      Int32({
        minimum: 0,
        description:
          'Restart at this contact source\u2019s entry node (default: each enrollment\u2019s own source)',
      }),
    ),
    sender_profile_uuid: Type.Optional(Uuid('Run the restarted enrollments with this sender profile')),
  },
  {
    additionalProperties: false,
    description: selectionDescription,
    ...WHICH_TASKS,
    examples: [
      {
        filter: { status: 'failed' },
        flow_uuid: '0190f1c2-7a3b-7c00-8a00-00000000f001',
        flow_origin: 'automation',
        new_contact_source_id: 1,
      },
    ],
  },
);

export const MassMoveResult = Type.Object({
  affected: Nullable(
    Type.Integer({
      description: 'Tasks moved (tasks that cannot take the move are not counted); null when queued',
    }),
  ),
  operation: Nullable(BulkOperation),
});

export const ContinueAutomationBody = Type.Object(
  {
    lead_uuid: Uuid('The contact held at a hold (util_hodor) node'),
    flow_uuid: Type.Optional(Uuid('Only in this flow (default: every flow holding the contact)')),
  },
  { additionalProperties: false, examples: [{ lead_uuid: '0190f1c2-7a3b-7c00-8a00-00000000a001' }] },
);

export const ContinueAutomationResult = Type.Object({
  released: Type.Integer({ description: 'Enrollments released from a hold' }),
});

export const GroupCountsBody = Type.Object(
  {
    group_field: Type.Enum(GROUP_FIELDS, {
      description:
        'What to group by: status, type, flow_uuid, sender_profile_uuid, automation, automation_error_code, ' +
        'or the day / week (from Monday) / month of executed_at',
    }),
    filter: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.Unknown(), {
          description: `Task filter; keys: ${filterKeys.join(', ')}`,
        }),
      ),
    ),
    timezone: Type.Optional(
      TimeZone({ minLength: 1, description: 'IANA time zone of day/week/month periods (default UTC)' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { group_field: 'status', filter: { flow_uuid: '0190f1c2-7a3b-7c00-8a00-00000000f001' } },
      { group_field: 'day', filter: { executed_at: { '>=': '2026-03-01' } }, timezone: 'Europe/Berlin' },
    ],
  },
);

export const GroupCounts = Type.Record(Type.String(), Type.Integer(), {
  description:
    'Group value -> number of tasks; "" stands for unset (no flow, no error code...). Periods are keyed by ' +
    'their first day (yyyy-mm-dd); tasks not executed yet have no period',
});
