// The node machine: moves one claimed enrollment through its flow version until it has to wait (a
// delay, an action for the dispatcher, a trigger, a hold, a person) or ends. Pure over the batch
// context: it reads what the batch loaded and records tasks, effects and the new row state in the
// Work; the batch writes all of it in one transaction. A node whose decision needs the database or
// the network returns a Need; the batch answers every Need of a round at once and runs it again.
import jsonLogic from 'json-logic-js';
import { newId } from '../../../lib/ids.js';
import { uniform } from '../../../lib/rng.js';
import { addDelay, isValidTimeZone, nextOpenInstant } from '../../../lib/schedule.js';
import { channelOf, isActionType, TEXT_ACTIONS } from '../../channels/driver.js';
import { kindOf, SKIP_REASONS, TRIGGER_SIGNALS } from '../nodes/catalog.js';
import type { ComposedAction } from '../render.js';
import type { EngineNode } from '../version.js';
import type { BatchContext, NewTask, TaskOutcome, TaskRow, Work, WorkStep } from './work.js';

/** Node visits per claim: a tree without delays finishes in one claim, a loop cannot spin. */
export const MAX_VISITS_PER_CLAIM = 50;

const num = (value: unknown, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
};

function waitOf(work: Work): Record<string, unknown> {
  return (work.fl.wait ?? {}) as Record<string, unknown>;
}

function isNewTask(task: TaskRow | NewTask | undefined): task is NewTask {
  return task !== undefined && !('team_id' in task);
}

// ---- node handlers: (work, node, context) -> what happens next ----

function action(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const task = work.task;
  if (task) {
    switch (task.status) {
      case 'closed':
      case 'skipped':
        return { type: 'advance', branch: 1 };
      case 'failed':
        return { type: 'end', status: 'failed', reason: task.automation_error_code ?? 'action_failed' };
      case 'canceled':
        return { type: 'end', status: 'canceled', reason: 'task_canceled' };
      default:
        // Still the dispatcher's: keep waiting (a spurious wake-up).
        return {
          type: 'wait',
          nextRunAt: null,
          wait: { kind: 'action', channel: channelOf(node.type as never) },
          dispatch: { channel: channelOf(node.type as never), at: task.schedule_at ?? ctx.now },
        };
    }
  }
  const senderUuid = work.fl.sender_profile_uuid;
  if (!senderUuid) return { type: 'need', need: { kind: 'sender' } };
  const sender = ctx.senders.get(senderUuid);
  if (!sender) {
    // The sender was deleted since it was assigned: rotate again.
    work.fl.sender_profile_uuid = null;
    return { type: 'need', need: { kind: 'sender' } };
  }
  if (sender.status !== 'enabled') return { type: 'pause', reason: 'sender_disabled' };
  const { schedule, zone } = ctx.scheduleOf(work);
  const planned = nextOpenInstant(schedule, ctx.now, zone);
  if (!planned) return { type: 'pause', reason: 'schedule_has_no_window' };
  const aiTemplate = aiTemplateOf(node);
  const rendered = aiTemplate ? ctx.composed.get(`${work.fl.uuid}:${node.id}`) : ctx.render(work, node);
  if (!rendered) return { type: 'need', need: { kind: 'message', node } };
  if (rendered.error) return templateFailure(rendered.error);
  const fallbackSend = node.payload.fallback_send === true || node.payload.fallback_send === 1;
  if (rendered.missing.length > 0 && !fallbackSend) {
    return {
      type: 'advance',
      branch: 1,
      outcome: {
        status: 'skipped',
        automation_error_code: 'missing_variables',
        error_msg: `The template uses values this contact does not have (${rendered.missing.join(', ')}) and fallback_send is off.`,
      },
    };
  }
  const blank = blankText(node, rendered, fallbackSend);
  if (blank) return templateFailure(blank);
  const channel = channelOf(node.type as never);
  return {
    type: 'wait',
    nextRunAt: null,
    wait: { kind: 'action', channel },
    dispatch: { channel, at: planned },
    task: {
      schedule_at: planned,
      timezone: zone,
      sender_profile_uuid: senderUuid,
      payload: {
        ...node.payload,
        template: node.payload.template ?? null,
        rendered_text: isBlank(rendered.text) ? null : rendered.text,
        rendered_subject: rendered.subject,
        missing_variables: rendered.missing,
        ...(aiTemplate
          ? { message_source: rendered.source ?? null, message_note: rendered.note ?? null }
          : {}),
      },
    },
  };
}

/** A text that cannot be sent fails the step, visibly: the task and the enrollment say why. */
function templateFailure(reason: string): WorkStep {
  return {
    type: 'end',
    status: 'failed',
    reason: 'template_error',
    outcome: { status: 'failed', automation_error_code: 'template_error', error_msg: reason },
  };
}

const isBlank = (text: string | null | undefined) => !text || text.trim() === '';

/**
 * Why a rendered action has nothing to send, if it has not: a message, InMail, comment or e-mail
 * without text, or a subject or connection note written in the node that rendered blank for this
 * contact (a note may go without its text when fallback_send says so; no subject at all is an e-mail
 * reply in its thread).
 */
function blankText(node: EngineNode, rendered: ComposedAction, fallbackSend: boolean): string | undefined {
  const written = (value: unknown) => typeof value === 'string' && value.trim() !== '';
  if (TEXT_ACTIONS.has(node.type) && isBlank(rendered.text)) {
    return written(node.payload.template) || aiTemplateOf(node)
      ? 'The text rendered empty for this contact; nothing was sent.'
      : 'The node has no text to send (payload.template or payload.template_uuid).';
  }
  if (aiTemplateOf(node)) return undefined;
  if (written(node.payload.template) && isBlank(rendered.text) && !fallbackSend) {
    return 'payload.template rendered empty for this contact and fallback_send is off; nothing was sent.';
  }
  if (written(node.payload.subject) && isBlank(rendered.subject)) {
    return 'payload.subject rendered empty for this contact; nothing was sent.';
  }
  return undefined;
}

function triggerWaitSeconds(node: EngineNode, ctx: BatchContext): number {
  const subtasks = Array.isArray(node.payload.subtasks) ? node.payload.subtasks : [];
  for (const subtask of subtasks) {
    const s = subtask as { type?: string; payload?: { wait_time?: unknown } };
    if (s?.type === 'util_timer' && s.payload?.wait_time !== undefined) {
      return Math.max(0, num(s.payload.wait_time, ctx.defaults.triggerWaitSeconds));
    }
  }
  if (node.payload.wait_time !== undefined) return Math.max(0, num(node.payload.wait_time, 0));
  return ctx.defaults.triggerWaitSeconds;
}

function signalHappened(work: Work, node: EngineNode, ctx: BatchContext): boolean {
  const rule = TRIGGER_SIGNALS[node.type];
  if (!rule || rule.kinds.length === 0) return false;
  const since = rule.since === 'ever' ? 0 : (work.fl.started_at ?? work.fl.created_at).getTime();
  const sender = work.fl.sender_profile_uuid;
  return (ctx.signals.get(work.fl.lead_uuid) ?? []).some(
    (signal) =>
      rule.kinds.includes(signal.kind) &&
      signal.occurred_at.getTime() >= since &&
      (!sender || !signal.sender_profile_uuid || signal.sender_profile_uuid === sender),
  );
}

function trigger(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const task = work.task;
  const happened = { status: 'closed', fork_result: 1 } as const;
  if (!task) {
    if (signalHappened(work, node, ctx)) return { type: 'advance', branch: 1, outcome: happened };
    const deadline = addDelay(ctx.now, triggerWaitSeconds(node, ctx), ctx.scheduleOf(work).zone);
    if (deadline <= ctx.now)
      return { type: 'advance', branch: 2, outcome: { status: 'closed', fork_result: 2 } };
    return {
      type: 'wait',
      nextRunAt: deadline,
      wait: { kind: 'trigger', deadline: deadline.toISOString() },
      task: { schedule_at: deadline },
    };
  }
  if (task.status !== 'in_progress') return { type: 'advance', branch: task.fork_result ?? 1 };
  if (waitOf(work).happened === true || signalHappened(work, node, ctx)) {
    return { type: 'advance', branch: 1, outcome: happened };
  }
  const deadline = new Date(String(waitOf(work).deadline ?? task.schedule_at ?? ctx.now.toISOString()));
  if (ctx.now >= deadline)
    return { type: 'advance', branch: 2, outcome: { status: 'closed', fork_result: 2 } };
  return { type: 'wait', nextRunAt: deadline, wait: waitOf(work) };
}

function timer(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const task = work.task;
  if (!task) {
    const until = addDelay(ctx.now, Math.max(0, num(node.payload.wait_time, 0)), ctx.scheduleOf(work).zone);
    if (until <= ctx.now) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
    return {
      type: 'wait',
      nextRunAt: until,
      wait: { kind: 'timer', until: until.toISOString() },
      task: { schedule_at: until },
    };
  }
  if (task.status !== 'in_progress') return { type: 'advance', branch: 1 };
  const until = new Date(String(waitOf(work).until ?? task.schedule_at ?? ctx.now.toISOString()));
  if (ctx.now >= until) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
  return { type: 'wait', nextRunAt: until, wait: waitOf(work) };
}

function hold(work: Work, node: EngineNode): WorkStep {
  const open = node.payload.is_open === 1 || node.payload.is_open === true;
  const task = work.task;
  if (!task) {
    if (open) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
    return { type: 'wait', nextRunAt: null, wait: { kind: 'hold' }, task: {} };
  }
  if (task.status !== 'in_progress') return { type: 'advance', branch: 1 };
  if (waitOf(work).released === true) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
  return { type: 'wait', nextRunAt: null, wait: waitOf(work) };
}

function branchIds(node: EngineNode): number[] {
  const branches = Array.isArray(node.payload.branches) ? node.payload.branches : [];
  const ids = branches
    .map((b) => Number((b as { branch_id?: unknown }).branch_id))
    .filter((id) => Number.isInteger(id));
  return ids.length > 0 ? ids : node.after.map((edge) => Number(edge.branch_id));
}

function manualRouter(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const task = work.task;
  if (!task) {
    const sender = work.fl.sender_profile_uuid ? ctx.senders.get(work.fl.sender_profile_uuid) : undefined;
    return {
      type: 'wait',
      nextRunAt: null,
      wait: { kind: 'manual' },
      task: {
        automation: 'manual',
        note: typeof node.payload.note === 'string' ? node.payload.note : null,
        sender_profile_uuid: sender?.uuid ?? null,
        payload: { branches: node.payload.branches ?? [], note: node.payload.note ?? null },
      },
    };
  }
  const ids = branchIds(node);
  switch (task.status) {
    case 'closed': {
      const chosen = task.fork_result ?? ids[0] ?? 1;
      return { type: 'advance', branch: chosen };
    }
    case 'skipped':
      return { type: 'advance', branch: ids.includes(0) ? 0 : (ids[0] ?? 1) };
    case 'canceled':
    case 'failed':
      return { type: 'end', status: 'canceled', reason: 'task_canceled' };
    default:
      return { type: 'wait', nextRunAt: null, wait: waitOf(work) };
  }
}

function abTest(work: Work, node: EngineNode): WorkStep {
  const branches = (Array.isArray(node.payload.branches) ? node.payload.branches : [])
    .map((b) => b as { branch_id?: unknown; value?: unknown; is_enabled?: unknown })
    .filter((b) => b.is_enabled !== false && num(b.value, 0) > 0);
  const total = branches.reduce((sum, b) => sum + num(b.value, 0), 0);
  let pick = Number(branches[0]?.branch_id ?? 1);
  // Deterministic per enrollment and node: a retry or a replay takes the same branch.
  let point = uniform('ab', work.fl.uuid, node.id) * total;
  for (const branch of branches) {
    point -= num(branch.value, 0);
    if (point < 0) {
      pick = Number(branch.branch_id);
      break;
    }
  }
  return { type: 'advance', branch: pick, outcome: { status: 'closed', fork_result: pick } };
}

type FilterBranch = {
  branch_id?: unknown;
  filters?: { json_logic?: unknown; mass_actions_filter?: unknown };
};

function matchBranch(node: EngineNode): FilterBranch | undefined {
  const branches = (Array.isArray(node.payload.branches) ? node.payload.branches : []) as FilterBranch[];
  return branches.find((b) => Number(b.branch_id) === 1) ?? branches[0];
}

export function leadLogicData(work: Work): Record<string, unknown> {
  return { ...(work.lead ?? {}) } as Record<string, unknown>;
}

function filter(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const filters = matchBranch(node)?.filters ?? {};
  let matches = true;
  if (filters.json_logic && typeof filters.json_logic === 'object') {
    try {
      matches = Boolean(jsonLogic.apply(filters.json_logic as never, leadLogicData(work)));
    } catch (error) {
      return {
        type: 'advance',
        branch: 0,
        outcome: {
          status: 'closed',
          fork_result: 0,
          error_msg: `json_logic could not be evaluated: ${(error as Error).message}`,
        },
      };
    }
  }
  if (matches && filters.mass_actions_filter && typeof filters.mass_actions_filter === 'object') {
    const result = ctx.filterResults.get(`${work.fl.uuid}:${node.id}`);
    if (result === undefined) return { type: 'need', need: { kind: 'filter', node } };
    matches = result;
  }
  const branch = matches ? 1 : 0;
  return { type: 'advance', branch, outcome: { status: 'closed', fork_result: branch } };
}

const CRM_MASS_ACTIONS: Record<string, { type: string; key: string }> = {
  gs_add_tag: { type: 'contact_add_tags', key: 'tag_uuid' },
  gs_remove_tag: { type: 'contact_remove_tags', key: 'tag_uuid' },
  gs_change_list: { type: 'contact_change_list', key: 'list_uuid' },
  gs_change_pipeline_stage: { type: 'contact_change_pipeline_stage', key: 'pipeline_stage_uuid' },
};

function crm(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const mapping = CRM_MASS_ACTIONS[node.type];
  if (!mapping) return skip(node);
  const payload = { [mapping.key]: node.payload[mapping.key] };
  const key = `${mapping.type}:${JSON.stringify(payload)}`;
  const prepared = ctx.massActions.get(key);
  if (prepared === undefined) {
    return { type: 'need', need: { kind: 'mass_action', key, massType: mapping.type, payload } };
  }
  if (!prepared.ok) {
    return {
      type: 'advance',
      branch: 1,
      outcome: { status: 'skipped', automation_error_code: 'invalid_reference', error_msg: prepared.message },
    };
  }
  work.effects.push({
    kind: 'mass_action',
    key,
    massType: mapping.type,
    payload,
    leadUuid: work.fl.lead_uuid,
  });
  return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
}

function senderNode(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  if (node.type === 'gs_change_sender_profile') {
    const uuid = String(node.payload.sender_profile_uuid ?? '').toLowerCase();
    if (!ctx.senders.has(uuid)) {
      return {
        type: 'advance',
        branch: 1,
        outcome: {
          status: 'skipped',
          automation_error_code: 'invalid_reference',
          error_msg: `Sender profile ${uuid || '(none)'} does not exist.`,
        },
      };
    }
    work.fl.sender_profile_uuid = uuid;
    return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
  }
  // gs_rotate_sender_profile: another sender of the named sources, then from the top of the first.
  const rotations = (Array.isArray(node.payload.rotations) ? node.payload.rotations : []) as Array<{
    contact_source_id?: unknown;
  }>;
  const sources = rotations
    .map((r) => work.version?.sources.get(Number(r.contact_source_id)))
    .filter((s) => s !== undefined);
  const current = work.fl.sender_profile_uuid;
  const candidates = [...new Set(sources.flatMap((s) => s.sender_profiles))]
    .map((uuid) => uuid.toLowerCase())
    .filter((uuid) => uuid !== current && ctx.senders.get(uuid)?.status === 'enabled')
    .sort();
  const entry = sources[0]?.after_id;
  if (candidates.length === 0 || entry === null || entry === undefined) {
    return {
      type: 'advance',
      branch: 1,
      outcome: {
        status: 'skipped',
        automation_error_code: 'no_sender',
        error_msg: 'No other enabled sender in the rotation; the contact keeps its sender.',
      },
    };
  }
  const pick = candidates[Math.floor(uniform('rotate', work.fl.uuid, node.id) * candidates.length)] as string;
  work.fl.sender_profile_uuid = pick;
  return { type: 'jump', nodeId: Number(entry), outcome: { status: 'closed' } };
}

function flowControl(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const lead = work.fl.lead_uuid;
  switch (node.type) {
    case 'gs_continue_automation':
      work.effects.push({ kind: 'release_holds', leadUuid: lead, except: work.fl.uuid });
      break;
    case 'gs_remove_from_all_automations': {
      const flows = Array.isArray(node.payload.flow_uuids) ? node.payload.flow_uuids.map(String) : null;
      work.effects.push({ kind: 'end_others', leadUuid: lead, except: work.fl.uuid, flowUuids: flows });
      break;
    }
    case 'gs_send_to_flow': {
      const flow = String(node.payload.flow_uuid ?? '').toLowerCase();
      if (flow === work.fl.flow_uuid || !ctx.flowTargets.has(flow)) {
        return {
          type: 'advance',
          branch: 1,
          outcome: {
            status: 'skipped',
            automation_error_code: 'invalid_reference',
            error_msg: `Flow ${flow || '(none)'} does not exist, is archived or is this flow.`,
          },
        };
      }
      work.effects.push({ kind: 'send_to_flow', leadUuid: lead, flowUuid: flow });
      break;
    }
    case 'gs_trigger_custom_webhook': {
      const webhook = String(node.payload.webhook_uuid ?? '').toLowerCase();
      if (!ctx.webhookTargets.has(webhook)) {
        return {
          type: 'advance',
          branch: 1,
          outcome: {
            status: 'skipped',
            automation_error_code: 'invalid_reference',
            error_msg: `Webhook ${webhook || '(none)'} does not exist or is off.`,
          },
        };
      }
      work.effects.push({ kind: 'custom_webhook', leadUuid: lead, webhookUuid: webhook });
      break;
    }
  }
  return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
}

function http(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const result = ctx.httpResults.get(`${work.fl.uuid}:${node.id}`);
  if (!result) return { type: 'need', need: { kind: 'http', node } };
  // The call's result is on the task; the contact moves on either way.
  return { type: 'advance', branch: 1, outcome: result };
}

function todo(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  return {
    type: 'advance',
    branch: 1,
    outcome: { status: 'in_progress' },
    newTaskExtra: {
      automation: 'manual',
      note: typeof node.payload.note === 'string' ? node.payload.note : null,
      sender_profile_uuid: work.fl.sender_profile_uuid,
      schedule_at: ctx.now,
    },
  };
}

function fallbackBranch(work: Work, node: EngineNode): WorkStep {
  if (node.type === 'email_search_waterflow') {
    const found = Boolean(work.lead?.work_email || work.lead?.personal_email);
    const branch = found ? 2 : 1;
    return {
      type: 'advance',
      branch,
      outcome: {
        status: 'closed',
        fork_result: branch,
        error_msg: `E-mail search providers are not configured; ${found ? 'used the e-mail on the contact' : 'the contact has no e-mail'}.`,
      },
    };
  }
  // ai_rule_filter without a language model: the else branch.
  return {
    type: 'advance',
    branch: 0,
    outcome: {
      status: 'skipped',
      fork_result: 0,
      automation_error_code: 'llm_not_configured',
      error_msg: 'No language model is configured; the contact took the else branch (0).',
    },
  };
}

/**
 * gs_enqueue_for_enrichment: the contact goes into the enrichment queue when the batch commits (one
 * credit reserved; blacklisted contacts, contacts without a LinkedIn reference and contacts already
 * queued are left out, `outdated_only` leaves out contacts enriched within the threshold). The contact
 * moves on at once; the queue entry says what became of it.
 */
function enrichment(work: Work, node: EngineNode): WorkStep {
  const outdatedOnly = node.payload.run_settings === 'outdated_only';
  const threshold = Number(node.payload.outdated_older_than_in_seconds ?? 2_592_000);
  work.effects.push({
    kind: 'enqueue_enrichment',
    leadUuid: work.fl.lead_uuid,
    olderThanSeconds: outdatedOnly && Number.isFinite(threshold) ? threshold : null,
  });
  return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
}

function skip(node: EngineNode): WorkStep {
  return {
    type: 'advance',
    branch: 1,
    outcome: {
      status: 'skipped',
      automation_error_code: 'not_supported',
      error_msg: SKIP_REASONS[node.type] ?? `Node type "${node.type}" does nothing in Leadflow.`,
    },
  };
}

function visit(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  switch (kindOf(node.type)) {
    case 'action':
      return action(work, node, ctx);
    case 'trigger':
      return trigger(work, node, ctx);
    case 'timer':
      return timer(work, node, ctx);
    case 'hold':
      return hold(work, node);
    case 'manual_router':
      return manualRouter(work, node, ctx);
    case 'ab_test':
      return abTest(work, node);
    case 'filter':
      return filter(work, node, ctx);
    case 'crm':
      return crm(work, node, ctx);
    case 'sender':
      return senderNode(work, node, ctx);
    case 'flow_control':
      return flowControl(work, node, ctx);
    case 'http':
      return http(work, node, ctx);
    case 'todo':
      return todo(work, node, ctx);
    case 'fallback_branch':
      return fallbackBranch(work, node);
    case 'enrichment':
      return enrichment(work, node);
    case 'end':
      return { type: 'end', status: 'finished', reason: 'completed', outcome: { status: 'closed' } };
    default:
      return skip(node);
  }
}

// ---- applying a step to the work ----

function newTask(work: Work, node: EngineNode, _ctx: BatchContext, fields: Partial<NewTask>): NewTask {
  const task: NewTask = {
    uuid: newId(),
    step: work.fl.step,
    flow_node_id: node.id,
    type: node.type,
    automation: 'auto',
    status: 'in_progress',
    payload: null,
    fork_result: null,
    error_msg: null,
    automation_error_code: null,
    schedule_at: null,
    executed_at: null,
    sender_profile_uuid: work.fl.sender_profile_uuid,
    timezone: null,
    note: null,
    ...fields,
  };
  work.newTasks.push(task);
  work.task = task;
  return task;
}

/** Records `outcome` on the current step's task, creating the task when the step has none. */
function recordOutcome(
  work: Work,
  node: EngineNode,
  ctx: BatchContext,
  outcome: TaskOutcome,
  extra: Partial<NewTask> = {},
) {
  const executedAt = outcome.status === 'in_progress' ? null : ctx.now;
  const task = work.task;
  if (!task) {
    newTask(work, node, ctx, {
      ...extra,
      status: outcome.status,
      fork_result: outcome.fork_result ?? null,
      error_msg: outcome.error_msg ?? null,
      automation_error_code: outcome.automation_error_code ?? null,
      executed_at: executedAt,
    });
    return;
  }
  if (isNewTask(task)) {
    Object.assign(task, { ...outcome, executed_at: executedAt });
    return;
  }
  work.taskChanges.push({ uuid: task.uuid, ...outcome, executed_at: executedAt });
}

function moveTo(work: Work, next: EngineNode | undefined, ctx: BatchContext): void {
  if (!next) {
    // A branch that leads nowhere ends like an end node (validation prevents it in saved versions).
    end(work, 'finished', 'completed', ctx);
    return;
  }
  work.fl.step += 1;
  work.fl.flow_node_id = next.id;
  work.fl.wait = null;
  work.task = undefined;
  const due = addDelay(ctx.now, next.delay_in_seconds, ctx.scheduleOf(work).zone);
  if (due > ctx.now) {
    work.fl.next_run_at = due;
    work.blocked = true;
  }
}

function end(work: Work, status: 'finished' | 'canceled' | 'failed', reason: string, ctx: BatchContext) {
  work.fl.status = status;
  work.fl.reason = reason;
  work.fl.next_run_at = null;
  work.fl.wait = null;
  work.fl.finished_at = ctx.now;
  work.blocked = true;
}

/** Ends the enrollment before visiting any node (flow gone, contact gone...). */
export function endWork(
  work: Work,
  status: 'finished' | 'canceled' | 'failed',
  reason: string,
  ctx: BatchContext,
) {
  end(work, status, reason, ctx);
}

/** Runs `work` until it waits, ends, or needs something the batch must fetch. */
export function advance(work: Work, ctx: BatchContext): void {
  work.need = undefined;
  while (!work.blocked) {
    if (work.visits >= MAX_VISITS_PER_CLAIM) {
      // A loop of zero-delay nodes: come back in a minute instead of spinning.
      work.fl.next_run_at = new Date(ctx.now.getTime() + 60_000);
      work.blocked = true;
      return;
    }
    const node = work.version?.nodes.get(work.fl.flow_node_id ?? -1);
    if (!node) {
      end(work, 'canceled', 'node_removed', ctx);
      return;
    }
    const step = visit(work, node, ctx);
    switch (step.type) {
      case 'need':
        work.need = step.need;
        return;
      case 'advance':
        work.visits += 1;
        if (step.outcome) recordOutcome(work, node, ctx, step.outcome, step.newTaskExtra);
        moveTo(work, work.version?.next(node.id, step.branch), ctx);
        break;
      case 'jump':
        work.visits += 1;
        recordOutcome(work, node, ctx, step.outcome);
        moveTo(work, work.version?.nodes.get(step.nodeId), ctx);
        break;
      case 'wait':
        if (!work.task && step.task) newTask(work, node, ctx, step.task);
        work.fl.wait = step.wait;
        work.fl.next_run_at = step.nextRunAt;
        if (step.dispatch) work.dispatch = step.dispatch;
        work.blocked = true;
        return;
      case 'pause':
        work.fl.status = 'paused';
        work.fl.reason = step.reason;
        work.fl.next_run_at = null;
        work.blocked = true;
        return;
      case 'end':
        work.visits += 1;
        if (step.outcome) recordOutcome(work, node, ctx, step.outcome);
        end(work, step.status, step.reason, ctx);
        return;
    }
  }
}

export function effectiveZone(timezone: string | null | undefined, fallback: string): string {
  return isValidTimeZone(timezone) ? timezone : fallback;
}

export { isActionType };

/** The saved AI template an action node composes its message from (`template_uuid`), if any. */
export function aiTemplateOf(node: EngineNode): string | undefined {
  const uuid = node.payload.template_uuid;
  return typeof uuid === 'string' && uuid !== '' ? uuid.toLowerCase() : undefined;
}
