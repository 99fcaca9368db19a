// How each node type of the catalogue behaves (the table in ../CONTEXT.md says the same in prose).
// The engine dispatches on the kind; unknown types behave as `skip`, so a node the engine does not
// know never strands a contact.
import { isActionType } from '../../channels/driver.js';
import type { SignalKind } from '../engine.tables.js';

export type NodeKind =
  /** An outreach action through the sender's channel: a task the dispatcher executes. */
  | 'action'
  /** Waits for something the contact does, up to a timeout: branch 1 if it happens, 2 if not. */
  | 'trigger'
  /** Waits a fixed time. */
  | 'timer'
  /** Waits until released (continue-automation). */
  | 'hold'
  /** A person picks the branch by completing the task. */
  | 'manual_router'
  /** Weighted split. */
  | 'ab_test'
  /** Branch 1 when the contact matches the filter at that moment, 0 otherwise. */
  | 'filter'
  /** Changes the contact in the CRM (tags, list, stage) through the contact mass actions. */
  | 'crm'
  /** Switches the enrollment's sender. */
  | 'sender'
  /** Acts on the contact's other enrollments (send to a flow, remove from flows, release holds). */
  | 'flow_control'
  /** Calls an outside HTTP endpoint. */
  | 'http'
  /** A to-do for a person; the contact moves on without waiting for it. */
  | 'todo'
  /** Queues the contact for LinkedIn enrichment (the enrichment module's queue and credits). */
  | 'enrichment'
  /** Needs an outside service not configured here: a documented fallback branch. */
  | 'fallback_branch'
  /** Nothing to do here (service not configured, or an unknown type): a skipped task, branch 1. */
  | 'skip'
  | 'end';

const KINDS: Record<string, NodeKind> = {
  trigger_message_replied: 'trigger',
  trigger_linkedin_connection_request_accepted: 'trigger',
  trigger_email_opened: 'trigger',
  trigger_link_clicked: 'trigger',
  trigger_website_page_visited: 'trigger',
  util_timer: 'timer',
  util_hodor: 'hold',
  rule_manual_router: 'manual_router',
  rule_ab_test: 'ab_test',
  rule_filter: 'filter',
  gs_add_tag: 'crm',
  gs_remove_tag: 'crm',
  gs_change_list: 'crm',
  gs_change_pipeline_stage: 'crm',
  gs_change_sender_profile: 'sender',
  gs_rotate_sender_profile: 'sender',
  gs_continue_automation: 'flow_control',
  gs_remove_from_all_automations: 'flow_control',
  gs_send_to_flow: 'flow_control',
  gs_call_api: 'http',
  gs_trigger_custom_webhook: 'flow_control',
  phone_call_phone: 'todo',
  email_search_waterflow: 'fallback_branch',
  ai_rule_filter: 'fallback_branch',
  integration_export_to_crm: 'skip',
  gs_enqueue_for_enrichment: 'enrichment',
  linkedin_find_contact: 'skip',
  custom: 'skip',
  end: 'end',
};

export function kindOf(type: string): NodeKind {
  if (isActionType(type)) return 'action';
  return KINDS[type] ?? 'skip';
}

/** Signals that fire each trigger, and from when they count. */
export const TRIGGER_SIGNALS: Record<string, { kinds: SignalKind[]; since: 'ever' | 'enrolled' }> = {
  trigger_linkedin_connection_request_accepted: { kinds: ['connection_accepted'], since: 'ever' },
  trigger_message_replied: {
    kinds: ['linkedin_replied', 'linkedin_inmail_replied', 'email_replied'],
    since: 'enrolled',
  },
  trigger_email_opened: { kinds: ['email_opened'], since: 'enrolled' },
  trigger_link_clicked: { kinds: ['link_clicked'], since: 'enrolled' },
  // No website tracking here: it waits its time and takes branch 2.
  trigger_website_page_visited: { kinds: [], since: 'enrolled' },
};

/** Why a `skip` node did nothing (recorded on its task). */
export const SKIP_REASONS: Record<string, string> = {
  integration_export_to_crm: 'No CRM integration is configured in Leadflow; the contact was not exported.',
  linkedin_find_contact: 'Finding contacts on LinkedIn from a flow is not supported yet.',
  custom: 'A custom node does nothing in Leadflow.',
};
