// The AI API through the real app: a team's LLM connection (played by the local OpenAI-compatible
// stand-in) with its key sealed, tested, used by templates, ask and generate, every call in the LLM log;
// agents; team scoping; the outbound guard on base URLs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { type LlmStandIn, startLlmStandIn } from '../llm/llm.stand-in.js';

let standIn: LlmStandIn;
let guarded: TestContext;
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let jane: string;
const KEY = 'sk-team-secret-4242';

beforeAll(async () => {
  standIn = await startLlmStandIn();
  // The stand-in listens on loopback, which the guard refuses unless the operator opens it.
  ctx = await createTestContext({
    env: {
      LEADFLOW_OUTBOUND_ALLOW_PRIVATE: 'true',
      LEADFLOW_LLM_TIMEOUT_MS: '2000',
      LEADFLOW_LLM_MAX_RETRIES: '0',
    },
  });
  guarded = await createTestContext();
  [alice, bob] = [await ctx.createUser(), await ctx.createUser()];
  const list = await makeList(ctx.db, alice.teamId);
  const res = await ctx.request(alice, {
    method: 'POST',
    url: '/leads/api/leads',
    payload: {
      list_uuid: list.uuid,
      leads: [{ first_name: 'Jane', last_name: 'Smith', company_name: 'Acme' }],
    },
  });
  jane = res.json()[0].uuid;
});
afterAll(async () => {
  await ctx.close();
  await guarded.close();
  await standIn.close();
});
beforeEach(() => standIn.reset());

const call = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  user = alice,
) => {
  const res = await ctx.request(user, { method, url, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body === '' ? null : res.json() };
};

async function connect(payload: object = {}) {
  const res = await call('POST', '/ai/api/llms', {
    name: 'Stand-in',
    provider: 'openai_compatible',
    base_url: standIn.url,
    model: 'team-model',
    provider_api_token: KEY,
    ...payload,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('LLM connections', () => {
  it('seals the key, never answers it, and makes the first connection the default', async () => {
    const llm = await connect();
    expect(llm).toMatchObject({
      provider: 'openai_compatible',
      model: 'team-model',
      has_api_key: true,
      is_default: true,
    });
    expect(llm.api_key_last4).toBe('4242');
    expect(JSON.stringify(llm)).not.toContain(KEY);
    const stored = await ctx.db
      .selectFrom('llms')
      .select('api_key_sealed')
      .where('uuid', '=', llm.uuid)
      .executeTakeFirstOrThrow();
    expect(stored.api_key_sealed).not.toContain(KEY);
    const listed = await call('GET', '/ai/api/llms');
    expect(JSON.stringify(listed.body)).not.toContain(KEY);
    const openai = await call('POST', '/ai/api/llms', {
      name: 'OpenAI',
      provider: 'openai',
      provider_api_token: 'sk-x',
    });
    expect(openai.body).toMatchObject({
      base_url: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      is_default: false,
    });
    expect((await call('DELETE', `/ai/api/llms/${openai.body.uuid}`)).status).toBe(204);
  });

  it('tests the connection with the sealed key as Bearer token and logs the call', async () => {
    const llm = (await call('GET', '/ai/api/llms?filter[is_default]=true')).body.data[0];
    const test = await call('POST', `/ai/api/llms/${llm.uuid}/test`);
    expect(test.body).toMatchObject({ status: 'succeeded', error: null, model: 'team-model' });
    expect(standIn.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    expect((await call('GET', `/ai/api/llms/${llm.uuid}`)).body.last_test_status).toBe('succeeded');
    standIn.answer(() => ({ status: 500 }));
    const failed = await call('POST', `/ai/api/llms/${llm.uuid}/test`);
    expect(failed.body.status).toBe('failed');
    const logs = await call('GET', `/ai/api/llm-logs?filter[source]=test&filter[llm_uuid]=${llm.uuid}`);
    expect(logs.body.data.map((l: { status: string }) => l.status).sort()).toEqual(['failed', 'succeeded']);
  });

  it('generates, counts and logs tokens, and answers 503 when the endpoint fails', async () => {
    const llm = (await call('GET', '/ai/api/llms?filter[is_default]=true')).body.data[0];
    const generated = await call('POST', `/ai/api/llms/${llm.uuid}/generate`, {
      job_type: 'ai_template',
      messages: [{ role: 'user', content: 'Say hello to Jane' }],
      config: { model: 'other-model', temperature: 0.2 },
    });
    expect(generated.status).toBe(200);
    expect(generated.body).toMatchObject({
      text: 'Generated: Say hello to Jane',
      model: 'other-model',
      tokens_in: 4,
      tokens_out: 5,
      llm_uuid: llm.uuid,
    });
    expect(standIn.requests.at(-1)).toMatchObject({ model: 'other-model', temperature: 0.2 });
    standIn.answer(() => ({ status: 500 }));
    const failed = await call('POST', `/ai/api/llms/${llm.uuid}/generate`, {
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(failed.status).toBe(503);
    const metrics = await call('POST', '/ai/api/llms/metrics', { uuids: [llm.uuid] });
    expect(metrics.body[llm.uuid]).toMatchObject({
      tokens_in: expect.any(Number),
      failed: expect.any(Number),
    });
    expect(metrics.body[llm.uuid].calls).toBe(
      metrics.body[llm.uuid].succeeded + metrics.body[llm.uuid].failed,
    );
    expect(metrics.body[llm.uuid].tokens_in).toBeGreaterThanOrEqual(4);
    const log = (
      await call('GET', '/ai/api/llm-logs?filter[source]=generate&order_field=created_at&order_type=asc')
    ).body.data[0];
    expect(log).toMatchObject({
      model: 'other-model',
      status: 'succeeded',
      tokens_in: 4,
      tokens_out: 5,
      answer: 'Generated: Say hello to Jane',
    });
    expect(log.messages).toEqual([{ role: 'user', content: 'Say hello to Jane' }]);
    expect((await call('GET', `/ai/api/llm-logs/${log.uuid}`)).body.uuid).toBe(log.uuid);
    expect((await call('GET', `/ai/api/llm-logs/${log.uuid}`, undefined, bob)).status).toBe(404);
  });

  it('is used by template renders (with variables too) and by ask, each call logged with what it was for', async () => {
    const template = await call('POST', '/ai/api/templates', {
      name: 'Opener',
      prompt: 'Write to {{first_name}} at {{company_name}}',
      body: 'Hi {{first_name}}',
    });
    const rendered = await call('POST', `/ai/api/templates/${template.body.uuid}/render`, {
      variables: { first_name: 'Ola', company_name: 'Nordic', 'sender.first_name': 'Max' },
    });
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    expect(rendered.body).toMatchObject({
      rendered_body: 'Hi Ola',
      llm_instructions: 'Write to Ola at Nordic',
      final_source: 'ai',
    });
    expect(standIn.requests.at(-1)?.model).toBe('team-model');
    const asked = await call('POST', '/ai/api/ask', {
      question: 'What does she do?',
      context: { lead_uuid: jane },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.answer).toBe('Generated: What does she do?');
    expect(standIn.requests.at(-1)?.messages.some((m) => m.content.includes('Jane'))).toBe(true);
    const renders = await call('GET', `/ai/api/llm-logs?filter[ai_template_uuid]=${template.body.uuid}`);
    expect(renders.body.data[0]).toMatchObject({ source: 'template_render', purpose: 'generation' });
    const asks = await call('GET', '/ai/api/llm-logs?filter[source]=ask');
    expect(asks.body.data[0]).toMatchObject({ lead_uuid: jane, status: 'succeeded' });
  });

  it('keeps teams apart: another team\u2019s connection is a 404, as a reference a 422', async () => {
    const llm = (await call('GET', '/ai/api/llms?filter[is_default]=true')).body.data[0];
    for (const [method, suffix] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/test'],
    ] as const) {
      const res = await call(
        method,
        `/ai/api/llms/${llm.uuid}${suffix}`,
        method === 'PUT' ? { name: 'x' } : undefined,
        bob,
      );
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    const template = await call('POST', '/flows/api/ai-templates', { name: 'x', llm_uuid: llm.uuid }, bob);
    expect(template.status).toBe(422);
    expect(template.body.error.data).toHaveProperty('llm_uuid');
    const agent = await call('POST', '/ai/api/agents', { name: 'x', classification_llm_uuid: llm.uuid }, bob);
    expect(agent.body.error.data).toHaveProperty('classification_llm_uuid');
    const ask = await call('POST', '/ai/api/ask', { question: 'x', lead_uuid: jane }, bob);
    expect(ask.body.error.data).toHaveProperty('lead_uuid');
    // Bob has no connection and the server none: ask is a 422 saying so.
    expect((await call('POST', '/ai/api/ask', { question: 'x' }, bob)).status).toBe(422);
    expect((await call('GET', '/ai/api/llm-logs', undefined, bob)).body.total).toBe(0);
  });

  it('refuses closed-schema mistakes naming the field, and private base URLs behind the guard', async () => {
    expect(
      (await call('POST', '/ai/api/llms', { name: 'x', provider: 'openai', api_key: 'k' })).body.error.data,
    ).toHaveProperty('api_key');
    expect(
      (await call('POST', '/ai/api/llms', { name: 'x', provider: 'openai_compatible', model: 'm' })).body
        .error.data,
    ).toHaveProperty('base_url');
    const owner = await guarded.createUser();
    const res = await guarded.request(owner, {
      method: 'POST',
      url: '/ai/api/llms',
      payload: { name: 'Local', provider: 'openai_compatible', base_url: standIn.url, model: 'm' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('base_url');
  });
});

describe('AI agents', () => {
  it('creates, lists under both paths, updates, deletes', async () => {
    const created = await call('POST', '/ai/api/agents', {
      name: 'Classifier',
      classification_prompt: 'Sort replies',
      classification_llm_config: { temperature: 0 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Classifier',
      public_uuid: null,
      classification_llm_config: { temperature: 0 },
    });
    const url = `/flows/api/ai-agents/${created.body.uuid}`;
    expect((await call('GET', '/ai/api/agents?filter[q]=class')).body.data[0].uuid).toBe(created.body.uuid);
    expect((await call('PUT', url, { description: 'Replies' })).body.description).toBe('Replies');
    expect((await call('GET', url, undefined, bob)).status).toBe(404);
    expect((await call('DELETE', url)).status).toBe(204);
    expect((await call('GET', url)).status).toBe(404);
  });
});
