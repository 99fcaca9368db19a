import { type Static, Type } from 'typebox';
import { ScheduleInput, ScheduleSchema } from '../../http/schedule.schemas.js';
import { DateTime, Envelope, ListQuery, Nullable, SearchBody, Uuid } from '../../http/schemas.js';
import { flowFilterFields, flowSort } from './flows.repository.js';
import { TreeFields } from './versions/versions.schemas.js';

export const FlowWarning = Type.Object(
  {
    code: Type.Union(
      [
        Type.Literal('no_action_node'),
        Type.Literal('no_sender'),
        Type.Literal('senders_disabled'),
        Type.Literal('sender_without_mailbox'),
        Type.Literal('sender_without_seat'),
      ],
      {
        description:
          'no_action_node: the tree does nothing but wait and route; no_sender: nodes need a sender and no contact source lists an existing one; senders_disabled: every sender of the contact sources is disabled; sender_without_mailbox: an enabled sender of the sources has no active mailbox and the tree sends e-mail; sender_without_seat: an enabled sender of the sources has no running LinkedIn seat and the tree has LinkedIn steps',
      },
    ),
    message: Type.String({ description: 'What is wrong and how to fix it' }),
    sender_profile_uuid: Type.Optional(Uuid('The sender a sender_without_* warning is about')),
  },
  { description: 'A reason the flow cannot do its work' },
);

// E-mail tracking is opt-in per flow (src/modules/email/CONTEXT.md): off
// unless switched on here; it needs LEADFLOW_PUBLIC_URL reachable by the recipients.
const emailTrackingFields = {
  email_track_opens: Type.Boolean({
    description:
      'E-mail steps carry an open pixel (contact_opened_email, trigger_email_opened). Default false',
  }),
  email_track_clicks: Type.Boolean({
    description:
      'Links of e-mail steps go through a click redirect (contact_clicked_email, trigger_link_clicked). Default false',
  }),
  email_unsubscribe_link: Type.Boolean({
    description:
      'E-mail steps carry List-Unsubscribe with one-click POST (RFC 8058) and an unsubscribe link (contact_unsubscribed_email). Default false',
  }),
};
const optionalTracking = {
  email_track_opens: Type.Optional(emailTrackingFields.email_track_opens),
  email_track_clicks: Type.Optional(emailTrackingFields.email_track_clicks),
  email_unsubscribe_link: Type.Optional(emailTrackingFields.email_unsubscribe_link),
};

const flowFields = {
  uuid: Uuid('Flow UUID'),
  public_uuid: Nullable(Uuid('Public UUID (not used)')),
  team_id: Type.Integer({ description: 'Team' }),
  name: Type.String({ description: 'Name' }),
  description: Nullable(Type.String({ description: 'Description' })),
  flow_workspace_uuid: Nullable(Uuid('Folder (flow workspace)')),
  flow_version_uuid: Uuid('The active version'),
  use_sender_schedule: Type.Boolean({
    description: "Steps run in each sender's schedule instead of the flow's",
  }),
  schedule: ScheduleSchema,
  priority: Type.Integer({ description: 'Higher runs first when senders are busy' }),
  status: Type.Union(
    [Type.Literal('on'), Type.Literal('off'), Type.Literal('draft'), Type.Literal('archived')],
    {
      description: 'on (running), off (stopped), draft (never started), archived',
    },
  ),
  is_public: Type.Boolean({ description: 'Visible to the whole team' }),
  ...emailTrackingFields,
  user_id: Nullable(Type.Integer({ description: 'Creator' })),
  warnings: Type.Array(FlowWarning, {
    description: 'Why the flow cannot do its work (empty when nothing is wrong)',
  }),
  created_at: DateTime('Created'),
  updated_at: DateTime('Last changed'),
};

export const Flow = Type.Object(flowFields, { description: 'A flow (automation)' });
export const FlowDetail = Type.Object(
  { ...flowFields, ...TreeFields },
  { description: "A flow with its active version's tree" },
);

export const FlowPage = Envelope(Flow);
export const FlowsQuery = ListQuery(flowSort, Object.keys(flowFilterFields));

const name = Type.String({ minLength: 1, maxLength: 255, description: 'Name' });
const description = Nullable(Type.String({ maxLength: 10_000, description: 'Description' }));
const priority = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: 'Higher runs first when senders are busy (default 2)',
});
const workspace = Nullable(Uuid('Folder (flow workspace) of the team; null for none'));

const exampleSchedule = {
  timezone: 'Europe/Berlin',
  use_lead_timezone: false,
  timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
};

export const CreateFlowBody = Type.Object(
  {
    name,
    // Required unless use_sender_schedule is true (the anyOf below).
    schedule: Type.Optional(ScheduleInput),
    use_sender_schedule: Type.Optional(
      Type.Boolean({ default: false, description: "Run steps in each sender's schedule" }),
    ),
    description: Type.Optional(description),
    priority: Type.Optional(priority),
    is_public: Type.Optional(Type.Boolean({ default: false, description: 'Visible to the whole team' })),
    flow_workspace_uuid: Type.Optional(workspace),
    ...optionalTracking,
  },
  {
    additionalProperties: false,
    anyOf: [
      { required: ['schedule'] },
      {
        required: ['use_sender_schedule'],
        properties: {
          use_sender_schedule: { const: true, description: "Steps run in each sender's schedule" },
        },
      },
    ],
    'x-message': 'is required unless use_sender_schedule is true',
    'x-fields': ['schedule'],
    examples: [{ name: 'DACH CTO Outreach', use_sender_schedule: false, schedule: exampleSchedule }],
  },
);
export type CreateFlowBody = Static<typeof CreateFlowBody>;

export const UpdateFlowBody = Type.Object(
  {
    name: Type.Optional(name),
    description: Type.Optional(description),
    schedule: Type.Optional(ScheduleInput),
    use_sender_schedule: Type.Optional(Type.Boolean({ description: "Run steps in each sender's schedule" })),
    priority: Type.Optional(priority),
    is_public: Type.Optional(Type.Boolean({ description: 'Visible to the whole team' })),
    flow_workspace_uuid: Type.Optional(workspace),
    ...optionalTracking,
  },
  { additionalProperties: false, examples: [{ name: 'DACH CTO Outreach (v2)', priority: 5 }] },
);
export type UpdateFlowBody = Static<typeof UpdateFlowBody>;

const cloneProperties = { name, flow_workspace_uuid: Type.Optional(workspace) };

export const CloneFlowBody = Type.Object(
  { flow_uuid: Uuid('The flow to copy'), ...cloneProperties },
  {
    additionalProperties: false,
    examples: [{ flow_uuid: '0190f000-0000-7000-8000-000000000002', name: 'DACH CTO Outreach (copy)' }],
  },
);

/** POST /flows/api/flows/{flowUuid}/clone: the flow to copy is the path's. */
export const CloneFlowByPathBody = Type.Object(cloneProperties, {
  additionalProperties: false,
  examples: [{ name: 'DACH CTO Outreach (copy)' }],
});

export const FlowsListBody = SearchBody(flowSort, Object.keys(flowFilterFields));

export const FlowParams = Type.Object({ flowUuid: Uuid('Flow UUID') });
