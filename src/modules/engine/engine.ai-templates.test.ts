// Action nodes that name a saved AI template (`template_uuid`): the engine composes the message with the
// same code as the render endpoint - the body for plain templates, the LLM (a local OpenAI-compatible
// stand-in) for templates with a prompt, the fallback when the LLM fails - and fails the step, saying
// why, when there is nothing to send.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { type LlmStandIn, startLlmStandIn } from '../llm/llm.stand-in.js';

let h: EngineHarness;
let standIn: LlmStandIn;
let senderUuid: string;

beforeAll(async () => {
  standIn = await startLlmStandIn();
  h = await createEngineHarness({
    env: {
      LEADFLOW_LLM_BASE_URL: standIn.url,
      LEADFLOW_LLM_TIMEOUT_MS: '10000',
      LEADFLOW_LLM_MAX_RETRIES: '0',
    },
  });
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  senderUuid = sender.uuid;
});
afterAll(async () => {
  await h.close();
  await standIn.close();
});
beforeEach(() => standIn.reset());

async function aiTemplate(fields: Record<string, unknown>): Promise<string> {
  const res = await h.ctx.request(h.user, {
    method: 'POST',
    url: '/flows/api/ai-templates',
    payload: { name: 'Opener', type: 'connection_note', is_public: 1, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().uuid;
}

/** Runs a one-invitation flow using `templateUuid` for one contact; the sent text and the step's task. */
async function sendWith(templateUuid: string, name: string) {
  const db = h.ctx.db;
  const flow = await makeFlow(db, h.user.teamId, {
    senders: [senderUuid],
    nodes: [
      {
        id: 1,
        type: 'linkedin_send_connection_request',
        payload: { template: 'inline text is not used', template_uuid: templateUuid },
      },
    ],
  });
  const [lead] = await makeContacts(db, h.user.teamId, 1, name);
  const [row] = await enroll(db, h.user.teamId, flow, [lead!.uuid], { at: h.clock.now() });
  await h.run(async () => {
    const fl = await db
      .selectFrom('flow_leads')
      .select('status')
      .where('uuid', '=', row!.uuid)
      .executeTakeFirst();
    return fl?.status === 'finished' || fl?.status === 'failed';
  });
  const sent = await db
    .selectFrom('sandbox_linkedin_actions')
    .select('text')
    .where('lead_uuid', '=', lead!.uuid)
    .execute();
  const task = await db
    .selectFrom('tasks')
    .select(['status', 'automation_error_code', 'error_msg', 'payload'])
    .where('flow_lead_uuid', '=', row!.uuid)
    .executeTakeFirstOrThrow();
  return { sent: sent.map((s) => s.text), task, lead: lead! };
}

describe('action nodes with a saved AI template', () => {
  it('sends the rendered body of a template without a prompt, and calls no LLM', async () => {
    const uuid = await aiTemplate({ body: 'Hello {{first_name}}, {{sender.first_name}} here.' });
    const { sent, task, lead } = await sendWith(uuid, 'Plain');
    const first = (
      await h.ctx.db
        .selectFrom('leads')
        .select('first_name')
        .where('uuid', '=', lead.uuid)
        .executeTakeFirstOrThrow()
    ).first_name;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(new RegExp(`^Hello ${first}, \\S+ here\\.$`));
    expect(task.status).toBe('closed');
    expect(task.payload).toMatchObject({ message_source: 'template' });
    expect(standIn.requests).toHaveLength(0);
  });

  it('sends what the LLM wrote for a template with a prompt (the prompt rendered for the contact)', async () => {
    standIn.answer(() => ({ content: 'Loved your post about pipelines!' }));
    const uuid = await aiTemplate({
      prompt: 'Write an opener for {{first_name}}.',
      enable_fallback: true,
      fallback_body: 'Hi {{first_name}}',
    });
    const { sent, task, lead } = await sendWith(uuid, 'Prompted');
    expect(sent).toEqual(['Loved your post about pipelines!']);
    expect(task.payload).toMatchObject({ message_source: 'ai' });
    const first = (
      await h.ctx.db
        .selectFrom('leads')
        .select('first_name')
        .where('uuid', '=', lead.uuid)
        .executeTakeFirstOrThrow()
    ).first_name;
    expect(standIn.requests.at(-1)?.messages.at(-1)?.content).toBe(`Write an opener for ${first}.`);
  });

  it('falls back to the fallback body when the LLM fails, and says so on the task', async () => {
    standIn.answer(() => ({ status: 500 }));
    const uuid = await aiTemplate({
      prompt: 'Write an opener.',
      enable_fallback: true,
      fallback_body: 'Hi {{first_name}}!',
    });
    const { sent, task } = await sendWith(uuid, 'Fallback');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^Hi \S+!$/);
    expect(task.payload).toMatchObject({ message_source: 'fallback' });
    expect(String((task.payload as { message_note?: string }).message_note)).toMatch(/fallback was used/);
  });

  it('fails the step with the reason when the LLM fails and the fallback is off', async () => {
    standIn.answer(() => ({ status: 500 }));
    const uuid = await aiTemplate({
      prompt: 'Write an opener.',
      enable_fallback: false,
      fallback_body: 'Hi',
    });
    const { sent, task } = await sendWith(uuid, 'NoFallback');
    expect(sent).toEqual([]);
    expect(task).toMatchObject({ status: 'failed', automation_error_code: 'template_error' });
    expect(task.error_msg).toMatch(/enable_fallback is off/);
  });

  it('fails the step when the template was deleted after the flow was saved', async () => {
    const uuid = await aiTemplate({ body: 'Soon gone' });
    const res = await h.ctx.request(h.user, { method: 'DELETE', url: `/flows/api/ai-templates/${uuid}` });
    expect(res.statusCode).toBe(204);
    const { sent, task } = await sendWith(uuid, 'Deleted');
    expect(sent).toEqual([]);
    expect(task).toMatchObject({ status: 'failed', automation_error_code: 'template_error' });
    expect(task.error_msg).toMatch(/no longer exists/);
  });
});
