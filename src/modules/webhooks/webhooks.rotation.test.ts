// Rotating a webhook's signing secret: deliveries carry a signature per live secret, so a receiver
// verifying with the old secret keeps working until the previous secret expires.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { emitEvents } from '../events/emit.js';
import { type ReceivedRequest, type Receiver, startReceiver } from './receiver.test-support.js';

let ctx: TestContext;
let receiver: Receiver;
let alice: TestUser;
let bob: TestUser;
let leadUuid: string;

beforeAll(async () => {
  receiver = await startReceiver();
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
  const list = await makeList(ctx.db, alice.teamId);
  leadUuid = (await makeLeads(ctx.db, alice.teamId, list.uuid, [{ first_name: 'Ann' }]))[0]!.uuid;
  await ctx.startWorkers();
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

async function createWebhook(path: string) {
  const res = await ctx.request(alice, {
    method: 'POST',
    url: '/integrations/api/webhooks',
    payload: { name: path, event: 'contact_enriched', target_url: `${receiver.url}${path}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { uuid: string; secret: string };
}

const rotate = (user: TestUser, uuid: string, payload?: Record<string, unknown>) =>
  ctx.request(user, {
    method: 'POST',
    url: `/integrations/api/webhooks/${uuid}/rotate-secret`,
    ...(payload ? { payload } : {}),
  });

/** Emits one event and returns the delivery the receiver got on `path`. */
async function deliver(path: string): Promise<ReceivedRequest> {
  const before = receiver.requests.filter((request) => request.path === path).length;
  await ctx.db
    .transaction()
    .execute((trx) => emitEvents(trx, alice.teamId, [{ name: 'contact_enriched', leadUuid }]));
  const received = await receiver.waitFor(before + 1, (request) => request.path === path);
  return received.at(-1)!;
}

function verifies(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
}

describe('rotating a webhook secret', () => {
  it('shows the new secret once and signs with both secrets until the previous one expires', async () => {
    const hook = await createWebhook('/rotating');
    const res = await rotate(alice, hook.uuid);
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(rotated.secret).not.toBe(hook.secret);
    const expiresIn = Date.parse(rotated.previous_secret_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(86_400_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(86_400_000);
    const shown = (
      await ctx.request(alice, { method: 'GET', url: `/integrations/api/webhooks/${hook.uuid}` })
    ).json();
    expect(shown.secret).toBeUndefined();
    expect(shown.previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);

    const during = await deliver('/rotating');
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifies(hook.secret, during)).toBe(true);
    expect(verifies(rotated.secret, during)).toBe(true);
    expect(verifies(`whsec_${Buffer.from('some other secret').toString('base64')}`, during)).toBe(false);

    // The previous secret expires: deliveries carry only the new signature.
    await ctx.db
      .updateTable('webhooks')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
      .where('uuid', '=', hook.uuid)
      .execute();
    const after = await deliver('/rotating');
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(hook.secret, after)).toBe(false);
    expect(verifies(rotated.secret, after)).toBe(true);
  });

  it('drops the previous secret at once with a zero grace period, e.g. after a leak', async () => {
    const hook = await createWebhook('/leaked');
    const res = await rotate(alice, hook.uuid, { previous_secret_ttl_seconds: 0 });
    expect(res.statusCode).toBe(200);
    expect(res.json().previous_secret_expires_at).toBeNull();
    const delivered = await deliver('/leaked');
    expect(verifies(hook.secret, delivered)).toBe(false);
    expect(verifies(res.json().secret, delivered)).toBe(true);
    // The test endpoint signs with the saved secret the same way.
    const tested = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks/test',
      payload: { uuid: hook.uuid, event: 'contact_enriched', target_url: `${receiver.url}/leaked-test` },
    });
    expect(tested.statusCode, tested.body).toBe(200);
    const [sample] = await receiver.waitFor(1, (request) => request.path === '/leaked-test');
    expect(verifies(res.json().secret, sample!)).toBe(true);
    expect(verifies(hook.secret, sample!)).toBe(false);
  });

  it('refuses a grace period over 7 days, and another team’s or an unknown webhook', async () => {
    const hook = await createWebhook('/guarded');
    const tooLong = await rotate(alice, hook.uuid, { previous_secret_ttl_seconds: 8 * 86_400 });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().message).toContain('previous_secret_ttl_seconds');
    expect((await rotate(bob, hook.uuid)).statusCode).toBe(404);
    expect((await rotate(alice, '0190a0a0-0000-7000-8000-000000000000')).statusCode).toBe(404);
    // Nothing changed for the refused requests: the original secret still signs alone.
    const delivered = await deliver('/guarded');
    expect(delivered.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(hook.secret, delivered)).toBe(true);
  });
});
