// POST /ai/api/ask: a one-shot question to the team's LLM (its default connection, or the one named,
// else LEADFLOW_LLM_*), optionally about one contact: its fields, company and custom fields go with the
// question. Logged like every call (source ask).
import { type Static, Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { Uuid, withExample } from '../../http/schemas.js';
import { invalidField } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { ChatMessage } from '../llm/llm-client.js';
import { requireLlmConnection, type TeamLlms } from '../llm/team-llms.js';
import { loadContactTemplateData } from '../templates/template-data.repository.js';
import { answerOf } from './llms.service.js';

export const AskBody = withExample(
  Type.Object(
    {
      question: Type.String({ minLength: 1, maxLength: 20_000, description: 'The question or instruction' }),
      context: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description:
            'Anything the model should know, sent along as JSON; a lead_uuid in it names the contact ' +
            '(like lead_uuid)',
        }),
      ),
      lead_uuid: Type.Optional(Uuid('A contact of yours: its fields, company and custom fields go along')),
      llm_uuid: Type.Optional(Uuid("One of your LLM connections (default: the team's default)")),
    },
    { additionalProperties: false },
  ),
  { question: 'Write a short opener for this contact.', lead_uuid: '0190f000-0000-7000-8000-000000000001' },
);

const SYSTEM =
  'You are the assistant of a sales outreach platform. Answer the question directly and briefly. ' +
  'Use the contact and context given, and say so when they do not hold what is asked.';

export function createAsk(deps: { db: Database; llms: TeamLlms }) {
  return async (teamId: number, input: Static<typeof AskBody>) => {
    await requireLlmConnection(deps.db, teamId, input.llm_uuid, 'llm_uuid');
    const fromContext = input.context?.lead_uuid;
    const [leadUuid, field] =
      input.lead_uuid !== undefined
        ? [input.lead_uuid, 'lead_uuid']
        : fromContext !== undefined
          ? [fromContext, 'context.lead_uuid']
          : [undefined, undefined];
    const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
    if (leadUuid !== undefined) {
      const contact = isUuid(leadUuid)
        ? (await loadContactTemplateData(deps.db, teamId, [leadUuid])).get(leadUuid)
        : undefined;
      if (!contact)
        throw invalidField(field!, `${field}: no contact of yours has the UUID ${String(leadUuid)}.`);
      messages.push({ role: 'user', content: `The contact:\n${JSON.stringify(contact)}` });
    }
    if (input.context && Object.keys(input.context).length > 0) {
      messages.push({ role: 'user', content: `Context:\n${JSON.stringify(input.context)}` });
    }
    messages.push({ role: 'user', content: input.question });
    const client = await deps.llms.clientFor({
      teamId,
      source: 'ask',
      llmUuid: input.llm_uuid ?? null,
      leadUuid: typeof leadUuid === 'string' ? leadUuid : null,
    });
    const answer = await answerOf(client, messages);
    return { answer: answer.text, ...answer };
  };
}
