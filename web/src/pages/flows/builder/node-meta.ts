// How the builder names and groups node types and labels their branches. What a type is (category,
// branch ids, payload schema, description) comes from GET /flows/api/flow-versions/node-types; this file
// only adds words for people and the starting payload of a new node.
import type { NodeTypeInfo } from '../flow-types';
import type { Node } from './tree';

export type PaletteGroup = 'Actions' | 'Conditions' | 'Triggers' | 'CRM' | 'Utilities';
export const PALETTE_GROUPS: PaletteGroup[] = ['Actions', 'Conditions', 'Triggers', 'CRM', 'Utilities'];

/** The palette group of a type: the catalogue's category, with CRM steps apart from channel actions. */
export function groupOf(info: NodeTypeInfo): PaletteGroup | null {
  if (info.type === 'end' || info.category === 'special') return null;
  if (info.category === 'trigger') return 'Triggers';
  if (info.category === 'branch') return 'Conditions';
  if (info.category === 'delay' || info.category === 'hold' || info.category === 'control')
    return 'Utilities';
  if (info.type.startsWith('linkedin_') || info.type.startsWith('email_') || info.type.startsWith('phone_'))
    return 'Actions';
  if (info.type.startsWith('gs_') || info.type.startsWith('integration_')) return 'CRM';
  return 'Utilities';
}

const LABELS: Record<string, string> = {
  trigger_message_replied: 'Replied?',
  trigger_linkedin_connection_request_accepted: 'Invitation accepted?',
  trigger_email_opened: 'E-mail opened?',
  trigger_link_clicked: 'Link clicked?',
  trigger_website_page_visited: 'Website visited?',
  linkedin_send_connection_request: 'Connection request',
  linkedin_send_message: 'LinkedIn message',
  linkedin_send_inmail: 'InMail',
  linkedin_visit_profile: 'Visit profile',
  linkedin_like_latest_post: 'Like latest post',
  linkedin_comment_latest_post: 'Comment latest post',
  linkedin_endorse_skills: 'Endorse skills',
  linkedin_find_contact: 'Find contacts',
  linkedin_withdraw_connection_request: 'Withdraw request',
  email_send_message: 'E-mail',
  email_search_waterflow: 'Find e-mail address',
  rule_ab_test: 'A/B split',
  rule_filter: 'Filter',
  rule_manual_router: 'Manual router',
  ai_rule_filter: 'AI router',
  util_timer: 'Wait',
  util_hodor: 'Hold',
  gs_add_tag: 'Add tag',
  gs_remove_tag: 'Remove tag',
  gs_change_list: 'Change list',
  gs_change_pipeline_stage: 'Change stage',
  gs_change_sender_profile: 'Change sender',
  gs_rotate_sender_profile: 'Rotate sender',
  gs_continue_automation: 'Release held contacts',
  gs_remove_from_all_automations: 'Remove from all flows',
  gs_send_to_flow: 'Send to flow',
  gs_call_api: 'Call an API',
  gs_trigger_custom_webhook: 'Custom webhook',
  integration_export_to_crm: 'Export to CRM',
  phone_call_phone: 'Phone call',
  gs_enqueue_for_enrichment: 'Enrich contact',
  end: 'End',
};

export function labelOf(type: string): string {
  return LABELS[type] ?? type.replaceAll('_', ' ');
}

/** Node types whose payload holds a message text (the template editor edits those). */
export const MESSAGE_TYPES = new Set([
  'linkedin_send_connection_request',
  'linkedin_send_message',
  'linkedin_send_inmail',
  'linkedin_comment_latest_post',
  'email_send_message',
]);

/** LinkedIn's limit on a connection request note (the API accepts longer texts; LinkedIn does not). */
export const NOTE_LIMIT = 300;

const DAY = 86_400;
const timeout = (seconds: number) => ({
  subtasks: [{ type: 'util_timer', payload: { wait_time: seconds } }],
});

/** The payload a new node starts with: what its schema requires, filled with the usual choice. */
export function initialPayload(type: string): Record<string, unknown> {
  switch (type) {
    case 'trigger_linkedin_connection_request_accepted':
    case 'trigger_message_replied':
    case 'trigger_email_opened':
    case 'trigger_link_clicked':
      return timeout(7 * DAY);
    case 'trigger_website_page_visited':
      return { wait_time: 7 * DAY };
    case 'util_timer':
      return { wait_time: DAY };
    case 'rule_ab_test':
      return {
        branches: [
          { branch_id: 1, value: 50, is_enabled: true },
          { branch_id: 2, value: 50, is_enabled: true },
        ],
      };
    case 'rule_filter':
      return { branches: [{ branch_id: 1, filters: { mass_actions_filter: null } }, { branch_id: 0 }] };
    case 'rule_manual_router':
    case 'ai_rule_filter':
      return {
        branches: [
          { branch_id: 1, name: 'Yes' },
          { branch_id: 2, name: 'No' },
        ],
      };
    case 'linkedin_send_message':
    case 'linkedin_send_inmail':
    case 'email_send_message':
    case 'linkedin_comment_latest_post':
      return { template: '' };
    default:
      return {};
  }
}

/** The branch ids a node of this type needs, in the order the builder draws them. */
export function branchesOf(info: NodeTypeInfo | undefined, payload: Record<string, unknown>): number[] {
  if (!info) return [1];
  if (info.branches === 'payload') {
    const list = Array.isArray(payload.branches) ? (payload.branches as Array<{ branch_id?: unknown }>) : [];
    return list.map((b) => Number(b.branch_id)).filter((id) => Number.isInteger(id));
  }
  return info.branches;
}

function days(seconds: unknown): string {
  const s = Number(seconds);
  if (!Number.isFinite(s) || s <= 0) return '';
  if (s % DAY === 0) return `${s / DAY} day${s === DAY ? '' : 's'}`;
  if (s % 3600 === 0) return `${s / 3600} h`;
  return `${Math.round(s / 60)} min`;
}

function timeoutOf(node: Node): string {
  const subtasks = node.payload.subtasks as Array<{ payload?: { wait_time?: unknown } }> | undefined;
  const wait = subtasks?.[0]?.payload?.wait_time ?? node.payload.wait_time;
  const text = days(wait);
  return text ? ` within ${text}` : '';
}

/** The label of one branch of a node, as people read it. */
export function branchLabel(node: Node, branch: number): string {
  const named = (
    node.payload.branches as Array<{ branch_id?: number; name?: string | null; value?: number }> | undefined
  )?.find((b) => b.branch_id === branch);
  switch (node.type) {
    case 'trigger_linkedin_connection_request_accepted':
      return branch === 1 ? `accepted${timeoutOf(node)}` : `not accepted${timeoutOf(node)}`;
    case 'trigger_message_replied':
      return branch === 1 ? `replied${timeoutOf(node)}` : `no reply${timeoutOf(node)}`;
    case 'trigger_email_opened':
      return branch === 1 ? `opened${timeoutOf(node)}` : `not opened${timeoutOf(node)}`;
    case 'trigger_link_clicked':
      return branch === 1 ? `clicked${timeoutOf(node)}` : `not clicked${timeoutOf(node)}`;
    case 'trigger_website_page_visited':
      return branch === 1 ? 'visited' : `not visited${timeoutOf(node)}`;
    case 'rule_ab_test':
      return `${branch === 1 ? 'A' : 'B'} ${named?.value ?? 0}%`;
    case 'rule_filter':
      return branch === 1 ? 'matches filter' : 'else';
    case 'email_search_waterflow':
      return branch === 2 ? 'found' : 'not found';
    case 'rule_manual_router':
    case 'ai_rule_filter':
      return named?.name || `branch ${branch}`;
    default:
      return '';
  }
}

/** A short line under the node's title: what it will do. */
export function summaryOf(node: Node): string {
  const p = node.payload;
  if (typeof p.template === 'string' && p.template.trim()) return p.template.trim().slice(0, 80);
  if (p.template_uuid) return 'AI template';
  if (node.type === 'util_timer') return days(p.wait_time) || 'no wait';
  if (node.type.startsWith('trigger_'))
    return `waits up to ${days((p.subtasks as Array<{ payload?: { wait_time?: unknown } }> | undefined)?.[0]?.payload?.wait_time ?? p.wait_time) || 'the default time'}`;
  return '';
}

export function delayText(seconds: number | undefined): string {
  return days(seconds ?? 0);
}
