// Every node type a flow version may hold, gathered from the kind files beside this one. The flows
// module validates saved nodes against it (tree validation, validate-node, node-types, the preview's
// draft) and the engine's machine runs it, so a type is known to both or to neither. To add a node,
// see docs/recipes.md ("Add a node").
import { Type } from 'typebox';
import { compileBodyValidator } from '../../../http/validation.js';
import { AB_TEST_NODES } from './ab-test.js';
import { ACTION_NODES } from './actions.js';
import { CRM_NODES } from './crm.js';
import type { AnyNodeDefinition } from './define.js';
import { END_NODES } from './end.js';
import { ENRICHMENT_NODES } from './enrichment.js';
import { FALLBACK_BRANCH_NODES } from './fallback-branch.js';
import { FILTER_NODES } from './filter.js';
import { FLOW_CONTROL_NODES } from './flow-control.js';
import { HOLD_NODES } from './hold.js';
import { HTTP_NODES } from './http.js';
import { MANUAL_ROUTER_NODES } from './manual-router.js';
import { SENDER_NODES } from './sender.js';
import { SKIP_NODES } from './skip.js';
import { TIMER_NODES } from './timer.js';
import { TODO_NODES } from './todo.js';
import { TRIGGER_NODES } from './triggers.js';

export const NODE_DEFINITIONS: readonly AnyNodeDefinition[] = [
  ...TRIGGER_NODES,
  ...ACTION_NODES,
  ...AB_TEST_NODES,
  ...FILTER_NODES,
  ...MANUAL_ROUTER_NODES,
  ...FALLBACK_BRANCH_NODES,
  ...TIMER_NODES,
  ...HOLD_NODES,
  ...CRM_NODES,
  ...SENDER_NODES,
  ...FLOW_CONTROL_NODES,
  ...HTTP_NODES,
  ...TODO_NODES,
  ...ENRICHMENT_NODES,
  ...SKIP_NODES,
  ...END_NODES,
] as readonly AnyNodeDefinition[];

/**
 * The order the node-types listing (and the OpenAPI description of a node's type) has always named the
 * types in, kept so neither changes; a type added later is listed after these, in registry order.
 */
const LISTING_ORDER = [
  'trigger_message_replied',
  'trigger_linkedin_connection_request_accepted',
  'trigger_email_opened',
  'trigger_link_clicked',
  'trigger_website_page_visited',
  'linkedin_send_connection_request',
  'linkedin_send_message',
  'linkedin_send_inmail',
  'linkedin_visit_profile',
  'linkedin_like_latest_post',
  'linkedin_comment_latest_post',
  'linkedin_endorse_skills',
  'linkedin_find_contact',
  'linkedin_withdraw_connection_request',
  'email_send_message',
  'email_search_waterflow',
  'rule_ab_test',
  'rule_filter',
  'rule_manual_router',
  'ai_rule_filter',
  'util_timer',
  'util_hodor',
  'gs_add_tag',
  'gs_remove_tag',
  'gs_change_list',
  'gs_change_pipeline_stage',
  'gs_change_sender_profile',
  'gs_rotate_sender_profile',
  'gs_continue_automation',
  'gs_remove_from_all_automations',
  'gs_send_to_flow',
  'gs_call_api',
  'gs_trigger_custom_webhook',
  'integration_export_to_crm',
  'phone_call_phone',
  'gs_enqueue_for_enrichment',
  'end',
  'custom',
];

const BY_TYPE = new Map<string, AnyNodeDefinition>();
for (const definition of NODE_DEFINITIONS) {
  for (const type of Object.keys(definition.types)) {
    if (BY_TYPE.has(type)) throw new Error(`Node type ${type} is defined twice`);
    BY_TYPE.set(type, definition);
  }
}

const rank = (type: string) => {
  const index = LISTING_ORDER.indexOf(type);
  return index === -1 ? LISTING_ORDER.length : index;
};

/** Every node type, in listing order. */
export const NODE_TYPE_NAMES: readonly string[] = [...BY_TYPE.keys()].sort((a, b) => rank(a) - rank(b));

export function nodeDefinition(type: string): AnyNodeDefinition | undefined {
  return BY_TYPE.get(type);
}

const validators = new Map<AnyNodeDefinition, ReturnType<typeof compileBodyValidator>>();

/**
 * The compiled check of `{payload}` against the definition's payload schema, with the request
 * validator's settings (formats, defaults, error wording): the flows module reports its errors, the
 * engine checks each payload of a version with it once, when it compiles the version.
 */
export function payloadValidator(definition: AnyNodeDefinition) {
  let check = validators.get(definition);
  if (!check) {
    check = compileBodyValidator(
      Type.Object({ payload: definition.payload }, { additionalProperties: false }),
    );
    validators.set(definition, check);
  }
  return check;
}
