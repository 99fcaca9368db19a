// rule_ab_test: a weighted split between branches 1 and 2, deterministic per enrollment and node (a
// retry or a replay takes the same branch).
import { Type } from 'typebox';
import { uniform } from '../../../lib/rng.js';
import { defineNode } from './define.js';
import { closed, opt } from './payload.js';

const AB_TEST = defineNode({
  types: {
    rule_ab_test: 'Splits contacts at random between branches 1 and 2 by the enabled values (sum 100)',
  },
  category: 'branch',
  branches: { kind: 'fixed', ids: [1, 2] },
  payload: closed({
    branches: Type.Array(
      closed({
        value: Type.Integer({ minimum: 0, maximum: 100, description: 'Share of contacts, percent' }),
        branch_id: Type.Union([Type.Literal(1), Type.Literal(2)], { description: 'Branch 1 or 2' }),
        is_enabled: opt(Type.Boolean({ default: true, description: 'A disabled branch takes no one' })),
      }),
      { minItems: 2, maxItems: 2, description: 'Branches 1 and 2; enabled values sum to 100' },
    ),
  }),
  rules(payload) {
    const sum = payload.branches
      .filter((branch) => branch.is_enabled !== false)
      .reduce((total, branch) => total + branch.value, 0);
    return sum === 100
      ? []
      : [
          {
            field: 'payload.branches',
            message: `the values of the enabled branches must add up to 100 (they add up to ${sum}).`,
          },
        ];
  },
  run(work, node) {
    const branches = node.payload.branches.filter((b) => b.is_enabled !== false && b.value > 0);
    const total = branches.reduce((sum, b) => sum + b.value, 0);
    let pick: number = branches[0]?.branch_id ?? 1;
    let point = uniform('ab', work.fl.uuid, node.id) * total;
    for (const branch of branches) {
      point -= branch.value;
      if (point < 0) {
        pick = branch.branch_id;
        break;
      }
    }
    return { type: 'advance', branch: pick, outcome: { status: 'closed', fork_result: pick } };
  },
});

export const AB_TEST_NODES = [AB_TEST];
