// The node types a flow version may hold (api-facts 4.6, "Node type catalogue"): for each, what it is,
// which branches leave it, the shape of its payload (closed: an unknown payload key is a 422), and the
// records of the team its payload refers to. Tree validation, the node-types endpoint and the flow
// warnings read this table; the engine defines how each type runs.
import { type TSchema, Type } from 'typebox';
import type { ReferenceKind } from './references.js';

export type NodeCategory =
  | 'trigger'
  | 'action'
  | 'branch'
  | 'delay'
  | 'hold'
  | 'control'
  | 'terminal'
  | 'special';

/** Branch ids that must leave a node: fixed per type, or the ids its payload's `branches` declare. */
export type BranchRule = { kind: 'none' } | { kind: 'fixed'; ids: readonly number[] } | { kind: 'payload' };

export type Reference = { kind: ReferenceKind; uuid: string; path: string };

export type NodeType = {
  category: NodeCategory;
  description: string;
  branches: BranchRule;
  /** Closed schema of the payload (an absent payload or `[]` is read as `{}`). */
  payload: TSchema;
  /** It contacts the person through a sender (LinkedIn or e-mail), so a flow needs a usable sender. */
  needsSender?: boolean;
  /** Records of the team the payload names (checked to exist when a version is saved). */
  references?: (payload: Record<string, unknown>) => Reference[];
  /** The payload's texts the engine renders (Liquid and spintax): each must parse when a version is saved. */
  texts?: (payload: Record<string, unknown>) => TemplateText[];
};

/** A text of a payload the engine renders, at its path under the node (`payload.subject`). */
export type TemplateText = { path: string; text: string };

/** LinkedIn texts: the platform's message limit (api-facts L). */
export const LINKEDIN_TEXT_MAX = 8000;
export const INMAIL_SUBJECT_MAX = 511;
/** E-mail bodies are HTML and routinely longer than a LinkedIn message. */
export const EMAIL_BODY_MAX = 100_000;

const closed = (properties: Record<string, TSchema>, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const uuid = (description: string) => Type.String({ format: 'uuid', description });
const text = (max: number, description: string) => Type.String({ maxLength: max, description });
const seconds = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 31_536_000, description: `${description} (seconds, at most a year)` });

const templateUuid = opt(nullable(uuid('AI template rendered for each contact (instead of template)')));
const stopOnReply = opt(
  Type.String({
    maxLength: 64,
    description: 'When a reply stops the flow for the contact; observed: always',
  }),
);
const attachments = opt(
  Type.Array(
    Type.Union([uuid('Attachment UUID'), closed({ uuid: uuid('Attachment UUID') })], {
      description: 'An attachment UUID, or {"uuid": ...}',
    }),
    { maxItems: 10, description: 'Uploaded attachments sent with the message' },
  ),
);

const timerSubtask = closed(
  {
    id: opt(Type.Integer({ description: 'Node id of the timer (informational)' })),
    type: Type.Literal('util_timer'),
    payload: closed({ wait_time: seconds('How long the trigger waits before taking branch 2') }),
    before: opt(Type.Array(Type.Unknown(), { maxItems: 0 })),
    after: opt(Type.Array(Type.Unknown(), { maxItems: 0 })),
    automation: opt(Type.Literal('auto')),
    delay_in_seconds: opt(Type.Integer({ minimum: 0 })),
    created_at: opt(Type.String()),
    updated_at: opt(Type.String()),
  },
  'The util_timer node that bounds the wait: after wait_time seconds the trigger takes branch 2',
);
const subtasks = Type.Array(timerSubtask, {
  maxItems: 1,
  description: 'At most one util_timer node: the timeout of the wait (none: wait without a timeout)',
});

const TRIGGER_BRANCHES = { kind: 'fixed', ids: [1, 2] } as const;
const LINEAR = { kind: 'fixed', ids: [1] } as const;
const noPayload = closed({}, 'No configuration ({} or [])');

const one = (kind: ReferenceKind, key: string) => (payload: Record<string, unknown>) =>
  typeof payload[key] === 'string' ? [{ kind, uuid: payload[key] as string, path: `payload.${key}` }] : [];

function attachmentRefs(payload: Record<string, unknown>): Reference[] {
  const list = Array.isArray(payload.attachments) ? payload.attachments : [];
  return list.flatMap((item, index) => {
    const value = typeof item === 'string' ? item : (item as { uuid?: unknown } | null)?.uuid;
    return typeof value === 'string'
      ? [{ kind: 'attachment' as const, uuid: value, path: `payload.attachments.${index}` }]
      : [];
  });
}

/** The named payload fields that hold a rendered text (when they are strings). */
const textFields =
  (...keys: string[]) =>
  (payload: Record<string, unknown>): TemplateText[] =>
    keys.flatMap((key) =>
      typeof payload[key] === 'string' ? [{ path: `payload.${key}`, text: payload[key] as string }] : [],
    );

/** gs_call_api renders its endpoint and every string value of its headers, query and body. */
function callApiTexts(payload: Record<string, unknown>): TemplateText[] {
  const texts = textFields('endpoint')(payload);
  for (const map of ['headers', 'query', 'post']) {
    const values = payload[map];
    if (!values || typeof values !== 'object' || Array.isArray(values)) continue;
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === 'string') texts.push({ path: `payload.${map}.${key}`, text: value });
    }
  }
  return texts;
}

const withTemplate = (payload: Record<string, unknown>) => [
  ...one('ai_template', 'template_uuid')(payload),
  ...attachmentRefs(payload),
];

export const NODE_TYPES: Record<string, NodeType> = {
  trigger_message_replied: {
    category: 'trigger',
    description: 'Waits for a reply (branch 1) or the timeout (branch 2)',
    branches: TRIGGER_BRANCHES,
    needsSender: true,
    payload: closed({
      subtasks: opt(subtasks),
      check_period_type: opt(
        Type.String({ maxLength: 64, description: 'Which replies count; observed: last_response' }),
      ),
    }),
  },
  trigger_linkedin_connection_request_accepted: {
    category: 'trigger',
    description: 'Waits for the connection request to be accepted (branch 1) or the timeout (branch 2)',
    branches: TRIGGER_BRANCHES,
    needsSender: true,
    payload: closed({ subtasks: opt(subtasks) }),
  },
  trigger_email_opened: {
    category: 'trigger',
    description: 'Waits for the last e-mail to be opened (branch 1) or the timeout (branch 2)',
    branches: TRIGGER_BRANCHES,
    needsSender: true,
    payload: closed({ subtasks: opt(subtasks) }),
  },
  trigger_link_clicked: {
    category: 'trigger',
    description: 'Waits for a link of the last e-mail to be clicked (branch 1) or the timeout (branch 2)',
    branches: TRIGGER_BRANCHES,
    needsSender: true,
    payload: closed({ subtasks: opt(subtasks) }),
  },
  trigger_website_page_visited: {
    category: 'trigger',
    description: 'Waits for a visit of a matching page (branch 1) or wait_time (branch 2)',
    branches: TRIGGER_BRANCHES,
    payload: closed({
      wait_time: opt(seconds('How long to wait for the visit')),
      wildcard: opt(text(2048, 'URL pattern, * matches anything, e.g. https://site.com/pricing*')),
    }),
  },
  linkedin_send_connection_request: {
    category: 'action',
    description: 'Sends a LinkedIn connection request, with a note when template is set',
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      template: opt(text(LINKEDIN_TEXT_MAX, 'Note text (Liquid template)')),
      fallback_send: opt(Type.Boolean({ description: 'Send without the note when the note cannot be sent' })),
      template_uuid: templateUuid,
    }),
    references: withTemplate,
    texts: textFields('template'),
  },
  linkedin_send_message: {
    category: 'action',
    description: 'Sends a LinkedIn message',
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      template: opt(text(LINKEDIN_TEXT_MAX, 'Message text (Liquid template)')),
      attachments,
      template_uuid: templateUuid,
      stop_on_reply_level: stopOnReply,
    }),
    references: withTemplate,
    texts: textFields('template'),
  },
  linkedin_send_inmail: {
    category: 'action',
    description: 'Sends a LinkedIn InMail',
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      subject: opt(text(INMAIL_SUBJECT_MAX, 'InMail subject')),
      template: opt(text(LINKEDIN_TEXT_MAX, 'InMail text (Liquid template)')),
      attachments,
      template_uuid: templateUuid,
      stop_on_reply_level: stopOnReply,
    }),
    references: withTemplate,
    texts: textFields('subject', 'template'),
  },
  linkedin_visit_profile: {
    category: 'action',
    description: "Visits the contact's LinkedIn profile",
    branches: LINEAR,
    needsSender: true,
    payload: noPayload,
  },
  linkedin_like_latest_post: {
    category: 'action',
    description: "Likes the contact's latest LinkedIn post",
    branches: LINEAR,
    needsSender: true,
    payload: noPayload,
  },
  linkedin_comment_latest_post: {
    category: 'action',
    description: "Comments on the contact's latest LinkedIn post",
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      template: opt(text(LINKEDIN_TEXT_MAX, 'Comment text (Liquid template)')),
      template_uuid: templateUuid,
    }),
    references: withTemplate,
    texts: textFields('template'),
  },
  linkedin_endorse_skills: {
    category: 'action',
    description: "Endorses the contact's skills",
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      number: opt(Type.Integer({ minimum: 1, maximum: 50, description: 'How many skills to endorse' })),
    }),
  },
  linkedin_find_contact: {
    category: 'action',
    description: 'Searches LinkedIn and saves the people found to a list',
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      linkedin_filters: opt(Type.Array(Type.Unknown(), { maxItems: 100, description: 'Search filters' })),
      save_limit: opt(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Most people to save' })),
      list_uuid: opt(nullable(uuid('List the people found are saved to'))),
    }),
    references: one('list', 'list_uuid'),
  },
  linkedin_withdraw_connection_request: {
    category: 'action',
    description: 'Withdraws a pending connection request',
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      note: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Note'))),
      withdraw_key: opt(nullable(text(255, 'Which request to withdraw'))),
    }),
  },
  email_send_message: {
    category: 'action',
    description: 'Sends an e-mail from the sender profile mailbox',
    branches: LINEAR,
    needsSender: true,
    payload: closed({
      subject: opt(text(998, 'Subject (Liquid template); empty replies in the thread of the last e-mail')),
      template: opt(text(EMAIL_BODY_MAX, 'Body, HTML (Liquid template)')),
      add_history: opt(
        Type.Union([Type.Literal(0), Type.Literal(1), Type.Boolean()], {
          description: 'Quote the earlier e-mails of the thread',
        }),
      ),
      attachments,
      email_field: opt(
        Type.Union([Type.Literal('work_email'), Type.Literal('personal_email'), Type.Literal('')], {
          description: 'Address to use; "" = work e-mail, else personal',
        }),
      ),
      cc: opt(
        Type.Array(
          closed({
            to_name: opt(nullable(text(255, 'Name'))),
            to_email: Type.String({ format: 'email', maxLength: 320, description: 'Address' }),
          }),
          { maxItems: 20, description: 'Copies' },
        ),
      ),
      template_uuid: templateUuid,
      stop_on_reply_level: stopOnReply,
    }),
    references: withTemplate,
    texts: textFields('subject', 'template'),
  },
  email_search_waterflow: {
    category: 'branch',
    description: 'Looks for an e-mail address: branch 2 found (and verified), branch 1 not found',
    branches: { kind: 'fixed', ids: [1, 2] },
    payload: closed({
      waterflow_sequence: opt(
        Type.Array(
          closed({
            provider: Type.Union(
              ['getsales', 'anymail_finder', 'hunter', 'findymail', 'email_list_verify'].map((p) =>
                Type.Literal(p),
              ),
              { description: 'Finder asked in this order' },
            ),
          }),
          { maxItems: 10, description: 'Providers asked in order until one finds an address' },
        ),
      ),
      verification_provider: opt(
        nullable(closed({ provider: Type.Literal('email_list_verify', { description: 'Verifier' }) })),
      ),
      accept_catch_all: opt(Type.Boolean({ description: 'Accept catch-all domains as found' })),
    }),
  },
  rule_ab_test: {
    category: 'branch',
    description: 'Splits contacts at random between branches 1 and 2 by the enabled values (sum 100)',
    branches: { kind: 'fixed', ids: [1, 2] },
    payload: closed({
      branches: Type.Array(
        closed({
          value: Type.Integer({ minimum: 0, maximum: 100, description: 'Share of contacts, percent' }),
          branch_id: Type.Union([Type.Literal(1), Type.Literal(2)], { description: 'Branch 1 or 2' }),
          is_enabled: opt(Type.Boolean({ default: true, description: 'A disabled branch takes no one' })),
        }),
        { minItems: 2, maxItems: 2, description: 'Branches 1 and 2; enabled values sum to 100' },
      ),
    }),
  },
  rule_filter: {
    category: 'branch',
    description: 'Branch 1 when the contact matches the filter, branch 0 otherwise',
    branches: { kind: 'fixed', ids: [1, 0] },
    payload: closed({
      branches: Type.Array(
        closed({
          branch_id: Type.Union([Type.Literal(1), Type.Literal(0)], { description: '1 match, 0 else' }),
          filters: opt(
            closed({
              mass_actions_filter: opt(
                nullable(
                  Type.Record(Type.String(), Type.Unknown(), {
                    description: 'Contact filter (the contact search filter language) deciding the match',
                  }),
                ),
              ),
              json_logic: opt(Type.Unknown({ description: 'The editor rendering; stored, not evaluated' })),
              filter_tree_format: opt(
                Type.Unknown({ description: 'The editor rendering; stored, not evaluated' }),
              ),
            }),
          ),
        }),
        { minItems: 2, maxItems: 2, description: 'Branch 1 with its filters, and branch 0 (else)' },
      ),
    }),
  },
  rule_manual_router: {
    category: 'branch',
    description: 'A person routes each contact to one of the named branches',
    branches: { kind: 'payload' },
    payload: closed({
      branches: Type.Array(
        closed({
          branch_id: Type.Integer({ minimum: 0, maximum: 100, description: 'Branch id' }),
          name: opt(nullable(text(255, 'Branch name'))),
        }),
        { minItems: 1, maxItems: 20, description: 'The branches' },
      ),
      note: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Instructions for the person routing'))),
    }),
  },
  ai_rule_filter: {
    category: 'branch',
    description: 'A language model routes each contact to a branch by its description (0 = none fits)',
    branches: { kind: 'payload' },
    payload: closed({
      branches: Type.Array(
        closed({
          branch_id: Type.Integer({ minimum: 0, maximum: 100, description: 'Branch id; 0 = no match' }),
          name: opt(nullable(text(255, 'Branch name'))),
          description: opt(nullable(text(LINKEDIN_TEXT_MAX, 'When a contact belongs here'))),
        }),
        { minItems: 1, maxItems: 20, description: 'The branches' },
      ),
      classification_instructions: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Instructions for the model'))),
    }),
  },
  util_timer: {
    category: 'delay',
    description: 'Waits wait_time seconds',
    branches: LINEAR,
    payload: closed({ wait_time: seconds('How long to wait') }),
  },
  util_hodor: {
    category: 'hold',
    description: 'Holds contacts until continue-automation (or a gs_continue_automation node) releases them',
    branches: LINEAR,
    payload: closed({
      is_open: opt(Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1 = let contacts pass' })),
    }),
  },
  gs_add_tag: {
    category: 'action',
    description: 'Adds a tag to the contact',
    branches: LINEAR,
    payload: closed({ tag_uuid: uuid('Tag') }),
    references: one('tag', 'tag_uuid'),
  },
  gs_remove_tag: {
    category: 'action',
    description: 'Removes a tag from the contact',
    branches: LINEAR,
    payload: closed({ tag_uuid: uuid('Tag') }),
    references: one('tag', 'tag_uuid'),
  },
  gs_change_list: {
    category: 'action',
    description: 'Moves the contact to a list',
    branches: LINEAR,
    payload: closed({ list_uuid: uuid('List') }),
    references: one('list', 'list_uuid'),
  },
  gs_change_pipeline_stage: {
    category: 'action',
    description: 'Moves the contact to a pipeline stage',
    branches: LINEAR,
    payload: closed({ pipeline_stage_uuid: uuid('Contact pipeline stage') }),
    references: one('pipeline_stage', 'pipeline_stage_uuid'),
  },
  gs_change_sender_profile: {
    category: 'action',
    description: 'Switches the sender of the contact',
    branches: LINEAR,
    payload: closed({ sender_profile_uuid: uuid('Sender profile') }),
    references: one('sender_profile', 'sender_profile_uuid'),
  },
  gs_rotate_sender_profile: {
    category: 'action',
    description: 'Restarts the contact from the top with the next sender of a contact source',
    branches: LINEAR,
    payload: closed({
      rotations: Type.Array(
        closed({ contact_source_id: Type.Integer({ description: 'Contact source id' }) }),
        {
          minItems: 1,
          maxItems: 20,
          description: 'Contact sources of this version whose senders rotate',
        },
      ),
    }),
  },
  gs_continue_automation: {
    category: 'action',
    description: 'Releases the contact held at util_hodor nodes of other flows',
    branches: LINEAR,
    payload: noPayload,
  },
  gs_remove_from_all_automations: {
    category: 'action',
    description: 'Cancels the contact in the named flows (null: in every other flow)',
    branches: LINEAR,
    payload: closed({
      flow_uuids: opt(nullable(Type.Array(uuid('Flow'), { maxItems: 100, description: 'Flows' }))),
    }),
    references: (payload) =>
      (Array.isArray(payload.flow_uuids) ? payload.flow_uuids : []).map((value, index) => ({
        kind: 'flow' as const,
        uuid: String(value),
        path: `payload.flow_uuids.${index}`,
      })),
  },
  gs_send_to_flow: {
    category: 'control',
    description: 'Enrols the contact in another flow as well',
    branches: LINEAR,
    payload: closed({ flow_uuid: uuid('Flow the contact is enrolled in (not this one)') }),
    references: one('flow', 'flow_uuid'),
  },
  gs_call_api: {
    category: 'action',
    description: 'Calls an HTTP API',
    branches: LINEAR,
    payload: closed({
      method: Type.Union(
        ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => Type.Literal(m)),
        {
          description: 'HTTP method',
        },
      ),
      endpoint: Type.String({ minLength: 1, maxLength: 2048, description: 'URL (Liquid template)' }),
      headers: opt(Type.Record(Type.String(), Type.Unknown(), { description: 'Headers' })),
      query: opt(Type.Record(Type.String(), Type.Unknown(), { description: 'Query parameters' })),
      post: opt(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON body' })),
      timeout_secs: opt(Type.Integer({ minimum: 1, maximum: 300, description: 'Timeout, seconds' })),
      auto_retry_on_errors: opt(Type.Boolean({ description: 'Retry failed calls' })),
      should_remove_empty_values: opt(Type.Boolean({ description: 'Drop empty values from the body' })),
      api_call_account_uuid: opt(nullable(uuid('Stored credentials'))),
    }),
    references: one('api_call_account', 'api_call_account_uuid'),
    texts: callApiTexts,
  },
  gs_trigger_custom_webhook: {
    category: 'action',
    description: 'Delivers the contact to one of your webhooks',
    branches: LINEAR,
    payload: closed({ webhook_uuid: uuid('Webhook') }),
    references: one('webhook', 'webhook_uuid'),
  },
  integration_export_to_crm: {
    category: 'action',
    description: 'Exports the contact to a connected CRM',
    branches: LINEAR,
    payload: closed({ integration_uuid: uuid('CRM integration') }),
    references: one('integration', 'integration_uuid'),
  },
  phone_call_phone: {
    category: 'action',
    description: 'A phone call for a person to make',
    branches: LINEAR,
    payload: closed({ note: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Instructions'))) }),
  },
  gs_enqueue_for_enrichment: {
    category: 'action',
    description: 'Queues the contact for enrichment',
    branches: LINEAR,
    payload: closed({
      run_settings: opt(
        Type.Union([Type.Literal('all_contacts'), Type.Literal('outdated_only')], {
          description: 'Enrich every contact, or only those enriched longer ago than the threshold',
        }),
      ),
      outdated_older_than_in_seconds: opt(seconds('Threshold for outdated_only')),
    }),
  },
  end: {
    category: 'terminal',
    description: 'The end of a branch: the enrollment finishes here',
    branches: { kind: 'none' },
    payload: noPayload,
  },
  custom: {
    category: 'special',
    description: 'A placeholder the editor keeps for types it does not know; contacts pass through it',
    branches: LINEAR,
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'Anything' }),
  },
};

export const NODE_TYPE_NAMES = Object.keys(NODE_TYPES);

export function nodeType(type: string): NodeType | undefined {
  return Object.hasOwn(NODE_TYPES, type) ? NODE_TYPES[type] : undefined;
}
