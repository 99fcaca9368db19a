// The node machine: moves one claimed enrollment through its flow version until it has to wait (a
// delay, an action for the dispatcher, a trigger, a hold, a person) or ends. Pure over the batch
// context: it reads what the batch loaded and records tasks, effects and the new row state in the
// Work; the batch writes all of it in one transaction. A node whose decision needs the database or
// the network returns a Need; the batch answers every Need of a round at once and runs it again.
import { newId } from '../../../lib/ids.js';
import { addDelay, isValidTimeZone } from '../../../lib/schedule.js';
import { nodeDefinition } from '../nodes/registry.js';
import { unknownType } from '../nodes/skip.js';
import type { EngineNode } from '../version.js';
import type { BatchContext, NewTask, TaskOutcome, TaskRow, Work, WorkStep } from './work.js';

/** Node visits per claim: a tree without delays finishes in one claim, a loop cannot spin. */
export const MAX_VISITS_PER_CLAIM = 50;

function isNewTask(task: TaskRow | NewTask | undefined): task is NewTask {
  return task !== undefined && !('team_id' in task);
}

/** One visit: the node's definition decides, on the payload its version checked once. */
function visit(work: Work, node: EngineNode, ctx: BatchContext): WorkStep {
  const definition = nodeDefinition(node.type);
  if (!definition) return unknownType(node.type);
  if (node.payloadError !== undefined) {
    const message = `The node's payload does not match its type: ${node.payloadError}`;
    return {
      type: 'end',
      status: 'failed',
      reason: 'invalid_payload',
      outcome: { status: 'failed', automation_error_code: 'invalid_payload', error_msg: message },
    };
  }
  return definition.run(work, node, ctx);
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

export { aiTemplateOf } from '../nodes/actions.js';
