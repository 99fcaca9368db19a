// POST /integrations/api/webhooks/metrics (delivery counts per webhook and status over a period) and the
// hosted service's internal path /integrations/c1/api/webhooks, an alias of the same operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const TARGET = 'https://93.184.215.14/hooks/leadflow';

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function createWebhook(user: TestUser, base = '/integrations/api/webhooks') {
  const res = await ctx.request(user, {
    method: 'POST',
    url: base,
    payload: { name: 'Replies', event: 'contact_replied_email', target_url: TARGET },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { uuid: string };
}

/** Deliveries of `webhook` with the given statuses, created at `at`. */
async function deliveries(teamId: number, webhook: string, statuses: string[], at: string) {
  for (const status of statuses) {
    const event = newId();
    await ctx.db
      .insertInto('events')
      .values({
        team_id: teamId,
        uuid: event,
        name: 'contact_replied_email',
        lead_uuid: null,
        payload: '{}',
        occurred_at: new Date(at),
      })
      .execute();
    await ctx.db
      .insertInto('webhook_deliveries')
      .values({
        team_id: teamId,
        uuid: newId(),
        webhook_uuid: webhook,
        event_uuid: event,
        status: status as 'succeeded',
        created_at: new Date(at),
      })
      .execute();
  }
}

describe('webhook metrics', () => {
  it('counts deliveries per webhook and status within the period, on both paths', async () => {
    const one = await createWebhook(alice);
    const two = await createWebhook(alice);
    const bobs = await createWebhook(bob);
    await deliveries(alice.teamId, one.uuid, ['succeeded', 'succeeded', 'failed'], '2026-03-10T10:00:00Z');
    await deliveries(alice.teamId, one.uuid, ['succeeded'], '2026-04-02T10:00:00Z');
    await deliveries(alice.teamId, two.uuid, ['retrying'], '2026-03-31T23:00:00Z');
    await deliveries(bob.teamId, bobs.uuid, ['succeeded'], '2026-03-10T10:00:00Z');

    const march = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks/metrics',
      payload: { uuids: [one.uuid, two.uuid, bobs.uuid], period_from: '2026-03-01', period_to: '2026-03-31' },
    });
    expect(march.statusCode, march.body).toBe(200);
    expect(march.json()).toEqual({
      [one.uuid]: { total: 3, pending: 0, retrying: 0, succeeded: 2, failed: 1, canceled: 0 },
      [two.uuid]: { total: 1, pending: 0, retrying: 1, succeeded: 0, failed: 0, canceled: 0 },
    });

    const allTime = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/c1/api/webhooks/metrics',
      payload: { uuids: [one.uuid], metrics: ['total', 'succeeded'] },
    });
    expect(allTime.statusCode, allTime.body).toBe(200);
    expect(allTime.json()).toEqual({ [one.uuid]: { total: 4, succeeded: 3 } });

    const reversed = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks/metrics',
      payload: { uuids: [one.uuid], period_from: '2026-04-01', period_to: '2026-03-01' },
    });
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().error.data).toHaveProperty('period_to');
  });

  it('answers the c1 paths like the documented ones: CRUD, team scope and the literal segments', async () => {
    const created = await createWebhook(alice, '/integrations/c1/api/webhooks');
    const got = await ctx.request(alice, {
      method: 'GET',
      url: `/integrations/c1/api/webhooks/${created.uuid}`,
    });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ uuid: created.uuid, name: 'Replies' });
    const documented = await ctx.request(alice, {
      method: 'GET',
      url: `/integrations/api/webhooks/${created.uuid}`,
    });
    expect(documented.json()).toEqual(got.json());
    expect(
      (await ctx.request(bob, { method: 'GET', url: `/integrations/c1/api/webhooks/${created.uuid}` }))
        .statusCode,
    ).toBe(404);
    const listed = await ctx.request(alice, {
      method: 'GET',
      url: '/integrations/c1/api/webhooks?limit=100',
    });
    expect(listed.json().data.map((w: { uuid: string }) => w.uuid)).toContain(created.uuid);
    const updated = await ctx.request(alice, {
      method: 'PUT',
      url: `/integrations/c1/api/webhooks/${created.uuid}`,
      payload: { status: 'off' },
    });
    expect(updated.json().status).toBe('off');
    // `metrics` and `test` are literal segments, never a webhook uuid.
    const wrongMethod = await ctx.request(alice, {
      method: 'GET',
      url: '/integrations/c1/api/webhooks/metrics',
    });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect(
      (await ctx.request(null, { method: 'GET', url: '/integrations/c1/api/webhooks' })).statusCode,
    ).toBe(401);
    const removed = await ctx.request(alice, {
      method: 'DELETE',
      url: `/integrations/c1/api/webhooks/${created.uuid}`,
    });
    expect(removed.statusCode).toBe(204);
    const document = (await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/integrations/c1/api/webhooks/{uuid}'].get.operationId).toBe('getWebhookC1');
    expect(document.paths['/integrations/c1/api/webhooks/{uuid}'].get.description).toMatch(
      /^Alias of GET \/integrations\/api\/webhooks\/\{uuid\}/,
    );
  });
});
