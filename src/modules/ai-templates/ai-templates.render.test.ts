// POST /flows/api/ai-templates/render through the real app, with the LLM played by a local
// OpenAI-compatible stand-in server (and, in its own context, with no LLM configured).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeList, makeSenderProfile } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { type LlmStandIn, type StandInRequest, startLlmStandIn } from '../llm/llm.stand-in.js';

let standIn: LlmStandIn;
let ctx: TestContext;
let bare: TestContext;
let alice: TestUser;
let bob: TestUser;
let jane: string;
let nameless: string;
let sender: string;

beforeAll(async () => {
  standIn = await startLlmStandIn();
  ctx = await createTestContext({
    env: {
      LEADFLOW_LLM_BASE_URL: standIn.url,
      LEADFLOW_LLM_API_KEY: 'sk-stand-in',
      LEADFLOW_LLM_MODEL: 'stand-in-model',
      LEADFLOW_LLM_TIMEOUT_MS: '300',
      LEADFLOW_LLM_MAX_RETRIES: '0',
    },
  });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const list = await makeList(ctx.db, alice.teamId);
  const res = await ctx.request(alice, {
    method: 'POST',
    url: '/leads/api/leads',
    payload: {
      list_uuid: list.uuid,
      leads: [
        { first_name: 'Jane', last_name: 'Smith', company_name: 'Acme', position: 'CTO' },
        { work_email: 'anon@example.test' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  [jane, nameless] = res.json().map((lead: { uuid: string }) => lead.uuid);
  sender = (await makeSenderProfile(ctx.db, alice.teamId, { first_name: 'Max', last_name: 'Muster' })).uuid;
});
afterAll(async () => {
  await ctx.close();
  await bare?.close();
  await standIn.close();
});
beforeEach(() => standIn.reset());

async function render(payload: Record<string, unknown>, user = alice, context = ctx) {
  return context.request(user, {
    method: 'POST',
    url: '/flows/api/ai-templates/render',
    payload: { lead_uuid: jane, sender_profile_uuid: sender, ...payload },
  });
}

async function rendered(payload: Record<string, unknown>) {
  const res = await render(payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const isValidator = (request: StandInRequest) => request.messages[0]?.content.startsWith('You review');

describe('render without a prompt', () => {
  it('renders an inline body with variables, conditions and seeded spintax', async () => {
    const body =
      '{Hi|Hello} {{first_name}} from {{company}}{% if position %} ({{position}}){% endif %}, {{sender.first_name}}';
    const answer = await rendered({ body, seed: 'preview-1' });
    expect(answer).toEqual({
      llm_instructions: null,
      rendered_subject: null,
      rendered_body: expect.stringMatching(/^(Hi|Hello) Jane from Acme \(CTO\), Max$/),
      ai_generated_body: null,
      fallback_body: answer.rendered_body,
      handling_error: null,
      validation_history: [],
      final_body: answer.rendered_body,
      final_source: 'template',
      missing_variables: [],
      unknown_variables: [],
    });
    expect((await rendered({ body, seed: 'preview-1' })).rendered_body).toBe(answer.rendered_body);
    expect(standIn.requests).toEqual([]);
  });

  it('reports blank and unknown variables, and applies default', async () => {
    const answer = await (
      await render({
        lead_uuid: nameless,
        body: 'Hi {{first_name}} {{ last_name | default: "" }}{{frist_name}}',
      })
    ).json();
    expect(answer).toMatchObject({
      rendered_body: 'Hi  ',
      missing_variables: ['first_name'],
      unknown_variables: ['frist_name'],
    });
  });

  it('renders a saved template, with inline fields overriding it', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/ai-templates',
      payload: {
        name: 'Saved',
        type: 'email',
        is_public: 0,
        subject: 'For {{company}}',
        body: '<p>{{company}} & co</p>',
      },
    });
    const uuid = created.json().uuid;
    const answer = await rendered({ uuid });
    expect(answer).toMatchObject({
      rendered_subject: 'For Acme',
      rendered_body: '<p>Acme & co</p>',
      final_source: 'template',
    });
    expect((await rendered({ uuid, body: 'Edited {{first_name}}' })).rendered_body).toBe('Edited Jane');
  });

  it('escapes values printed into e-mail bodies', async () => {
    const list = await makeList(ctx.db, alice.teamId, 'x');
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: '<b>Eve</b>', company_name: 'A&B' }] },
    });
    const eve = res.json()[0].uuid;
    const answer = (
      await render({
        lead_uuid: eve,
        type: 'email',
        subject: '{{first_name}}',
        body: '<p>{{first_name}}</p>',
      })
    ).json();
    expect(answer.rendered_body).toBe('<p>&lt;b&gt;Eve&lt;/b&gt;</p>');
    expect(answer.rendered_subject).toBe('<b>Eve</b>');
  });
});

describe('render refusals', () => {
  it('needs lead_uuid and sender_profile_uuid, naming each', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/ai-templates/render',
      payload: { body: 'x' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.data).sort()).toEqual(['lead_uuid', 'sender_profile_uuid']);
  });

  it('refuses another team\u2019s contact, sender and template', async () => {
    const bobList = await makeList(ctx.db, bob.teamId);
    const bobLead = (
      await ctx.request(bob, {
        method: 'POST',
        url: '/leads/api/leads',
        payload: { list_uuid: bobList.uuid, leads: [{ first_name: 'Bo' }] },
      })
    ).json()[0].uuid;
    const bobSender = (await makeSenderProfile(ctx.db, bob.teamId, { first_name: 'B' })).uuid;
    const lead = await render({ lead_uuid: bobLead, body: 'x' });
    expect(lead.statusCode).toBe(422);
    expect(lead.json().error.data).toHaveProperty('lead_uuid');
    const senderRes = await render({ sender_profile_uuid: bobSender, body: 'x' });
    expect(senderRes.statusCode).toBe(422);
    expect(senderRes.json().error.data).toHaveProperty('sender_profile_uuid');
    const bobTemplate = (
      await ctx.request(bob, {
        method: 'POST',
        url: '/flows/api/ai-templates',
        payload: { name: 'B', type: 'message', is_public: 1, body: 'x' },
      })
    ).json().uuid;
    expect((await render({ uuid: bobTemplate })).statusCode).toBe(404);
  });

  it('refuses an empty template and inline syntax errors, naming the field', async () => {
    const empty = await render({});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.data).toHaveProperty('uuid');
    const broken = await render({ body: '{% if x %}' });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().error.data.body[0]).toMatch(/not closed/);
    const tooBig = await render({ body: '{% for i in (1..100000000) %}x{% endfor %}' });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().error.data.body[0]).toMatch(/limit/);
  });
});

describe('render with the LLM', () => {
  const aiTemplate = {
    type: 'connection_note',
    body: 'Hi {{first_name}}, let us connect.',
    prompt: 'Write a note to {{first_name}}, {{position}} at {{company}}.',
    llm_config: { model: 'custom-model', temperature: 0.3 },
  };

  it('sends the rendered prompt and answers the AI text', async () => {
    standIn.answer(() => ({ content: 'Hi Jane, your work at Acme impressed me.' }));
    const answer = await rendered(aiTemplate);
    expect(answer).toMatchObject({
      llm_instructions: 'Write a note to Jane, CTO at Acme.',
      rendered_body: 'Hi Jane, let us connect.',
      ai_generated_body: 'Hi Jane, your work at Acme impressed me.',
      fallback_body: 'Hi Jane, let us connect.',
      handling_error: null,
      final_body: 'Hi Jane, your work at Acme impressed me.',
      final_source: 'ai',
      validation_history: [
        { attempt: 1, valid: true, reason: null, checked_by: 'rules', ai_generated_body: expect.any(String) },
      ],
    });
    expect(standIn.requests).toHaveLength(1);
    const [request] = standIn.requests;
    expect(request).toMatchObject({
      model: 'custom-model',
      temperature: 0.3,
      authorization: 'Bearer sk-stand-in',
    });
    expect(request!.messages.at(-1)).toEqual({ role: 'user', content: 'Write a note to Jane, CTO at Acme.' });
    expect(request!.messages[0]!.content).toMatch(/connection request note.*Stay under 300 characters/s);
  });

  it('uses the default model when the template names none', async () => {
    await rendered({ prompt: 'Say hi to {{first_name}}' });
    expect(standIn.requests[0]!.model).toBe('stand-in-model');
  });

  it('falls back when the LLM fails or times out (enable_fallback), and says why', async () => {
    standIn.answer(() => ({ status: 500 }));
    const failed = await rendered({
      ...aiTemplate,
      enable_fallback: true,
      fallback_body: 'Hello {{first_name}}!',
    });
    expect(failed).toMatchObject({
      ai_generated_body: null,
      fallback_body: 'Hello Jane!',
      final_body: 'Hello Jane!',
      final_source: 'fallback',
      handling_error: expect.stringMatching(/answered 500.*fallback was used/s),
    });
    standIn.answer(() => ({ content: 'too late', delayMs: 1000 }));
    const slow = await rendered({ ...aiTemplate, enable_fallback: true });
    expect(slow).toMatchObject({ final_source: 'fallback', final_body: 'Hi Jane, let us connect.' });
    expect(slow.handling_error).toMatch(/did not answer within 300 ms/);
  });

  it('sends nothing when the AI part fails and enable_fallback is off', async () => {
    standIn.answer(() => ({ status: 503 }));
    const answer = await rendered(aiTemplate);
    expect(answer).toMatchObject({
      final_body: null,
      final_source: null,
      fallback_body: 'Hi Jane, let us connect.',
      handling_error: expect.stringMatching(/enable_fallback is off/),
    });
  });

  it('refuses an answer that breaks the rules, retries once with the reason, then falls back', async () => {
    standIn.answer(() => ({ content: 'x'.repeat(400) }));
    const answer = await rendered({ ...aiTemplate, enable_fallback: true });
    expect(answer.validation_history).toEqual([
      expect.objectContaining({
        attempt: 1,
        valid: false,
        reason: 'it is 400 characters long, the limit is 300',
      }),
      expect.objectContaining({ attempt: 2, valid: false, checked_by: 'rules' }),
    ]);
    expect(answer).toMatchObject({
      final_source: 'fallback',
      handling_error: expect.stringMatching(/refused/),
    });
    expect(standIn.requests).toHaveLength(2);
    expect(standIn.requests[1]!.messages.at(-1)!.content).toMatch(/refused \(it is 400 characters long/);

    standIn.reset();
    let calls = 0;
    standIn.answer(() => ({ content: ++calls === 1 ? 'Hi {{first_name}}!' : 'Hi Jane!' }));
    const second = await rendered({ ...aiTemplate, settings: { max_length: 50 } });
    expect(second).toMatchObject({ final_source: 'ai', final_body: 'Hi Jane!' });
    expect(second.validation_history.map((step: { valid: boolean }) => step.valid)).toEqual([false, true]);
  });

  it('runs the validation prompt (rendered) and follows its verdict', async () => {
    const withValidation = {
      ...aiTemplate,
      enable_validation: true,
      validation_prompt: 'Is this polite to {{first_name}}?',
      validation_llm_config: { model: 'judge' },
      enable_fallback: true,
    };
    standIn.answer((request) =>
      isValidator(request) ? { content: 'VALID' } : { content: 'Dear Jane, glad to connect.' },
    );
    const ok = await rendered(withValidation);
    expect(ok).toMatchObject({
      final_source: 'ai',
      validation_history: [{ attempt: 1, valid: true, checked_by: 'llm', reason: null }],
    });
    const judge = standIn.requests.find(isValidator)!;
    expect(judge.model).toBe('judge');
    expect(judge.messages.at(-1)!.content).toBe(
      'Is this polite to Jane?\n\nThe message:\nDear Jane, glad to connect.',
    );

    standIn.reset();
    standIn.answer((request) =>
      isValidator(request) ? { content: 'INVALID: too pushy' } : { content: 'BUY NOW Jane' },
    );
    const refused = await rendered(withValidation);
    expect(refused).toMatchObject({
      ai_generated_body: 'BUY NOW Jane',
      final_source: 'fallback',
      final_body: 'Hi Jane, let us connect.',
      validation_history: [
        { attempt: 1, valid: false, reason: 'too pushy', checked_by: 'llm' },
        { attempt: 2, valid: false, reason: 'too pushy', checked_by: 'llm' },
      ],
    });
  });
});

describe('render without an LLM configured', () => {
  it('falls back and says why, whatever enable_fallback says', async () => {
    bare = await createTestContext();
    const carol = await bare.createUser();
    const list = await makeList(bare.db, carol.teamId);
    const lead = (
      await bare.request(carol, {
        method: 'POST',
        url: '/leads/api/leads',
        payload: { list_uuid: list.uuid, leads: [{ first_name: 'Cleo' }] },
      })
    ).json()[0].uuid;
    const carolSender = (await makeSenderProfile(bare.db, carol.teamId, { first_name: 'C' })).uuid;
    const res = await bare.request(carol, {
      method: 'POST',
      url: '/flows/api/ai-templates/render',
      payload: {
        lead_uuid: lead,
        sender_profile_uuid: carolSender,
        prompt: 'Greet {{first_name}}',
        body: 'Hello {{first_name}}',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      llm_instructions: 'Greet Cleo',
      ai_generated_body: null,
      final_body: 'Hello Cleo',
      final_source: 'fallback',
      handling_error: expect.stringMatching(/No LLM is configured \(set LEADFLOW_LLM_BASE_URL\)/),
    });
  });
});
