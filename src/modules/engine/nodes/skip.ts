// Nodes Leadflow keeps in a flow but does not act on (no CRM integration, no LinkedIn search from a
// flow, the editor's placeholder): a skipped task saying why, and the contact moves on by branch 1.
import { Type } from 'typebox';
import type { WorkStep } from '../run/work.js';
import { defineNode } from './define.js';
import { closed, LINEAR, nullable, one, opt, skipped, uuid } from './payload.js';

const notSupported = (reason: string) => (): WorkStep => skipped('not_supported', reason);

const FIND_CONTACT = defineNode({
  types: { linkedin_find_contact: 'Searches LinkedIn and saves the people found to a list' },
  category: 'action',
  branches: LINEAR,
  needs: ['sender'],
  payload: closed({
    linkedin_filters: opt(Type.Array(Type.Unknown(), { maxItems: 100, description: 'Search filters' })),
    save_limit: opt(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Most people to save' })),
    list_uuid: opt(nullable(uuid('List the people found are saved to'))),
  }),
  references: one('list', 'list_uuid'),
  run: notSupported('Finding contacts on LinkedIn from a flow is not supported yet.'),
});

const EXPORT_TO_CRM = defineNode({
  types: { integration_export_to_crm: 'Exports the contact to a connected CRM' },
  category: 'action',
  branches: LINEAR,
  payload: closed({ integration_uuid: uuid('CRM integration') }),
  references: one('integration', 'integration_uuid'),
  run: notSupported('No CRM integration is configured in Leadflow; the contact was not exported.'),
});

const CUSTOM = defineNode({
  types: {
    custom: 'A placeholder the editor keeps for types it does not know; contacts pass through it',
  },
  category: 'special',
  branches: LINEAR,
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'Anything' }),
  run: notSupported('A custom node does nothing in Leadflow.'),
});

/** What the engine does at a node of a type no definition covers (a version saved by older code). */
export const unknownType = (type: string): WorkStep =>
  skipped('not_supported', `Node type "${type}" does nothing in Leadflow.`);

export const SKIP_NODES = [FIND_CONTACT, EXPORT_TO_CRM, CUSTOM];
