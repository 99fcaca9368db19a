// What the rest of Leadflow knows about LLMs: a chat completion behind a small interface. AI templates
// use it to write and check messages; the engine's ai_rule_filter node can use it to classify. The real
// client speaks the OpenAI chat-completions protocol (`openai-client.ts`); tests run it against a local
// stand-in server that speaks the same protocol (`llm.stand-in.ts`).

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type ChatRequest = {
  messages: ChatMessage[];
  /** Default: the configured model (LEADFLOW_LLM_MODEL). */
  model?: string;
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  /** What the call is for, recorded in the LLM log (default generation). */
  purpose?: 'generation' | 'validation';
};

/** Tokens the endpoint reported (0 when it reported none). */
export type TokenUsage = { prompt_tokens: number; completion_tokens: number };

export type ChatResult = { text: string; model: string; usage?: TokenUsage };

/** Why a call produced no text: the caller says so in its answer (AI templates: `handling_error`). */
export type LlmFailure = 'not_configured' | 'timeout' | 'http_error' | 'connection_error' | 'empty_answer';

export class LlmError extends Error {
  constructor(
    readonly failure: LlmFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

export interface LlmClient {
  /** false: no endpoint is configured; every call fails with `not_configured`. */
  readonly configured: boolean;
  /** Throws `LlmError` when there is no usable answer. Calls beyond the concurrency limit wait. */
  complete(request: ChatRequest): Promise<ChatResult>;
}

/** The client of a deployment without an LLM. */
export const noLlm: LlmClient = {
  configured: false,
  async complete() {
    throw new LlmError('not_configured', 'No LLM is configured (set LEADFLOW_LLM_BASE_URL).');
  },
};

/**
 * At most `limit` tasks at once, the others queued in order. Per process: N processes allow N x limit
 * calls, which is what an operator sizing an LLM endpoint per worker expects.
 */
export function concurrencyLimit(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}
