// phone_call_phone: a to-do for a person (a manual task); the contact moves on without waiting for it.
import { defineNode } from './define.js';
import { closed, LINEAR, LINKEDIN_TEXT_MAX, nullable, opt, text } from './payload.js';

const PHONE_CALL = defineNode({
  types: { phone_call_phone: 'A phone call for a person to make' },
  category: 'action',
  branches: LINEAR,
  payload: closed({ note: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Instructions'))) }),
  run(work, node, ctx) {
    return {
      type: 'advance',
      branch: 1,
      outcome: { status: 'in_progress' },
      newTaskExtra: {
        automation: 'manual',
        note: node.payload.note ?? null,
        sender_profile_uuid: work.fl.sender_profile_uuid,
        schedule_at: ctx.now,
      },
    };
  },
});

export const TODO_NODES = [PHONE_CALL];
