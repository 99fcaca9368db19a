// CRM changes: tags, list, pipeline stage - each runs the contact mass action of the same meaning, so
// a flow changes a contact exactly as the API's mass action does (activities name the flow). The
// mass action is prepared once per batch (a Need) and applied to all its contacts when the batch
// commits.
import type { BatchContext, Work, WorkStep } from '../run/work.js';
import { defineNode, type ReferenceKind } from './define.js';
import { closed, LINEAR, one, uuid } from './payload.js';

function massAction(
  work: Work,
  ctx: BatchContext,
  massType: string,
  payload: Record<string, unknown>,
): WorkStep {
  const key = `${massType}:${JSON.stringify(payload)}`;
  const prepared = ctx.massActions.get(key);
  if (prepared === undefined) return { type: 'need', need: { kind: 'mass_action', key, massType, payload } };
  if (!prepared.ok) {
    return {
      type: 'advance',
      branch: 1,
      outcome: { status: 'skipped', automation_error_code: 'invalid_reference', error_msg: prepared.message },
    };
  }
  work.effects.push({ kind: 'mass_action', key, massType, payload, leadUuid: work.fl.lead_uuid });
  return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
}

function crm(
  type: string,
  description: string,
  field: { key: string; kind: ReferenceKind; description: string },
  massType: string,
) {
  return defineNode({
    types: { [type]: description },
    category: 'action',
    branches: LINEAR,
    needs: ['mass_action'],
    payload: closed({ [field.key]: uuid(field.description) }),
    references: one(field.kind, field.key),
    run: (work, node, ctx) => massAction(work, ctx, massType, { [field.key]: node.payload[field.key] }),
  });
}

export const CRM_NODES = [
  crm(
    'gs_add_tag',
    'Adds a tag to the contact',
    { key: 'tag_uuid', kind: 'tag', description: 'Tag' },
    'contact_add_tags',
  ),
  crm(
    'gs_remove_tag',
    'Removes a tag from the contact',
    { key: 'tag_uuid', kind: 'tag', description: 'Tag' },
    'contact_remove_tags',
  ),
  crm(
    'gs_change_list',
    'Moves the contact to a list',
    { key: 'list_uuid', kind: 'list', description: 'List' },
    'contact_change_list',
  ),
  crm(
    'gs_change_pipeline_stage',
    'Moves the contact to a pipeline stage',
    { key: 'pipeline_stage_uuid', kind: 'pipeline_stage', description: 'Contact pipeline stage' },
    'contact_change_pipeline_stage',
  ),
];
