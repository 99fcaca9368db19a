// gs_call_api requests are aimed by the flow's author, so they go through the outbound guard: loopback,
// private, link-local and cloud metadata targets fail the step before anything connects, and the
// operator's switches (LEADFLOW_OUTBOUND_*, and the webhook ones as before) open them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.test-support.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let calls = 0;

/** Runs one contact (first name CallerN0) through a gs_call_api node aimed at `endpoint`; answers its task. */
async function callOnce(h: EngineHarness, endpoint: string) {
  calls += 1;
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  const flow = await makeFlow(h.ctx.db, h.user.teamId, {
    senders: [sender.uuid],
    nodes: [
      {
        id: 1,
        type: 'gs_call_api',
        payload: { method: 'POST', endpoint, post: { who: '{{first_name}}' } },
        next: { 0: 2 },
      },
      { id: 2, type: 'end' },
    ],
  });
  const [lead] = await makeContacts(h.ctx.db, h.user.teamId, 1, `Caller${calls}`);
  const [row] = await enroll(h.ctx.db, h.user.teamId, flow, [lead!.uuid], { at: h.clock.now() });
  const task = () =>
    h.ctx.db
      .selectFrom('tasks')
      .select(['status', 'automation_error_code', 'error_msg'])
      .where('flow_lead_uuid', '=', row!.uuid)
      .where('type', '=', 'gs_call_api')
      .executeTakeFirst();
  await h.run(async () => ['closed', 'failed'].includes((await task())?.status ?? ''));
  return (await task())!;
}

describe('gs_call_api without private targets allowed', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(() => h.close());

  it.each([
    ['loopback', () => `${receiver.url}/loopback`, 'is a loopback address'],
    ['localhost', () => `${receiver.url.replace('127.0.0.1', 'localhost')}/name`, 'localhost resolves to'],
    ['private', () => 'http://10.0.0.5/hook', 'is a private address'],
    ['link-local (metadata)', () => 'http://169.254.169.254/latest/meta-data/', 'link-local'],
    [
      'a metadata host name',
      () => 'http://metadata.google.internal/computeMetadata/v1/',
      'cloud metadata host',
    ],
  ])('fails a call to a %s target without connecting', async (_kind, endpoint, reason) => {
    const before = receiver.requests.length;
    const task = await callOnce(h, endpoint());
    expect(task).toMatchObject({ status: 'failed', automation_error_code: 'invalid_request' });
    expect(task.error_msg).toContain(reason);
    expect(task.error_msg).toContain('gs_call_api requests may only reach public addresses');
    expect(receiver.requests.length).toBe(before);
  });
});

describe.each([
  ['LEADFLOW_OUTBOUND_ALLOW_PRIVATE', { LEADFLOW_OUTBOUND_ALLOW_PRIVATE: 'true' }],
  ['LEADFLOW_OUTBOUND_ALLOWLIST', { LEADFLOW_OUTBOUND_ALLOWLIST: '127.0.0.1' }],
  ['LEADFLOW_WEBHOOKS_ALLOW_PRIVATE (as before)', { LEADFLOW_WEBHOOKS_ALLOW_PRIVATE: 'true' }],
])('gs_call_api with %s', (_name, env) => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness({ env });
  });
  afterAll(() => h.close());

  it('calls a receiver on this machine; link-local targets stay closed', async () => {
    const path = `/open-${Object.keys(env)[0]}`;
    const task = await callOnce(h, `${receiver.url}${path}`);
    expect(task).toMatchObject({ status: 'closed' });
    const [request] = await receiver.waitFor(1, (r) => r.path === path);
    expect(JSON.parse(request!.body)).toEqual({ who: `Caller${calls}0` });
    expect(request!.headers['idempotency-key']).toBeTruthy();

    const metadata = await callOnce(h, 'http://169.254.169.254/latest/meta-data/');
    expect(metadata).toMatchObject({ status: 'failed', automation_error_code: 'invalid_request' });
    expect(metadata.error_msg).toContain('link-local');
  });
});
