import { v7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { enqueueJob } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { pruneEvents, pruneEventsJob } from './events.retention.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let webhookUuid: string;

const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  webhookUuid = newId();
  await ctx.db
    .insertInto('webhooks')
    .values({
      team_id: alice.teamId,
      uuid: webhookUuid,
      name: 'Receiver',
      event: 'contact_exported',
      target_url: 'https://hooks.example.com/leadflow',
      secret: `whsec_${Buffer.from('retention test secret').toString('base64')}`,
    })
    .execute();
});
afterAll(() => ctx.close());

/** Records an event `daysAgo` days ago (its uuid carries the time), optionally with a delivery. */
async function eventAt(user: TestUser, daysAgo: number, delivery?: 'succeeded' | 'retrying') {
  const uuid = v7({ msecs: Date.now() - daysAgo * DAY });
  await ctx.db
    .insertInto('events')
    .values({
      team_id: user.teamId,
      uuid,
      name: 'contact_exported',
      payload: JSON.stringify({ contact: null }),
      occurred_at: new Date(Date.now() - daysAgo * DAY),
    })
    .execute();
  if (delivery) {
    await ctx.db
      .insertInto('webhook_deliveries')
      .values({
        team_id: user.teamId,
        uuid: newId(),
        webhook_uuid: webhookUuid,
        event_uuid: uuid,
        status: delivery,
      })
      .execute();
  }
  return uuid;
}

async function remaining(user: TestUser) {
  const rows = await ctx.db.selectFrom('events').select('uuid').where('team_id', '=', user.teamId).execute();
  return rows.map((row) => row.uuid).sort();
}

describe('event retention', () => {
  it('deletes events older than the cutoff with their deliveries, in every team, but not one still being retried', async () => {
    await eventAt(alice, 40);
    await eventAt(alice, 35, 'succeeded');
    const oldRetrying = await eventAt(alice, 31, 'retrying');
    const recent = await eventAt(alice, 2, 'succeeded');
    await eventAt(bob, 60);
    const bobsRecent = await eventAt(bob, 0);

    const deleted = await pruneEvents(ctx.db, new Date(Date.now() - 30 * DAY));
    expect(deleted).toBe(3);
    expect(await remaining(alice)).toEqual([oldRetrying, recent].sort());
    expect(await remaining(bob)).toEqual([bobsRecent]);
    const deliveries = await ctx.db
      .selectFrom('webhook_deliveries')
      .select(['event_uuid', 'status'])
      .where('team_id', '=', alice.teamId)
      .orderBy('event_uuid')
      .execute();
    expect(deliveries).toEqual([
      { event_uuid: oldRetrying, status: 'retrying' },
      { event_uuid: recent, status: 'succeeded' },
    ]);
  });

  it('runs as a scheduled job with the configured retention, leaving CRM data alone', async () => {
    const list = await makeList(ctx.db, bob.teamId);
    const [lead] = await makeLeads(ctx.db, bob.teamId, list.uuid, [{ first_name: 'Kept' }]);
    const old = await eventAt(bob, ctx.config.retention.eventDays + 1);
    const fresh = await eventAt(bob, ctx.config.retention.eventDays - 1);
    await ctx.startWorkers();
    await enqueueJob(ctx.db, pruneEventsJob, {});
    await waitFor(async () => !(await remaining(bob)).includes(old));
    expect(await remaining(bob)).toContain(fresh);
    const kept = await ctx.db.selectFrom('leads').select('uuid').where('uuid', '=', lead!.uuid).execute();
    expect(kept).toHaveLength(1);
  });
});
