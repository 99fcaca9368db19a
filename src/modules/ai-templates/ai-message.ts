// One AI template + one contact's scope → the message to send, and how it came about. The render endpoint
// answers it as is; the engine's message steps can call it for nodes that name a template_uuid.
//
//   no prompt:  the rendered body is the message (source "template").
//   prompt:     the rendered prompt (llm_instructions) goes to the LLM; its answer must pass the rules
//               (not empty, not too long, no leftover template markup) and, with enable_validation and a
//               validation_prompt, the LLM's own check. Two tries; the second is told why the first failed.
//               No valid answer: the rendered fallback_body (else body) when enable_fallback is on - or
//               when no LLM is configured at all - otherwise no message; handling_error says why.
import { AppError } from '../../lib/errors.js';
import type { ChatMessage, LlmClient } from '../llm/llm-client.js';
import { LlmError } from '../llm/llm-client.js';
import { renderTemplate, TemplateError } from '../templates/render/render.js';
import type { AiTemplateSettings, AiTemplateType, LlmConfig } from './ai-templates.tables.js';

export type AiTemplateFields = {
  type: AiTemplateType;
  subject: string | null;
  body: string | null;
  fallback_body: string | null;
  prompt: string | null;
  llm_config: LlmConfig | null;
  enable_validation: boolean;
  validation_prompt: string | null;
  validation_llm_config: LlmConfig | null;
  enable_fallback: boolean;
  settings: AiTemplateSettings | null;
};

export type ValidationStep = {
  attempt: number;
  ai_generated_body: string;
  valid: boolean;
  /** Why the answer was refused (null when valid). */
  reason: string | null;
  /** rules: length and markup checks; llm: the validation prompt's verdict. */
  checked_by: 'rules' | 'llm';
};

export type ComposedMessage = {
  llm_instructions: string | null;
  rendered_subject: string | null;
  rendered_body: string | null;
  ai_generated_body: string | null;
  fallback_body: string | null;
  handling_error: string | null;
  validation_history: ValidationStep[];
  /** The text to send, or null when there is none. */
  final_body: string | null;
  final_source: 'template' | 'ai' | 'fallback' | null;
  missing_variables: string[];
  unknown_variables: string[];
};

/** Longest acceptable AI text per type when settings.max_length is not set (LinkedIn's own limits). */
export const DEFAULT_MAX_LENGTH: Record<AiTemplateType, number | null> = {
  connection_note: 300,
  message: 8000,
  post_comment: 1250,
  email: null,
};

const WHAT: Record<AiTemplateType, string> = {
  message: 'a LinkedIn direct message',
  connection_note: 'a LinkedIn connection request note',
  email: 'the body of a sales e-mail (plain text)',
  post_comment: 'a comment on a LinkedIn post',
};

const ATTEMPTS = 2;

export async function composeMessage(
  template: AiTemplateFields,
  scope: Record<string, unknown>,
  /** `validationLlm`: the client of the validation call (default `llm`). */
  options: { llm: LlmClient; validationLlm?: LlmClient; seed?: string },
): Promise<ComposedMessage> {
  const missing = new Set<string>();
  const unknown = new Set<string>();
  const render = (field: 'subject' | 'body' | 'fallback_body' | 'prompt' | 'validation_prompt') => {
    const source = template[field];
    if (source === null || source === '') return null;
    try {
      // E-mail bodies are HTML: values printed into them are escaped.
      const escapeHtml = template.type === 'email' && (field === 'body' || field === 'fallback_body');
      const result = renderTemplate(source, scope, {
        ...(options.seed === undefined ? {} : { seed: `${options.seed}:${field}` }),
        ...(escapeHtml ? { escape: 'html' as const } : {}),
      });
      for (const name of result.missing) missing.add(name);
      for (const name of result.unknown) unknown.add(name);
      return result.text;
    } catch (error) {
      if (error instanceof TemplateError) {
        throw new AppError('validation_error', `${field}: ${error.message}`, {
          [field]: [`${field}: ${error.message}`],
        });
      }
      throw error;
    }
  };

  const renderedSubject = render('subject');
  const renderedBody = render('body');
  const fallback = render('fallback_body') ?? renderedBody;
  const answer = (parts: Partial<ComposedMessage>): ComposedMessage => ({
    llm_instructions: null,
    rendered_subject: renderedSubject,
    rendered_body: renderedBody,
    ai_generated_body: null,
    fallback_body: fallback,
    handling_error: null,
    validation_history: [],
    final_body: null,
    final_source: null,
    missing_variables: [...missing],
    unknown_variables: [...unknown],
    ...parts,
  });

  const instructions = render('prompt');
  if (instructions === null) {
    return renderedBody === null
      ? answer({ handling_error: 'The template has neither a body nor a prompt: there is nothing to send.' })
      : answer({ final_body: renderedBody, final_source: 'template' });
  }
  const validationInstructions =
    template.enable_validation && template.validation_prompt ? render('validation_prompt') : null;

  const history: ValidationStep[] = [];
  let generated: string | null = null;
  let problem: string | null = null;
  try {
    const maxLength = template.settings?.max_length ?? DEFAULT_MAX_LENGTH[template.type];
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(template.type, maxLength, renderedBody) },
      { role: 'user', content: instructions },
    ];
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      generated = (await options.llm.complete({ messages, ...llmOptions(template.llm_config) })).text;
      const step = await check(
        generated,
        attempt,
        maxLength,
        validationInstructions,
        template,
        options.validationLlm ?? options.llm,
      );
      history.push(step);
      if (step.valid) {
        return answer({
          llm_instructions: instructions,
          ai_generated_body: generated,
          validation_history: history,
          final_body: generated,
          final_source: 'ai',
        });
      }
      problem = `The AI answer was refused: ${step.reason}`;
      messages.push(
        { role: 'assistant', content: generated },
        { role: 'user', content: `That answer was refused (${step.reason}). Write it again, fixing that.` },
      );
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    problem = error.message;
  }

  const useFallback = (template.enable_fallback || !options.llm.configured) && fallback !== null;
  return answer({
    llm_instructions: instructions,
    ai_generated_body: generated,
    validation_history: history,
    handling_error: useFallback
      ? `${problem} The fallback was used.`
      : `${problem} ${fallback === null ? 'The template has no fallback text.' : 'enable_fallback is off, so nothing is sent.'}`,
    final_body: useFallback ? fallback : null,
    final_source: useFallback ? 'fallback' : null,
  });
}

function systemPrompt(type: AiTemplateType, maxLength: number | null, draft: string | null): string {
  const parts = [
    `You write ${WHAT[type]} for sales outreach. Answer with the text only: no quotes around it, no ` +
      'subject line, no placeholders like [Name] or {{first_name}}.',
  ];
  if (maxLength !== null) parts.push(`Stay under ${maxLength} characters.`);
  if (draft) parts.push(`The team's template for this message, to follow in tone and content:\n${draft}`);
  return parts.join(' ');
}

function llmOptions(config: LlmConfig | null) {
  return {
    ...(config?.model ? { model: config.model } : {}),
    ...(config?.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(config?.max_tokens === undefined ? {} : { max_tokens: config.max_tokens }),
    ...(config?.top_p === undefined ? {} : { top_p: config.top_p }),
  };
}

async function check(
  text: string,
  attempt: number,
  maxLength: number | null,
  validationInstructions: string | null,
  template: AiTemplateFields,
  llm: LlmClient,
): Promise<ValidationStep> {
  const step = (valid: boolean, reason: string | null, checkedBy: ValidationStep['checked_by']) => ({
    attempt,
    ai_generated_body: text,
    valid,
    reason,
    checked_by: checkedBy,
  });
  if (maxLength !== null && text.length > maxLength) {
    return step(false, `it is ${text.length} characters long, the limit is ${maxLength}`, 'rules');
  }
  if (/\{\{|\{%|\[(first ?name|name|company)\]/i.test(text)) {
    return step(false, 'it contains template placeholders', 'rules');
  }
  if (validationInstructions === null) return step(true, null, 'rules');
  const verdict = (
    await llm.complete({
      purpose: 'validation',
      messages: [
        {
          role: 'system',
          content:
            'You review a message before it is sent. Reply with the single word VALID, or with INVALID ' +
            'followed by the reason.',
        },
        { role: 'user', content: `${validationInstructions}\n\nThe message:\n${text}` },
      ],
      ...llmOptions(template.validation_llm_config ?? template.llm_config),
    })
  ).text;
  const valid = /^\W*valid\b/i.test(verdict);
  return step(
    valid,
    valid ? null : verdict.replace(/^\W*invalid\W*/i, '').trim() || 'the validator refused it',
    'llm',
  );
}
