// util_hodor: holds contacts until continue-automation (or a gs_continue_automation node) releases them.
import { Type } from 'typebox';
import { defineNode } from './define.js';
import { closed, LINEAR, opt, waitOf } from './payload.js';

const HOLD = defineNode({
  types: {
    util_hodor: 'Holds contacts until continue-automation (or a gs_continue_automation node) releases them',
  },
  category: 'hold',
  branches: LINEAR,
  payload: closed({
    is_open: opt(Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1 = let contacts pass' })),
  }),
  run(work, node) {
    const task = work.task;
    if (!task) {
      if (node.payload.is_open === 1) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
      return { type: 'wait', nextRunAt: null, wait: { kind: 'hold' }, task: {} };
    }
    if (task.status !== 'in_progress') return { type: 'advance', branch: 1 };
    const wait = waitOf(work.fl.wait);
    if (wait.released === true) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
    return { type: 'wait', nextRunAt: null, wait };
  },
});

export const HOLD_NODES = [HOLD];
