// The real client (openai SDK) against the local stand-in: the protocol, failures and the concurrency limit.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { type LlmStandIn, startLlmStandIn } from './llm.stand-in.js';
import { LlmError, noLlm } from './llm-client.js';
import { createLlmClient } from './openai-client.js';

let standIn: LlmStandIn;
beforeAll(async () => {
  standIn = await startLlmStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

const client = (env: Record<string, string> = {}) =>
  createLlmClient(
    loadConfig({ LEADFLOW_LLM_BASE_URL: standIn.url, LEADFLOW_LLM_MAX_RETRIES: '0', ...env }).llm,
  );

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('OpenAI-compatible LLM client', () => {
  it('sends the chat request with the key, the default model and the options, and returns the text', async () => {
    standIn.answer(() => ({ content: '  Hello Jane!  ' }));
    const llm = client({ LEADFLOW_LLM_API_KEY: 'sk-test', LEADFLOW_LLM_MODEL: 'local-model' });
    expect(llm.configured).toBe(true);
    const result = await llm.complete({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Greet Jane' },
      ],
      temperature: 0.2,
    });
    // The token counts are the stand-in's, as the LLM log records them.
    expect(result).toEqual({
      text: 'Hello Jane!',
      model: 'local-model',
      usage: { prompt_tokens: 4, completion_tokens: 2 },
    });
    expect(standIn.requests).toEqual([
      {
        model: 'local-model',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Greet Jane' },
        ],
        temperature: 0.2,
        authorization: 'Bearer sk-test',
      },
    ]);
    await llm.complete({ messages: [{ role: 'user', content: 'x' }], model: 'other', max_tokens: 5 });
    expect(standIn.requests[1]).toMatchObject({ model: 'other', max_tokens: 5 });
  });

  it('reports timeouts, HTTP errors, empty answers and unreachable endpoints as LlmError', async () => {
    standIn.answer(() => ({ content: 'late', delayMs: 1000 }));
    expect(
      (await failure(client({ LEADFLOW_LLM_TIMEOUT_MS: '150' }).complete({ messages: [] }))).failure,
    ).toBe('timeout');
    standIn.answer(() => ({ status: 503 }));
    const http = await failure(client().complete({ messages: [] }));
    expect(http.failure).toBe('http_error');
    expect(http.message).toMatch(/503/);
    standIn.answer(() => ({ content: '   ' }));
    expect((await failure(client().complete({ messages: [] }))).failure).toBe('empty_answer');
    const closed = createLlmClient(
      loadConfig({ LEADFLOW_LLM_BASE_URL: 'http://127.0.0.1:9/v1', LEADFLOW_LLM_MAX_RETRIES: '0' }).llm,
    );
    expect((await failure(closed.complete({ messages: [] }))).failure).toBe('connection_error');
  });

  it('retries a 5xx when told to', async () => {
    let calls = 0;
    standIn.answer(() => (++calls === 1 ? { status: 500 } : { content: 'second time' }));
    const result = await client({ LEADFLOW_LLM_MAX_RETRIES: '1' }).complete({ messages: [] });
    expect(result.text).toBe('second time');
    expect(calls).toBe(2);
  });

  it('holds the concurrency limit: extra calls wait their turn', async () => {
    standIn.answer(() => ({ content: 'ok', delayMs: 40 }));
    const llm = client({ LEADFLOW_LLM_CONCURRENCY: '3' });
    const results = await Promise.all(Array.from({ length: 12 }, () => llm.complete({ messages: [] })));
    expect(results.every((r) => r.text === 'ok')).toBe(true);
    expect(standIn.requests.length).toBe(12);
    expect(standIn.maxInFlight).toBe(3);
  });

  it('is noLlm without a base URL, failing every call with not_configured', async () => {
    const llm = createLlmClient(loadConfig({}).llm);
    expect(llm).toBe(noLlm);
    expect((await failure(llm.complete({ messages: [] }))).failure).toBe('not_configured');
  });

  it('refuses a base URL that is not http(s) at start', () => {
    expect(() => loadConfig({ LEADFLOW_LLM_BASE_URL: 'ftp://x' })).toThrow(
      /LEADFLOW_LLM_BASE_URL must be an http/,
    );
  });
});
