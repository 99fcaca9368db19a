// Mass actions above the synchronous limit (set to 5 here) run as bulk operations in batches of 5.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { makeCompanyBlacklistEntry, postCompanies } from '../companies/companies.fixtures.js';
import { createLeads, listOf, makeLeadBlacklistEntry, makeTag } from '../leads/leads.fixtures.js';
import { queueBulkOperation } from './bulk-operations.jobs.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ config: { massActionSyncLimit: 5 } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  await makeLeadBlacklistEntry(ctx, alice.teamId, { company_name: 'blocked co' });
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

async function seed(name: string, count: number) {
  const list = await listOf(ctx, alice, name);
  await createLeads(ctx, alice, list.uuid, [
    ...Array.from({ length: count }, (_, i) => ({ first_name: `${name}${i}` })),
    { first_name: `${name} blocked`, company_name: 'Blocked Co' },
  ]);
  return list;
}

const act = (payload: Record<string, unknown>) =>
  ctx.request(alice, { method: 'PUT', url: '/leads/api/leads/mass-action', payload });

async function finished(uuid: string) {
  return waitFor(async () => {
    const res = await ctx.request(alice, { method: 'GET', url: `/leads/api/bulk-operations/${uuid}` });
    const body = res.json();
    return body.status === 'done' || body.status === 'failed' ? body : undefined;
  });
}

describe('mass actions as bulk operations', () => {
  it('queues a large action, runs it in batches and reports the affected count', async () => {
    const list = await seed('Big', 12);
    const tag = await makeTag(ctx, alice.teamId, 'Bulk tag');
    const res = await act({
      type: 'contact_add_tags',
      payload: { tag_uuid: tag.uuid },
      filter: { list_uuid: list.uuid },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { affected, operation } = res.json();
    expect(affected).toBeNull();
    expect(operation).toMatchObject({
      type: 'contact_add_tags',
      status: 'queued',
      team_id: alice.teamId,
      user_id: alice.userId,
      filter: { list_uuid: list.uuid },
      payload: { tag_uuids: [tag.uuid] },
      affected: null,
    });
    const done = await finished(operation.uuid);
    expect(done).toMatchObject({ status: 'done', affected: 12, error: null });
    expect(done.finished_at).not.toBeNull();
    const tagged = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/count',
      payload: { filter: { tags: [tag.uuid] } },
    });
    expect(tagged.json().total).toBe(12);
  });

  it('deletes in the background, and stays synchronous under the limit', async () => {
    const list = await seed('Gone', 7);
    const res = await act({ type: 'contact_delete', filter: { list_uuid: list.uuid } });
    expect(res.statusCode).toBe(202);
    expect(await finished(res.json().operation.uuid)).toMatchObject({ status: 'done', affected: 7 });
    const left = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/count',
      payload: { filter: { list_uuid: list.uuid } },
    });
    expect(left.json().total).toBe(1);
    const small = await act({
      type: 'contact_delete',
      filter: { list_uuid: list.uuid, is_blacklisted: false },
    });
    expect(small.json()).toEqual({ affected: 0, operation: null });
  });

  it('fails the operation with a reason when its subject no longer exists when it runs', async () => {
    const list = await seed('Late', 6);
    const operation = await ctx.db.transaction().execute((trx) =>
      queueBulkOperation(trx, {
        teamId: alice.teamId,
        userId: alice.userId,
        type: 'contact_change_list',
        filter: { list_uuid: list.uuid },
        payload: { list_uuid: '0190a0a0-0000-7000-8000-000000000000' },
      }),
    );
    const done = await finished(operation.uuid);
    expect(done).toMatchObject({ status: 'failed', affected: 0 });
    expect(done.error).toContain('payload.list_uuid');
  });

  it('answers 404 for another team\u2019s or an unknown operation, 422 for a malformed uuid', async () => {
    const list = await seed('Private', 6);
    const res = await act({
      type: 'contact_change_list',
      payload: { list_uuid: list.uuid },
      filter: { all: true },
    });
    const { uuid } = res.json().operation;
    expect(
      (await ctx.request(bob, { method: 'GET', url: `/leads/api/bulk-operations/${uuid}` })).statusCode,
    ).toBe(404);
    const unknown = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/bulk-operations/0190a0a0-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await ctx.request(alice, { method: 'GET', url: '/leads/api/bulk-operations/nope' })).statusCode,
    ).toBe(422);
    await finished(uuid);
  });

  it('runs large company mass actions in the background too, skipping blacklisted companies', async () => {
    const carol = await ctx.createUser();
    await makeCompanyBlacklistEntry(ctx, carol.teamId, { domain: 'blocked.example' });
    await postCompanies(ctx, carol, [
      ...Array.from({ length: 11 }, (_, i) => ({ name: `Retail ${i}`, industry: 'Retail' })),
      { name: 'Blocked', domain: 'blocked.example', industry: 'Retail' },
      { name: 'Software', industry: 'Software' },
    ]);
    const tag = await makeTag(ctx, carol.teamId, 'Retail tag');
    const companyAction = (payload: Record<string, unknown>) =>
      ctx.request(carol, { method: 'PUT', url: '/leads/api/companies/mass-action', payload });
    const finishedFor = (uuid: string) =>
      waitFor(async () => {
        const body = (
          await ctx.request(carol, { method: 'GET', url: `/leads/api/bulk-operations/${uuid}` })
        ).json();
        return body.status === 'done' || body.status === 'failed' ? body : undefined;
      });
    const countTagged = async () =>
      (
        await ctx.request(carol, {
          method: 'POST',
          url: '/leads/api/companies/list',
          payload: { filter: { tags: [tag.uuid] }, limit: 100 },
        })
      ).json().total;

    const tagged = await companyAction({
      type: 'company_add_tags',
      payload: { tag_uuid: tag.uuid },
      filter: { industry: 'retail' },
    });
    expect(tagged.statusCode, tagged.body).toBe(202);
    expect(tagged.json().affected).toBeNull();
    expect(tagged.json().operation).toMatchObject({
      type: 'company_add_tags',
      status: 'queued',
      payload: { tag_uuids: [tag.uuid] },
    });
    expect(await finishedFor(tagged.json().operation.uuid)).toMatchObject({ status: 'done', affected: 11 });
    expect(await countTagged()).toBe(11);

    const deleted = await companyAction({ type: 'company_delete', filter: { tags: [tag.uuid] } });
    expect(deleted.statusCode).toBe(202);
    expect(await finishedFor(deleted.json().operation.uuid)).toMatchObject({ status: 'done', affected: 11 });
    const left = (
      await ctx.request(carol, {
        method: 'GET',
        url: '/leads/api/companies?limit=100&order_field=name&order_type=asc',
      })
    ).json();
    expect(left.data.map((c: { name: string }) => c.name)).toEqual(['Blocked', 'Software']);

    const small = await companyAction({ type: 'company_delete', filter: { industry: 'software' } });
    expect(small.statusCode).toBe(200);
    expect(small.json()).toEqual({ affected: 1, operation: null });
  });
});
