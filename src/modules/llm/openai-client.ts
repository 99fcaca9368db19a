// The real LLM client: the openai SDK against any OpenAI-compatible chat-completions endpoint (OpenAI,
// Azure-compatible gateways, vLLM, Ollama, LiteLLM...). Timeouts, retries and the concurrency limit
// come from the configuration.
import OpenAI from 'openai';
import type { Config } from '../../config.js';
import {
  type ChatRequest,
  type ChatResult,
  concurrencyLimit,
  type LlmClient,
  LlmError,
  noLlm,
} from './llm-client.js';

/** The server-wide settings (LEADFLOW_LLM_*), or a team's connection over them; `fetch`: a guarded one. */
export type LlmSettings = Config['llm'] & { fetch?: typeof globalThis.fetch };

export function createLlmClient(config: LlmSettings): LlmClient {
  if (!config.baseUrl) return noLlm;
  const sdk = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers often need no key; the SDK insists on one.
    apiKey: config.apiKey ?? 'none',
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
  const limit = concurrencyLimit(config.concurrency);

  return {
    configured: true,
    complete: (request: ChatRequest) =>
      limit(async (): Promise<ChatResult> => {
        const model = request.model ?? config.model;
        let completion: OpenAI.Chat.Completions.ChatCompletion;
        try {
          completion = await sdk.chat.completions.create({
            model,
            messages: request.messages,
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
            ...(request.max_tokens === undefined ? {} : { max_tokens: request.max_tokens }),
            ...(request.top_p === undefined ? {} : { top_p: request.top_p }),
          });
        } catch (error) {
          throw describeFailure(error, config.timeoutMs);
        }
        const text = completion.choices?.[0]?.message?.content?.trim() ?? '';
        if (!text) throw new LlmError('empty_answer', `The LLM (${model}) answered with no text.`);
        return {
          text,
          model: completion.model ?? model,
          usage: {
            prompt_tokens: completion.usage?.prompt_tokens ?? 0,
            completion_tokens: completion.usage?.completion_tokens ?? 0,
          },
        };
      }),
  };
}

function describeFailure(error: unknown, timeoutMs: number): LlmError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmError('timeout', `The LLM did not answer within ${timeoutMs} ms.`, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new LlmError('connection_error', `The LLM endpoint could not be reached: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    return new LlmError(
      'http_error',
      `The LLM endpoint answered ${error.status ?? 'an error'}: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  return new LlmError('connection_error', `The LLM call failed: ${String(error)}`, { cause: error });
}
