// Nodes that act on the contact's other enrollments or hand the contact to something outside the flow:
// release holds elsewhere, end other enrollments, enrol in another flow, deliver to one webhook. Each
// records an effect the batch applies for all its contacts when it commits.
import { Type } from 'typebox';
import { defineNode } from './define.js';
import { closed, closedStep, LINEAR, noPayload, nullable, one, opt, skipped, uuid } from './payload.js';

const CONTINUE_AUTOMATION = defineNode({
  types: { gs_continue_automation: 'Releases the contact held at util_hodor nodes of other flows' },
  category: 'action',
  branches: LINEAR,
  payload: noPayload,
  run(work) {
    work.effects.push({ kind: 'release_holds', leadUuid: work.fl.lead_uuid, except: work.fl.uuid });
    return closedStep();
  },
});

const REMOVE_FROM_ALL = defineNode({
  types: {
    gs_remove_from_all_automations: 'Cancels the contact in the named flows (null: in every other flow)',
  },
  category: 'action',
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
  run(work, node) {
    work.effects.push({
      kind: 'end_others',
      leadUuid: work.fl.lead_uuid,
      except: work.fl.uuid,
      flowUuids: node.payload.flow_uuids ?? null,
    });
    return closedStep();
  },
});

const SEND_TO_FLOW = defineNode({
  types: { gs_send_to_flow: 'Enrols the contact in another flow as well' },
  category: 'control',
  branches: LINEAR,
  payload: closed({ flow_uuid: uuid('Flow the contact is enrolled in (not this one)') }),
  references: one('flow', 'flow_uuid'),
  rules(payload, context) {
    return context.flowUuid && payload.flow_uuid.toLowerCase() === context.flowUuid
      ? [
          {
            field: 'payload.flow_uuid',
            message: 'payload.flow_uuid names this flow; a contact is never enrolled twice in a flow.',
          },
        ]
      : [];
  },
  run(work, node, ctx) {
    const flow = node.payload.flow_uuid.toLowerCase();
    if (flow === work.fl.flow_uuid || !ctx.flowTargets.has(flow)) {
      return skipped(
        'invalid_reference',
        `Flow ${flow || '(none)'} does not exist, is archived or is this flow.`,
      );
    }
    work.effects.push({ kind: 'send_to_flow', leadUuid: work.fl.lead_uuid, flowUuid: flow });
    return closedStep();
  },
});

const CUSTOM_WEBHOOK = defineNode({
  types: { gs_trigger_custom_webhook: 'Delivers the contact to one of your webhooks' },
  category: 'action',
  branches: LINEAR,
  payload: closed({ webhook_uuid: uuid('Webhook') }),
  references: one('webhook', 'webhook_uuid'),
  run(work, node, ctx) {
    const webhook = node.payload.webhook_uuid.toLowerCase();
    if (!ctx.webhookTargets.has(webhook)) {
      return skipped('invalid_reference', `Webhook ${webhook || '(none)'} does not exist or is off.`);
    }
    work.effects.push({ kind: 'custom_webhook', leadUuid: work.fl.lead_uuid, webhookUuid: webhook });
    return closedStep();
  },
});

export const FLOW_CONTROL_NODES = [CONTINUE_AUTOMATION, REMOVE_FROM_ALL, SEND_TO_FLOW, CUSTOM_WEBHOOK];
