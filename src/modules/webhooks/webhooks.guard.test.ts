// What protects the service and its users: the private-address guard on every delivery and test, and
// webhooks that fail for too long being switched off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { emitEvents } from '../events/emit.js';
import { type Receiver, startReceiver } from './receiver.test-support.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function makeContact(ctx: TestContext, user: TestUser) {
  const list = await makeList(ctx.db, user.teamId);
  const [lead] = await makeLeads(ctx.db, user.teamId, list.uuid, [{ first_name: 'Dana' }]);
  return lead!.uuid;
}

describe('with private targets refused (the default)', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        webhooks: {
          retryScheduleSeconds: [60],
          allowPrivateTargets: false,
          timeoutMs: 2000,
          disableAfterFailingMs: 24 * 3600 * 1000,
        },
      },
    });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('refuses the delivery to a loopback target saved while private targets were allowed', async () => {
    const webhookUuid = newId();
    await ctx.db
      .insertInto('webhooks')
      .values({
        team_id: user.teamId,
        uuid: webhookUuid,
        name: 'Saved earlier',
        event: 'contact_enriched',
        target_url: `${receiver.url}/private`,
        secret: `whsec_${Buffer.from('a secret of the old days').toString('base64')}`,
      })
      .execute();
    const lead = await makeContact(ctx, user);
    await ctx.db
      .transaction()
      .execute((trx) => emitEvents(trx, user.teamId, [{ name: 'contact_enriched', leadUuid: lead }]));
    await ctx.startWorkers();
    const delivery = await waitFor(async () => {
      const res = await ctx.request(user, {
        method: 'GET',
        url: `/integrations/api/webhooks/${webhookUuid}/deliveries`,
      });
      const [row] = res.json().data;
      return row?.attempt === 1 ? row : undefined;
    });
    expect(delivery).toMatchObject({ status: 'retrying', status_code: null });
    expect(delivery.error).toContain('127.0.0.1 is a loopback address');
    expect(receiver.requests).toEqual([]);
  });

  it('refuses to test metadata, loopback and localhost targets', async () => {
    for (const target of [
      'http://169.254.169.254/latest/meta-data/',
      `${receiver.url}/t`,
      'http://localhost:9/t',
    ]) {
      const res = await ctx.request(user, {
        method: 'POST',
        url: '/integrations/api/webhooks/test',
        payload: { event: 'contact_enriched', target_url: target },
      });
      expect(res.statusCode, target).toBe(422);
      expect(res.json().error.data).toHaveProperty('target_url');
    }
    expect(receiver.requests).toEqual([]);
  });

  it('refuses to point an existing webhook at a private address', async () => {
    const created = await ctx.request(user, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: { name: 'Public', event: 'contact_enriched', target_url: 'https://93.184.215.14/hook' },
    });
    const res = await ctx.request(user, {
      method: 'PUT',
      url: `/integrations/api/webhooks/${created.json().uuid}`,
      payload: { target_url: 'http://[::ffff:169.254.169.254]/' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('link-local');
  });
});

describe('a webhook failing for too long', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        webhooks: {
          retryScheduleSeconds: [1, 1, 1, 1],
          allowPrivateTargets: true,
          timeoutMs: 1000,
          disableAfterFailingMs: 1000,
        },
      },
    });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('is switched off with a reason its owner can read, and its retries stop', async () => {
    receiver.respond = (request) =>
      request.path === '/failing' ? { status: 500, body: 'down' } : { status: 200 };
    const created = await ctx.request(user, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: { name: 'Failing', event: 'contact_enriched', target_url: `${receiver.url}/failing` },
    });
    const webhookUuid = created.json().uuid as string;
    const lead = await makeContact(ctx, user);
    await ctx.db
      .transaction()
      .execute((trx) => emitEvents(trx, user.teamId, [{ name: 'contact_enriched', leadUuid: lead }]));
    await ctx.startWorkers();
    const webhook = await waitFor(async () => {
      const res = await ctx.request(user, {
        method: 'GET',
        url: `/integrations/api/webhooks/${webhookUuid}`,
      });
      return res.json().status === 'off' ? res.json() : undefined;
    });
    expect(webhook.disabled_reason).toContain('no successful delivery');
    expect(webhook.last_error).toBe('HTTP 500: down');
    const deliveries = await ctx.request(user, {
      method: 'GET',
      url: `/integrations/api/webhooks/${webhookUuid}/deliveries`,
    });
    const [delivery] = deliveries.json().data;
    expect(delivery).toMatchObject({ status: 'canceled', next_retry_at: null });
    expect(delivery.attempt).toBeLessThan(5);
    const attempts = receiver.requests.filter((r) => r.path === '/failing').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.requests.filter((r) => r.path === '/failing')).toHaveLength(attempts);

    const retry = await ctx.request(user, {
      method: 'POST',
      url: `/integrations/api/webhooks/${webhookUuid}/deliveries/${delivery.uuid}/retry`,
    });
    expect(retry.statusCode).toBe(409);
  });
});
