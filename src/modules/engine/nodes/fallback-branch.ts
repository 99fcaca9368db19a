// Branches that need an outside service Leadflow does not configure (e-mail finders, a language model):
// each takes a documented fallback branch and says why on its task.
import { Type } from 'typebox';
import { defineNode } from './define.js';
import { closed, LINKEDIN_TEXT_MAX, nullable, opt, text } from './payload.js';

const EMAIL_SEARCH = defineNode({
  types: {
    email_search_waterflow: 'Looks for an e-mail address: branch 2 found (and verified), branch 1 not found',
  },
  category: 'branch',
  branches: { kind: 'fixed', ids: [1, 2] },
  payload: closed({
    waterflow_sequence: opt(
      Type.Array(
        closed({
          provider: Type.Union(
            ['getsales', 'anymail_finder', 'hunter', 'findymail', 'email_list_verify'].map((p) =>
              Type.Literal(p),
            ),
            { description: 'Finder asked in this order' },
          ),
        }),
        { maxItems: 10, description: 'Providers asked in order until one finds an address' },
      ),
    ),
    verification_provider: opt(
      nullable(closed({ provider: Type.Literal('email_list_verify', { description: 'Verifier' }) })),
    ),
    accept_catch_all: opt(Type.Boolean({ description: 'Accept catch-all domains as found' })),
  }),
  run(work) {
    const found = Boolean(work.lead?.work_email || work.lead?.personal_email);
    const branch = found ? 2 : 1;
    return {
      type: 'advance',
      branch,
      outcome: {
        status: 'closed',
        fork_result: branch,
        error_msg: `E-mail search providers are not configured; ${found ? 'used the e-mail on the contact' : 'the contact has no e-mail'}.`,
      },
    };
  },
});

const AI_FILTER = defineNode({
  types: {
    ai_rule_filter: 'A language model routes each contact to a branch by its description (0 = none fits)',
  },
  category: 'branch',
  branches: { kind: 'payload' },
  payload: closed({
    branches: Type.Array(
      closed({
        branch_id: Type.Integer({ minimum: 0, maximum: 100, description: 'Branch id; 0 = no match' }),
        name: opt(nullable(text(255, 'Branch name'))),
        description: opt(nullable(text(LINKEDIN_TEXT_MAX, 'When a contact belongs here'))),
      }),
      { minItems: 1, maxItems: 20, description: 'The branches' },
    ),
    classification_instructions: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Instructions for the model'))),
  }),
  // Without a language model: the else branch.
  run: () => ({
    type: 'advance',
    branch: 0,
    outcome: {
      status: 'skipped',
      fork_result: 0,
      automation_error_code: 'llm_not_configured',
      error_msg: 'No language model is configured; the contact took the else branch (0).',
    },
  }),
});

export const FALLBACK_BRANCH_NODES = [EMAIL_SEARCH, AI_FILTER];
