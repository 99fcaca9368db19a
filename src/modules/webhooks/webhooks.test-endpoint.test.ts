// The test endpoint: a signed sample of the event to a real receiver on loopback (private targets
// allowed for this context), the target's response back, nothing stored.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { type Receiver, type Reply, startReceiver } from './receiver.test-support.js';

let ctx: TestContext;
let receiver: Receiver;
let alice: TestUser;
let bob: TestUser;
let a1: string;
const replies = new Map<string, () => Reply>();

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.respond = (request) => replies.get(request.path)?.() ?? { status: 200, body: 'ok' };
  ctx = await createTestContext({
    config: {
      webhooks: {
        retryScheduleSeconds: [1],
        allowPrivateTargets: true,
        timeoutMs: 2000,
        disableAfterFailingMs: 24 * 3600 * 1000,
      },
    },
  });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const list = await makeList(ctx.db, alice.teamId, 'List A');
  const tagUuid = newId();
  await ctx.db.insertInto('tags').values({ team_id: alice.teamId, uuid: tagUuid, name: 'VIP' }).execute();
  const [lead] = await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Ann' }]);
  a1 = lead!.uuid;
  await ctx.db
    .updateTable('leads')
    .set({ tags: [tagUuid] })
    .where('uuid', '=', a1)
    .execute();
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

async function createWebhook(user: TestUser, path: string) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/integrations/api/webhooks',
    payload: { name: path, event: 'contact_replied_email', target_url: `${receiver.url}${path}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { uuid: string; secret: string };
}

async function deliveries(user: TestUser, webhookUuid: string) {
  const res = await ctx.request(user, {
    method: 'GET',
    url: `/integrations/api/webhooks/${webhookUuid}/deliveries`,
  });
  return res.json().data as unknown[];
}

const at = (path: string) => (request: { path: string }) => request.path === path;

describe('test endpoint', () => {
  const test = (user: TestUser, payload: Record<string, unknown>) =>
    ctx.request(user, { method: 'POST', url: '/integrations/api/webhooks/test', payload });

  it('sends a signed sample and returns the target\u2019s response, storing nothing', async () => {
    replies.set('/test', () => ({ status: 202, body: 'accepted', headers: { 'x-receiver': 'yes' } }));
    const events = await ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await test(alice, {
      event: 'sender_profile_sent_linkedin_message',
      target_url: `${receiver.url}/test`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status_code: 202,
      body: 'accepted',
      body_truncated: false,
      error: null,
    });
    expect(res.json().headers['x-receiver']).toBe('yes');
    expect(res.json().duration_ms).toEqual(expect.any(Number));
    const [request] = await receiver.waitFor(1, at('/test'));
    expect(request!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(request!.body)).toEqual(res.json().payload);
    expect(res.json().payload).toMatchObject({
      event_name: 'sender_profile_sent_linkedin_message',
      linkedin_message: { type: 'outbox' },
      sender_profile: { team_id: alice.teamId },
    });
    const after = await ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(events.n);
  });

  it('builds the sample from a real contact and signs with a saved webhook\u2019s secret', async () => {
    const hook = await createWebhook(alice, '/test-saved');
    const res = await test(alice, {
      uuid: hook.uuid,
      event: 'contact_replied_email',
      target_url: `${receiver.url}/test-saved`,
      request_method: 'PATCH',
      lead_uuid: a1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.contact).toMatchObject({ uuid: a1, list_name: 'List A', tags: ['VIP'] });
    const [request] = await receiver.waitFor(1, at('/test-saved'));
    expect(request!.method).toBe('PATCH');
    expect(new Webhook(hook.secret).verify(request!.body, request!.headers)).toMatchObject({
      contact: { uuid: a1 },
    });
    expect(await deliveries(alice, hook.uuid)).toEqual([]);
  });

  it('cuts the response body at 64 KB and reports unreachable targets', async () => {
    replies.set('/big', () => ({ status: 200, body: 'x'.repeat(100_000) }));
    const big = await test(alice, { event: 'contact_enriched', target_url: `${receiver.url}/big` });
    expect(big.json().body).toHaveLength(64 * 1024);
    expect(big.json().body_truncated).toBe(true);
    const closed = await test(alice, { event: 'contact_enriched', target_url: 'http://127.0.0.1:1/nothing' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ status_code: null });
    expect(closed.json().error).toContain('ECONNREFUSED');
  });

  it('needs the full config, and answers 404 for another team\u2019s contact or webhook', async () => {
    const hook = await createWebhook(alice, '/test-uuid');
    const uuidOnly = await test(alice, { uuid: hook.uuid });
    expect(uuidOnly.statusCode).toBe(422);
    expect(uuidOnly.json().error.data).toHaveProperty('event');
    const foreignLead = await test(bob, {
      event: 'contact_enriched',
      target_url: `${receiver.url}/x`,
      lead_uuid: a1,
    });
    expect(foreignLead.statusCode).toBe(404);
    const foreignHook = await test(bob, {
      uuid: hook.uuid,
      event: 'contact_enriched',
      target_url: `${receiver.url}/x`,
    });
    expect(foreignHook.statusCode).toBe(404);
    const badFilter = await test(alice, {
      event: 'contact_enriched',
      target_url: `${receiver.url}/x`,
      filters: { nope: 1 },
    });
    expect(badFilter.statusCode).toBe(422);
    expect(receiver.requests.filter(at('/x'))).toEqual([]);
  });
});
