// rule_manual_router: a person routes each contact to one of the named branches by completing the
// node's task (fork_result); a skipped task takes branch 0 when there is one.
import { Type } from 'typebox';
import { defineNode } from './define.js';
import { closed, LINKEDIN_TEXT_MAX, nullable, opt, text, waitOf } from './payload.js';

const MANUAL_ROUTER = defineNode({
  types: { rule_manual_router: 'A person routes each contact to one of the named branches' },
  category: 'branch',
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
  run(work, node, ctx) {
    const task = work.task;
    if (!task) {
      const sender = work.fl.sender_profile_uuid ? ctx.senders.get(work.fl.sender_profile_uuid) : undefined;
      return {
        type: 'wait',
        nextRunAt: null,
        wait: { kind: 'manual' },
        task: {
          automation: 'manual',
          note: node.payload.note ?? null,
          sender_profile_uuid: sender?.uuid ?? null,
          payload: { branches: node.payload.branches, note: node.payload.note ?? null },
        },
      };
    }
    const ids = node.payload.branches.map((branch) => branch.branch_id);
    switch (task.status) {
      case 'closed':
        return { type: 'advance', branch: task.fork_result ?? ids[0] ?? 1 };
      case 'skipped':
        return { type: 'advance', branch: ids.includes(0) ? 0 : (ids[0] ?? 1) };
      case 'canceled':
      case 'failed':
        return { type: 'end', status: 'canceled', reason: 'task_canceled' };
      default:
        return { type: 'wait', nextRunAt: null, wait: waitOf(work.fl.wait) };
    }
  },
});

export const MANUAL_ROUTER_NODES = [MANUAL_ROUTER];
