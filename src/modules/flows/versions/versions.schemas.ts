import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Selection, Uuid } from '../../../http/schemas.js';
import { NODE_TYPE_NAMES } from '../../engine/index.js';
import { LEAD_FILTER_KEYS } from '../../leads/leads.filter.js';

const NodeId = (description: string) => Type.Integer({ minimum: 0, maximum: 2_147_483_647, description });

export const Edge = Type.Object(
  {
    node_id: NodeId('The node at the other end'),
    branch_id: Type.Integer({
      minimum: 0,
      maximum: 100,
      description:
        'Branch: 1 on linear steps; rule_ab_test 1/2; rule_filter 1 match, 0 else; triggers 1 happened, 2 timed out',
    }),
  },
  { additionalProperties: false, description: 'A link between two nodes' },
);

const payloadDescription =
  'Configuration of the node, by type (GET /flows/api/flow-versions/node-types lists each payload schema); ' +
  '[] or {} for types without configuration. Unknown payload keys are refused.';

const nodeProperties = {
  id: NodeId('Node id, unique in the version'),
  type: Type.String({
    minLength: 1,
    maxLength: 64,
    description: `Node type: ${NODE_TYPE_NAMES.join(', ')}`,
  }),
  before: Type.Array(Edge, { maxItems: 100, description: 'Incoming edges; [] for an entry node' }),
  after: Type.Array(Edge, { maxItems: 100, description: 'Outgoing edges, one per branch; [] for end' }),
  automation: Type.Optional(Type.Literal('auto', { description: 'Always "auto"' })),
  payload: Type.Optional(
    Type.Union(
      [
        Type.Record(Type.String(), Type.Unknown()),
        Type.Array(Type.Unknown(), { maxItems: 0, description: 'PHP-style empty payload' }),
      ],
      { description: payloadDescription },
    ),
  ),
  delay_in_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 31_536_000,
      default: 0,
      description: 'Wait before this step, seconds (0 = right away; at most a year)',
    }),
  ),
};

/** Editor timestamps hosted clients send on each node of a saved tree (filled in when missing). */
const nodeTimestamps = {
  created_at: Type.Optional(Type.String({ maxLength: 64, description: 'When the editor created the node' })),
  updated_at: Type.Optional(
    Type.String({ maxLength: 64, description: 'When the editor last changed the node' }),
  ),
};

const exampleNodes = [
  {
    id: 1,
    type: 'linkedin_send_connection_request',
    before: [],
    after: [{ node_id: 2, branch_id: 1 }],
    payload: { template: 'Hi {{first_name}}, glad to connect!', fallback_send: true, template_uuid: null },
    delay_in_seconds: 0,
  },
  {
    id: 2,
    type: 'trigger_linkedin_connection_request_accepted',
    before: [{ node_id: 1, branch_id: 1 }],
    after: [
      { node_id: 3, branch_id: 1 },
      { node_id: 4, branch_id: 2 },
    ],
    payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 604800 } }] },
  },
  {
    id: 3,
    type: 'linkedin_send_message',
    before: [{ node_id: 2, branch_id: 1 }],
    after: [{ node_id: 4, branch_id: 1 }],
    payload: { template: 'Thanks for connecting, {{first_name}}!' },
    delay_in_seconds: 86400,
  },
  {
    id: 4,
    type: 'end',
    before: [
      { node_id: 2, branch_id: 2 },
      { node_id: 3, branch_id: 1 },
    ],
    after: [],
  },
];

export const NodeInput = Type.Object(
  { ...nodeProperties, ...nodeTimestamps },
  { additionalProperties: false, description: 'One node of the tree', examples: [exampleNodes[2]] },
);
export type NodeInput = Static<typeof NodeInput>;

/**
 * validate-node: one node as a version holds it - the timestamps of a node read from a saved version are
 * accepted (and not checked), so a client can validate what it just read.
 */
export const ValidateNodeBody = Type.Object(
  { ...nodeProperties, ...nodeTimestamps },
  { additionalProperties: false, examples: [exampleNodes[2]] },
);

const contactSourceProperties = {
  id: Type.Integer({
    minimum: 0,
    maximum: 2_147_483_647,
    description: 'Contact source id, unique in the version',
  }),
  name: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Name' }))),
  rotation_strategy: Type.Optional(
    Type.Literal('fair', {
      default: 'fair',
      description: 'How senders are assigned to new contacts: fair = to the least loaded sender',
    }),
  ),
  sender_profiles: Type.Optional(
    Type.Array(Uuid('Sender profile'), {
      maxItems: 100,
      uniqueItems: true,
      description: 'Senders that work the contacts of this source; empty: nothing runs',
    }),
  ),
  after_id: Type.Optional(Nullable(NodeId('The node contacts of this source start at'))),
  active_limit: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 10_000_000,
        description:
          'Most live (in_progress or paused) contacts of this source at once; a self-filling source stops adding at this number',
      }),
    ),
  ),
  coworkers_limit: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 1000, description: 'Stored for compatibility' })),
  ),
  mass_actions_filter: Type.Optional(
    Nullable({
      ...Selection('contacts', LEAD_FILTER_KEYS, ['leadFilter']),
      description:
        'Contact filter (the language of POST /leads/api/leads/search and mass actions: ids, all: true or ' +
        'filter keys): while the flow is on, every contact matching it is enrolled through this source, ' +
        'within a minute of matching',
    }),
  ),
  filter_tree_format: Type.Optional(
    Nullable(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String({ maxLength: 100_000 })], {
        description: 'The editor rendering of the filter; stored, not evaluated',
      }),
    ),
  ),
};

const exampleSource = {
  id: 1,
  name: null,
  rotation_strategy: 'fair',
  sender_profiles: ['0190f000-0000-7000-8000-000000000001'],
  after_id: 1,
  mass_actions_filter: null,
  filter_tree_format: null,
};

export const ContactSourceInput = Type.Object(contactSourceProperties, {
  additionalProperties: false,
  description: 'Where contacts enter the tree and which senders work them',
  examples: [exampleSource],
});
export type ContactSourceInput = Static<typeof ContactSourceInput>;

export const SaveVersionBody = Type.Object(
  {
    nodes: Type.Array(NodeInput, { maxItems: 500, description: 'The node tree (at most 500 nodes)' }),
    contact_sources: Type.Array(ContactSourceInput, {
      maxItems: 50,
      description: 'At least one contact source',
    }),
    first_common_node_id: Type.Optional(
      Nullable(NodeId('For the editor: where the branches reconverge; null for a linear tree')),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ nodes: exampleNodes, contact_sources: [exampleSource], first_common_node_id: 4 }],
  },
);
export type SaveVersionBody = Static<typeof SaveVersionBody>;

export const ValidateContactSourceBody = Type.Object(
  {
    ...contactSourceProperties,
    type: Type.Optional(Type.Literal('manual', { description: 'Accepted for compatibility' })),
    options: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Accepted for compatibility; not used' }),
    ),
  },
  { additionalProperties: false, examples: [exampleSource] },
);

const NodeOutput = Type.Object(
  {
    id: Type.Integer({ description: 'Node id' }),
    type: Type.String({ description: 'Node type' }),
    before: Type.Array(Edge, { description: 'Incoming edges' }),
    after: Type.Array(Edge, { description: 'Outgoing edges' }),
    automation: Type.String({ description: 'Always "auto"' }),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'Configuration' }),
    delay_in_seconds: Type.Integer({ description: 'Wait before this step, seconds' }),
    created_at: Type.String({ description: 'When the node was written' }),
    updated_at: Type.String({ description: 'When the node was last changed' }),
  },
  { description: 'A node' },
);

export const ContactSource = Type.Object(
  {
    id: Type.Integer({ description: 'Contact source id' }),
    name: Nullable(Type.String({ description: 'Name' })),
    rotation_strategy: Type.String({ description: 'Sender assignment: fair' }),
    sender_profiles: Type.Array(Uuid(), { description: 'Senders' }),
    after_id: Nullable(Type.Integer({ description: 'Entry node' })),
    active_limit: Nullable(Type.Integer({ description: 'Most live contacts at once' })),
    coworkers_limit: Nullable(Type.Integer({ description: 'Stored for compatibility' })),
    mass_actions_filter: Nullable(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Contact filter' }),
    ),
    filter_tree_format: Nullable(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()], {
        description: 'Editor rendering',
      }),
    ),
  },
  { description: 'A contact source' },
);

/** The active version's tree, embedded in single-flow answers. */
export const TreeFields = {
  nodes: Type.Array(NodeOutput, { description: "The active version's nodes" }),
  contact_sources: Type.Array(ContactSource, { description: "The active version's contact sources" }),
  first_common_node_id: Nullable(Type.Integer({ description: 'Where the branches reconverge' })),
};

export const FlowVersion = Type.Object(
  {
    uuid: Uuid('Version UUID'),
    team_id: Type.Integer({ description: 'Team' }),
    flow_uuid: Uuid('Flow'),
    ...TreeFields,
    is_active: Type.Boolean({ description: "Whether this is the flow's active version" }),
    created_at: DateTime('When the version was saved'),
  },
  { description: 'An immutable snapshot of a flow tree' },
);

export const SavedFlowVersion = Type.Object(
  {
    ...FlowVersion.properties,
    enrollments: Type.Object(
      {
        moved: Type.Integer({
          description:
            'Live enrollments whose node exists in the new version with the same type: they continue there',
        }),
        ended: Type.Integer({
          description:
            'Live enrollments at a node the new version removed (or changed): canceled, reason node_removed',
        }),
      },
      { description: 'What the save did to the flow enrollments' },
    ),
  },
  { description: 'The saved (now active) version' },
);

export const FlowVersionList = Type.Array(FlowVersion, { description: 'Versions, oldest first' });

export const FlowUuidParams = Type.Object({ flowUuid: Uuid('Flow UUID') });

export const NodeTypesList = Type.Array(
  Type.Object({
    type: Type.String({ description: 'Node type' }),
    category: Type.String({
      description: 'trigger, action, branch, delay, hold, control, terminal or special',
    }),
    description: Type.String({ description: 'What it does' }),
    branches: Type.Union([Type.Array(Type.Integer()), Type.Literal('payload')], {
      description: 'Branch ids that must leave it ([] for end; "payload": the ids of payload.branches)',
    }),
    needs_sender: Type.Boolean({ description: 'It acts through a sender profile' }),
    payload_schema: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the payload' }),
  }),
  { description: 'The node type catalogue' },
);
