// util_timer: waits wait_time seconds (whole days are calendar days in the effective zone).
import { addDelay } from '../../../lib/schedule.js';
import { defineNode } from './define.js';
import { closed, LINEAR, seconds, waitOf } from './payload.js';

const TIMER = defineNode({
  types: { util_timer: 'Waits wait_time seconds' },
  category: 'delay',
  branches: LINEAR,
  payload: closed({ wait_time: seconds('How long to wait') }),
  run(work, node, ctx) {
    const task = work.task;
    if (!task) {
      const until = addDelay(ctx.now, node.payload.wait_time, ctx.scheduleOf(work).zone);
      if (until <= ctx.now) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
      return {
        type: 'wait',
        nextRunAt: until,
        wait: { kind: 'timer', until: until.toISOString() },
        task: { schedule_at: until },
      };
    }
    if (task.status !== 'in_progress') return { type: 'advance', branch: 1 };
    const wait = waitOf(work.fl.wait);
    const until = new Date(String(wait.until ?? task.schedule_at ?? ctx.now.toISOString()));
    if (ctx.now >= until) return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
    return { type: 'wait', nextRunAt: until, wait };
  },
});

export const TIMER_NODES = [TIMER];
