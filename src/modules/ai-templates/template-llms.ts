// The LLM clients of one template's render: its llm_uuid for the text, its validation_llm_uuid (else the
// same) for the check - each resolved by the team's LLMs (a named connection, else the team's default,
// else LEADFLOW_LLM_*) and logged with what the call was for.
import type { LlmClient } from '../llm/llm-client.js';
import type { LlmCallContext, TeamLlms } from '../llm/team-llms.js';

export type TemplateLlmNames = { llm_uuid: string | null; validation_llm_uuid: string | null };

/** The connections a render uses: the inline fields of the request over the saved template's. */
export function pickLlms(
  saved: Partial<TemplateLlmNames> | undefined,
  input: Partial<TemplateLlmNames>,
): TemplateLlmNames {
  const pick = (key: keyof TemplateLlmNames) =>
    Object.hasOwn(input, key) ? (input[key] ?? null) : (saved?.[key] ?? null);
  return { llm_uuid: pick('llm_uuid'), validation_llm_uuid: pick('validation_llm_uuid') };
}

export async function templateLlms(
  llms: TeamLlms,
  names: TemplateLlmNames,
  context: Omit<LlmCallContext, 'llmUuid'>,
): Promise<{ llm: LlmClient; validationLlm: LlmClient }> {
  const llm = await llms.clientFor({ ...context, llmUuid: names.llm_uuid });
  const validationLlm =
    names.validation_llm_uuid && names.validation_llm_uuid !== names.llm_uuid
      ? await llms.clientFor({ ...context, llmUuid: names.validation_llm_uuid })
      : llm;
  return { llm, validationLlm };
}
