// End to end: events recorded in a transaction reach a real HTTP receiver on loopback (private targets
// allowed for this context), signed per Standard Webhooks, filtered, retried on a short schedule.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import type { WorkerHandle } from '../../jobs/runner.js';
import { newId } from '../../lib/ids.js';
import { type EventInput, emitContactEvents, emitEvents } from '../events/emit.js';
import { type Receiver, type Reply, startReceiver } from './receiver.test-support.js';

let ctx: TestContext;
let receiver: Receiver;
let worker: WorkerHandle;
let alice: TestUser;
let bob: TestUser;
let listA: string;
let listB: string;
let tagUuid: string;
let a1: string;
let a2: string;
let b1: string;
/** Per-path reply overrides; everything else answers 200 "ok". */
const replies = new Map<string, (index: number) => Reply>();

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.respond = (request) => {
    const reply = replies.get(request.path);
    const index = receiver.requests.filter((r) => r.path === request.path).length - 1;
    return reply ? reply(index) : { status: 200, body: 'ok' };
  };
  ctx = await createTestContext({
    config: {
      webhooks: {
        retryScheduleSeconds: [1, 1],
        allowPrivateTargets: true,
        timeoutMs: 400,
        disableAfterFailingMs: 24 * 3600 * 1000,
      },
    },
  });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  listA = (await makeList(ctx.db, alice.teamId, 'List A')).uuid;
  listB = (await makeList(ctx.db, alice.teamId, 'List B')).uuid;
  tagUuid = newId();
  await ctx.db.insertInto('tags').values({ team_id: alice.teamId, uuid: tagUuid, name: 'VIP' }).execute();
  const inA = await makeLeads(ctx.db, alice.teamId, listA, [{ first_name: 'Ann' }, { first_name: 'Al' }]);
  const inB = await makeLeads(ctx.db, alice.teamId, listB, [{ first_name: 'Bea' }]);
  a1 = inA[0]!.uuid;
  a2 = inA[1]!.uuid;
  b1 = inB[0]!.uuid;
  await ctx.db
    .updateTable('leads')
    .set({ tags: [tagUuid] })
    .where('uuid', 'in', [a1, b1])
    .execute();
  worker = await ctx.startWorkers();
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

async function createWebhook(user: TestUser, path: string, payload: Record<string, unknown> = {}) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/integrations/api/webhooks',
    payload: { name: path, event: 'contact_replied_email', target_url: `${receiver.url}${path}`, ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { uuid: string; secret: string };
}

function emit(user: TestUser, events: EventInput[]) {
  return ctx.db.transaction().execute((trx) => emitEvents(trx, user.teamId, events));
}

async function deliveries(user: TestUser, webhookUuid: string) {
  const res = await ctx.request(user, {
    method: 'GET',
    url: `/integrations/api/webhooks/${webhookUuid}/deliveries`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as Array<
    Record<string, unknown> & { uuid: string; status: string; attempt: number }
  >;
}

async function settled(user: TestUser, webhookUuid: string, status: string, count = 1) {
  const rows = await waitFor(async () => {
    const rows = await deliveries(user, webhookUuid);
    return rows.length === count && rows.every((row) => row.status === status) ? rows : undefined;
  });
  return rows!;
}

const at = (path: string) => (request: { path: string }) => request.path === path;

describe('delivering events', () => {
  it('posts the event signed per Standard Webhooks, verifiable with the standardwebhooks library', async () => {
    const hook = await createWebhook(alice, '/signed');
    const [eventUuid] = await emit(alice, [
      {
        name: 'contact_replied_email',
        leadUuid: a1,
        email: {
          uuid: newId(),
          subject: 'Re: intro',
          body: '<p>Yes</p>',
          type: 'inbox',
          status: 'sync',
          from_name: 'Ann',
          from_email: 'ann@example.test',
          to_name: null,
          to_email: null,
          sent_at: null,
        },
      },
    ]);
    const [request] = await receiver.waitFor(1, at('/signed'));
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(eventUuid);
    const payload = new Webhook(hook.secret).verify(request!.body, request!.headers) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({
      event_name: 'contact_replied_email',
      event_uuid: eventUuid,
      team_id: alice.teamId,
      contact: { uuid: a1, first_name: 'Ann', list_name: 'List A', tags: ['VIP'] },
      email: { subject: 'Re: intro' },
      sender_profile: null,
      automation: null,
    });
    expect(Object.keys(payload)[0]).toBe('event_name');
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another secret').toString('base64')}`).verify(
        request!.body,
        request!.headers,
      ),
    ).toThrow();

    const [delivery] = await settled(alice, hook.uuid, 'succeeded');
    expect(delivery).toMatchObject({
      event_uuid: eventUuid,
      event_name: 'contact_replied_email',
      attempt: 1,
      status_code: 200,
      error: null,
      next_retry_at: null,
    });
    expect(delivery!.duration_ms).toEqual(expect.any(Number));
  });

  it('sends with the webhook\u2019s method', async () => {
    await createWebhook(alice, '/put', { request_method: 'PUT', event: 'contact_enriched' });
    await emit(alice, [{ name: 'contact_enriched', leadUuid: a2 }]);
    const [request] = await receiver.waitFor(1, at('/put'));
    expect(request!.method).toBe('PUT');
    expect(JSON.parse(request!.body)).toMatchObject({
      event_name: 'contact_enriched',
      contact: { uuid: a2 },
    });
  });

  it('delivers only to the webhooks whose filters match the contact', async () => {
    const flow = newId();
    const byList = await createWebhook(alice, '/f-list', {
      event: 'contact_exported',
      filters: { list_uuid: listA },
    });
    const byTag = await createWebhook(alice, '/f-tag', {
      event: 'contact_exported',
      filters: { tags: [tagUuid] },
    });
    const all = await createWebhook(alice, '/f-all', {
      event: 'contact_exported',
      filters: { jsonLogic: {} },
    });
    const inFlow = await createWebhook(alice, '/f-flow', {
      event: 'contact_exported',
      filters: { jsonLogic: { data: { flows: [{ flow_uuid: flow }] } } },
    });
    const recorded = await ctx.db
      .transaction()
      .execute((trx) => emitContactEvents(trx, alice.teamId, 'contact_exported', [a1!, a2!, b1!]));
    expect(recorded).toBe(3);
    const contactsAt = async (path: string, count: number) =>
      (await receiver.waitFor(count, at(path))).map((r) => JSON.parse(r.body).contact.uuid).sort();
    expect(await contactsAt('/f-list', 2)).toEqual([a1, a2].sort());
    expect(await contactsAt('/f-tag', 2)).toEqual([a1, b1].sort());
    expect(await contactsAt('/f-all', 3)).toEqual([a1, a2, b1].sort());
    await settled(alice, byList.uuid, 'succeeded', 2);
    await settled(alice, byTag.uuid, 'succeeded', 2);
    await settled(alice, all.uuid, 'succeeded', 3);
    // No contact is in the flow yet.
    expect(await deliveries(alice, inFlow.uuid)).toEqual([]);
    await ctx.db.transaction().execute(async (trx) => {
      const automation = (uuid: string) => ({ uuid, name: 'Flow', status: 'on', priority: 1 });
      await emitContactEvents(trx, alice.teamId, 'contact_exported', [a1!], { automation: automation(flow) });
      await emitContactEvents(trx, alice.teamId, 'contact_exported', [a2!], {
        automation: automation(newId()),
      });
    });
    const [flowDelivery] = await receiver.waitFor(1, at('/f-flow'));
    expect(JSON.parse(flowDelivery!.body)).toMatchObject({
      contact: { uuid: a1 },
      automation: { uuid: flow },
    });
    await receiver.waitFor(5, at('/f-all'));
    expect(receiver.requests.filter(at('/f-flow'))).toHaveLength(1);
    // An enrollment in the flow (even an ended one) places the contact in it for any event.
    await ctx.db
      .insertInto('flow_leads')
      .values({
        team_id: alice.teamId,
        uuid: newId(),
        flow_uuid: flow,
        flow_version_uuid: newId(),
        lead_uuid: b1!,
        status: 'finished',
      })
      .execute();
    await ctx.db
      .transaction()
      .execute((trx) => emitContactEvents(trx, alice.teamId, 'contact_exported', [a2!, b1!]));
    const enrolled = await receiver.waitFor(2, at('/f-flow'));
    expect(JSON.parse(enrolled[1]!.body).contact.uuid).toBe(b1);
    await receiver.waitFor(7, at('/f-all'));
    expect(receiver.requests.filter(at('/f-flow'))).toHaveLength(2);
  });

  it('sends nothing for a webhook that is off, and nothing across teams', async () => {
    const off = await createWebhook(alice, '/off', { event: 'contact_enriched', status: 'off' });
    const bobs = await createWebhook(bob, '/bob', { event: 'contact_enriched' });
    const on = await createWebhook(alice, '/on', { event: 'contact_enriched' });
    await emit(alice, [{ name: 'contact_enriched', leadUuid: a1 }]);
    await settled(alice, on.uuid, 'succeeded');
    expect(await deliveries(alice, off.uuid)).toEqual([]);
    expect(await deliveries(bob, bobs.uuid)).toEqual([]);
    expect(receiver.requests.filter((r) => r.path === '/off' || r.path === '/bob')).toEqual([]);
  });
});

describe('retries', () => {
  it('retries after 500s on the schedule until a 2xx, with the same webhook-id', async () => {
    replies.set('/flaky', (index) => (index < 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const hook = await createWebhook(alice, '/flaky');
    await emit(alice, [{ name: 'contact_replied_email', leadUuid: a1 }]);
    const requests = await receiver.waitFor(3, at('/flaky'), 20_000);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    const [delivery] = await settled(alice, hook.uuid, 'succeeded');
    expect(delivery).toMatchObject({ attempt: 3, status_code: 204, error: null });
    const webhook = (
      await ctx.request(alice, { method: 'GET', url: `/integrations/api/webhooks/${hook.uuid}` })
    ).json();
    expect(webhook.last_error).toBe('HTTP 500: boom');
    expect(webhook.last_success_at).not.toBeNull();
  });

  it('counts a timeout as a failed attempt and retries it', async () => {
    replies.set('/slow', (index) => (index === 0 ? { delayMs: 1500 } : { status: 200 }));
    const hook = await createWebhook(alice, '/slow');
    await emit(alice, [{ name: 'contact_replied_email', leadUuid: a2 }]);
    const [delivery] = await settled(alice, hook.uuid, 'succeeded');
    expect(delivery!.attempt).toBe(2);
    const webhook = (
      await ctx.request(alice, { method: 'GET', url: `/integrations/api/webhooks/${hook.uuid}` })
    ).json();
    expect(webhook.last_error).toBe('No response within 400 ms');
  });

  it('does not follow redirects', async () => {
    replies.set('/redirect', () => ({ status: 302, headers: { location: '/elsewhere' } }));
    const hook = await createWebhook(alice, '/redirect');
    await emit(alice, [{ name: 'contact_replied_email', leadUuid: a1 }]);
    const delivery = await waitFor(async () => {
      const [row] = await deliveries(alice, hook.uuid);
      return row?.status === 'retrying' ? row : undefined;
    });
    expect(delivery).toMatchObject({ attempt: 1, status_code: 302, error: 'HTTP 302' });
    expect(receiver.requests.filter(at('/elsewhere'))).toEqual([]);
  });

  it('gives up when the schedule runs out, and redelivers on request', async () => {
    let healthy = false;
    replies.set('/down', () => (healthy ? { status: 200 } : { status: 503, body: 'maintenance' }));
    const hook = await createWebhook(alice, '/down');
    const [eventUuid] = await emit(alice, [{ name: 'contact_replied_email', leadUuid: b1 }]);
    const [failed] = await settled(alice, hook.uuid, 'failed');
    expect(failed).toMatchObject({
      attempt: 3,
      status_code: 503,
      error: 'HTTP 503: maintenance',
      next_retry_at: null,
    });

    healthy = true;
    const retried = await ctx.request(alice, {
      method: 'POST',
      url: `/integrations/api/webhooks/${hook.uuid}/deliveries/${failed!.uuid}/retry`,
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({
      uuid: failed!.uuid,
      status: 'succeeded',
      attempt: 4,
      status_code: 200,
    });
    const requests = receiver.requests.filter(at('/down'));
    expect(requests).toHaveLength(4);
    expect(requests.at(-1)!.headers['webhook-id']).toBe(eventUuid);

    const unknown = await ctx.request(alice, {
      method: 'POST',
      url: `/integrations/api/webhooks/${hook.uuid}/deliveries/${newId()}/retry`,
    });
    expect(unknown.statusCode).toBe(404);
    await ctx.request(alice, {
      method: 'PUT',
      url: `/integrations/api/webhooks/${hook.uuid}`,
      payload: { status: 'off' },
    });
    const whileOff = await ctx.request(alice, {
      method: 'POST',
      url: `/integrations/api/webhooks/${hook.uuid}/deliveries/${failed!.uuid}/retry`,
    });
    expect(whileOff.statusCode).toBe(409);
  });

  it('finishes a pending retry after the workers restart', async () => {
    replies.set('/restart', (index) => (index === 0 ? { status: 500 } : { status: 200 }));
    const hook = await createWebhook(alice, '/restart');
    await emit(alice, [{ name: 'contact_replied_email', leadUuid: a1 }]);
    await waitFor(async () => (await deliveries(alice, hook.uuid))[0]?.status === 'retrying');
    await worker.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.requests.filter(at('/restart'))).toHaveLength(1);
    worker = await ctx.startWorkers();
    const [delivery] = await settled(alice, hook.uuid, 'succeeded');
    expect(delivery!.attempt).toBe(2);
    expect(receiver.requests.filter(at('/restart'))).toHaveLength(2);
  });

  it('filters the delivery log', async () => {
    const hook = await createWebhook(alice, '/log', { event: 'contact_enriched' });
    await emit(alice, [
      { name: 'contact_enriched', leadUuid: a1 },
      { name: 'contact_enriched', leadUuid: a2 },
    ]);
    await settled(alice, hook.uuid, 'succeeded', 2);
    const url = `/integrations/api/webhooks/${hook.uuid}/deliveries`;
    const page = await ctx.request(alice, { method: 'GET', url: `${url}?limit=1` });
    expect(page.json()).toMatchObject({ total: 2, limit: 1, has_more: true });
    const none = await ctx.request(alice, { method: 'GET', url: `${url}?filter[status]=failed` });
    expect(none.json().total).toBe(0);
    const bad = await ctx.request(alice, { method: 'GET', url: `${url}?filter[status]=lost` });
    expect(bad.statusCode).toBe(422);
  });
});
