// A broken or empty text never goes out. Versions saved before texts were checked (written straight to
// the database here) still reach the engine: a text that cannot be rendered, or renders empty, fails the
// step with `template_error` and the reason - on the task and on the enrollment - and no channel is
// called. The dispatcher checks once more at the channel's door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
  type NodeSpec,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';

let h: EngineHarness;
let senderUuid: string;

beforeAll(async () => {
  h = await createEngineHarness();
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  senderUuid = sender.uuid;
});
afterAll(() => h.close());

const db = () => h.ctx.db;

/** One fresh contact enrolled in a flow of `node` (then `end`). */
async function start(node: Omit<NodeSpec, 'id' | 'next'>, name: string) {
  const flow = await makeFlow(db(), h.user.teamId, {
    senders: [senderUuid],
    nodes: [{ id: 1, ...node, next: { 1: 2 } } as NodeSpec, { id: 2, type: 'end' }],
  });
  const [lead] = await makeContacts(db(), h.user.teamId, 1, name);
  const [row] = await enroll(db(), h.user.teamId, flow, [lead!.uuid], { at: h.clock.now() });
  return { flowLeadUuid: row!.uuid, leadUuid: lead!.uuid };
}

/** Runs the engine until the enrollment has ended; answers its outcome. */
async function untilEnded({ flowLeadUuid, leadUuid }: { flowLeadUuid: string; leadUuid: string }) {
  await h.run(async () => {
    const fl = await db()
      .selectFrom('flow_leads')
      .select('status')
      .where('uuid', '=', flowLeadUuid)
      .executeTakeFirst();
    return fl?.status !== 'in_progress' && fl?.status !== 'paused';
  });
  return outcome(flowLeadUuid, leadUuid);
}

const runNode = async (node: Omit<NodeSpec, 'id' | 'next'>, name: string) =>
  untilEnded(await start(node, name));

async function outcome(flowLeadUuid: string, leadUuid: string) {
  const enrollment = await db()
    .selectFrom('flow_leads')
    .select(['status', 'reason'])
    .where('uuid', '=', flowLeadUuid)
    .executeTakeFirstOrThrow();
  const task = await db()
    .selectFrom('tasks')
    .select(['status', 'automation_error_code', 'error_msg'])
    .where('flow_lead_uuid', '=', flowLeadUuid)
    .where('flow_node_id', '=', 1)
    .executeTakeFirstOrThrow();
  const sent = await db()
    .selectFrom('sandbox_linkedin_actions')
    .select(['action as type', 'text'])
    .where('lead_uuid', '=', leadUuid)
    .execute();
  return { enrollment, task, sent };
}

const failedWith = (pattern: RegExp) => ({
  enrollment: { status: 'failed', reason: 'template_error' },
  task: {
    status: 'failed',
    automation_error_code: 'template_error',
    error_msg: expect.stringMatching(pattern),
  },
  sent: [],
});

describe('a text that cannot be rendered fails the step and sends nothing', () => {
  it('a LinkedIn message with an unclosed output tag', async () => {
    const result = await runNode(
      { type: 'linkedin_send_message', payload: { template: 'Hi {{first_name}, quick question' } },
      'Msg',
    );
    expect(result).toMatchObject(failedWith(/^payload\.template: .*not closed, line:1, col:4$/));
  });

  it('a connection note with an unknown filter', async () => {
    const result = await runNode(
      { type: 'linkedin_send_connection_request', payload: { template: 'Hi {{ first_name | shout }}' } },
      'Note',
    );
    expect(result).toMatchObject(failedWith(/^payload\.template: undefined filter: shout/));
  });

  it('an InMail subject', async () => {
    const result = await runNode(
      { type: 'linkedin_send_inmail', payload: { subject: 'For {{first_name}', template: 'Hello' } },
      'InMail',
    );
    expect(result).toMatchObject(failedWith(/^payload\.subject: .*not closed/));
  });

  it('a comment with an unclosed {% if %} inside spintax', async () => {
    const result = await runNode(
      { type: 'linkedin_comment_latest_post', payload: { template: '{Great|Nice} post{% if x %}!' } },
      'Comment',
    );
    expect(result).toMatchObject(failedWith(/^payload\.template: tag \{% if x %\} not closed/));
  });

  it('an e-mail subject typo and an e-mail body with an unclosed {% if %} (before any mailbox is asked)', async () => {
    const subject = await runNode(
      { type: 'email_send_message', payload: { subject: 'Hi {{first_name}', template: '<p>Hello</p>' } },
      'Subj',
    );
    expect(subject).toMatchObject(failedWith(/^payload\.subject: .*not closed, line:1, col:4$/));
    const body = await runNode(
      {
        type: 'email_send_message',
        payload: { subject: 'Hello', template: '<p>Hi</p>\n{% if company_name %}<p>{{company_name}}</p>' },
      },
      'Body',
    );
    expect(body).toMatchObject(
      failedWith(/^payload\.template: tag \{% if company_name %\} not closed, line:2/),
    );
  });
});

describe('an empty text is never sent', () => {
  const EMPTY = '{% if false %}Hi {{first_name}}{% endif %}';

  it('a message, a comment and an e-mail body that render empty fail the step', async () => {
    for (const [type, name] of [
      ['linkedin_send_message', 'EmptyMsg'],
      ['linkedin_comment_latest_post', 'EmptyComment'],
      ['email_send_message', 'EmptyMail'],
    ] as const) {
      const subject = type === 'email_send_message' ? { subject: 'Hi' } : {};
      const result = await runNode({ type, payload: { ...subject, template: EMPTY } }, name);
      expect(result, type).toMatchObject(failedWith(/rendered empty for this contact; nothing was sent/));
    }
  });

  it('a subject written in the node that renders empty fails; no subject at all does not', async () => {
    const result = await runNode(
      { type: 'linkedin_send_inmail', payload: { subject: EMPTY, template: 'Hello' } },
      'EmptySubject',
    );
    expect(result).toMatchObject(failedWith(/^payload\.subject rendered empty/));
    const plain = await runNode(
      { type: 'linkedin_send_inmail', payload: { template: 'Hello' } },
      'NoSubject',
    );
    expect(plain.task.status).not.toBe('failed');
    expect(plain.sent).toMatchObject([{ type: 'linkedin_send_inmail', text: 'Hello' }]);
  });

  it('a connection note that renders empty goes without the note only with fallback_send', async () => {
    const strict = await runNode(
      { type: 'linkedin_send_connection_request', payload: { template: EMPTY } },
      'StrictNote',
    );
    expect(strict).toMatchObject(failedWith(/fallback_send is off/));
    const lenient = await runNode(
      { type: 'linkedin_send_connection_request', payload: { template: EMPTY, fallback_send: true } },
      'LenientNote',
    );
    expect(lenient.task.status).toBe('closed');
    expect(lenient.sent).toEqual([{ type: 'linkedin_send_connection_request', text: null }]);
  });

  it('the dispatcher fails a planned message without text instead of calling the channel', async () => {
    // The sender holds its actions for an hour: the task is planned but not yet sent.
    const hold = (until: Date | null) =>
      db()
        .updateTable('sender_profiles')
        .set({ hold_tasks_till: until })
        .where('uuid', '=', senderUuid)
        .execute();
    await hold(new Date(h.clock.now().getTime() + 3600_000));
    const started = await start(
      { type: 'linkedin_send_message', payload: { template: 'Hi {{first_name}}' } },
      'Planned',
    );
    const taskOf = () =>
      db().selectFrom('tasks').select('uuid').where('flow_lead_uuid', '=', started.flowLeadUuid);
    try {
      await h.run(async () => (await taskOf().executeTakeFirst()) !== undefined);
      // As a task planned before texts were checked would be stored.
      await db()
        .updateTable('tasks')
        .set({ payload: JSON.stringify({ template: 'Hi {{first_name}', rendered_text: null }) })
        .where('flow_lead_uuid', '=', started.flowLeadUuid)
        .execute();
    } finally {
      await hold(null);
    }
    expect(await untilEnded(started)).toMatchObject(failedWith(/has no text to send; nothing was sent/));
  });
});

describe('gs_call_api', () => {
  it('makes no call with a text that cannot be rendered: the task fails with the field, the contact moves on', async () => {
    const result = await runNode(
      {
        type: 'gs_call_api',
        payload: { method: 'POST', endpoint: 'https://crm.example/hook', post: { name: '{{first_name}' } },
      },
      'Api',
    );
    expect(result.task).toMatchObject({
      status: 'failed',
      automation_error_code: 'template_error',
      error_msg: expect.stringMatching(/^payload\.post\.name: .*not closed/),
    });
    expect(result.enrollment).toMatchObject({ status: 'finished', reason: 'completed' });
  });
});
