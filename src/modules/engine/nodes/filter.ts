// rule_filter: branch 1 when the contact matches the filter at that moment, branch 0 otherwise. The
// contact filter (mass_actions_filter) is a Need the batch answers with one query per node and round;
// json_logic, when the editor stored one, is evaluated on the contact first.
import jsonLogic from 'json-logic-js';
import { type Static, Type } from 'typebox';
import type { Work } from '../run/work.js';
import { defineNode, type PayloadFilter } from './define.js';
import { closed, nullable, opt } from './payload.js';

const branch = closed({
  branch_id: Type.Union([Type.Literal(1), Type.Literal(0)], { description: '1 match, 0 else' }),
  filters: opt(
    closed({
      mass_actions_filter: opt(
        nullable(
          Type.Record(Type.String(), Type.Unknown(), {
            description: 'Contact filter (the contact search filter language) deciding the match',
          }),
        ),
      ),
      json_logic: opt(Type.Unknown({ description: 'The editor rendering; stored, not evaluated' })),
      filter_tree_format: opt(Type.Unknown({ description: 'The editor rendering; stored, not evaluated' })),
    }),
  ),
});

/** The branch whose filters decide the match (branch 1). */
const matchBranch = (branches: Array<Static<typeof branch>>) =>
  branches.find((b) => b.branch_id === 1) ?? branches[0];

function leadLogicData(work: Work): Record<string, unknown> {
  return { ...(work.lead ?? {}) } as Record<string, unknown>;
}

/** The contact filters of a payload as given (a save compiles each; read defensively). */
function payloadFilters(payload: Record<string, unknown>): PayloadFilter[] {
  if (!Array.isArray(payload.branches)) return [];
  return (payload.branches as Array<{ filters?: { mass_actions_filter?: unknown } }>)
    .map((b, index) => ({ filter: b.filters?.mass_actions_filter, index }))
    .filter(({ filter }) => filter)
    .map(({ filter, index }) => ({
      path: `payload.branches.${index}.filters.mass_actions_filter`,
      filter: filter as Record<string, unknown>,
    }));
}

const FILTER = defineNode({
  types: { rule_filter: 'Branch 1 when the contact matches the filter, branch 0 otherwise' },
  category: 'branch',
  branches: { kind: 'fixed', ids: [1, 0] },
  needs: ['filter'],
  payload: closed({
    branches: Type.Array(branch, {
      minItems: 2,
      maxItems: 2,
      description: 'Branch 1 with its filters, and branch 0 (else)',
    }),
  }),
  filters: payloadFilters,
  rules(payload) {
    const match = payload.branches.find((b) => b.branch_id === 1);
    const filter = match?.filters?.mass_actions_filter;
    return match && (filter === undefined || filter === null)
      ? [
          {
            field: 'payload.branches',
            message:
              'branch 1 needs filters.mass_actions_filter: the contact filter (the contact search language) a contact must match to take branch 1.',
          },
        ]
      : [];
  },
  run(work, node, ctx) {
    const filters = matchBranch(node.payload.branches)?.filters ?? {};
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
    const taken = matches ? 1 : 0;
    return { type: 'advance', branch: taken, outcome: { status: 'closed', fork_result: taken } };
  },
});

export const FILTER_NODES = [FILTER];
