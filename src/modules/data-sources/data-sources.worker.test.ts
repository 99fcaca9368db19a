// End to end through the job workers: a sandbox search source created over the API runs to the end
// into its list, rescheduling itself page batch after page batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat, makeSender } from '../../../test/automation-factories.js';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, waitFor } from '../../../test/harness.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LEADFLOW_DATA_SOURCE_PAGES_PER_RUN: '2' } });
});
afterAll(() => ctx.close());

describe('a data source run by the workers', () => {
  it('pages a sandbox search into the list and completes', async () => {
    const alice = await ctx.createUser();
    const sender = await makeSender(ctx.db, alice.teamId);
    await makeSandboxSeat(ctx.db, alice.teamId, sender.uuid);
    const list = (await makeList(ctx.db, alice.teamId, 'From search')).uuid;
    await ctx.startWorkers();
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/data-sources',
      payload: {
        type: 'ln_leads_search',
        list_uuid: list,
        payload: {
          url: 'https://www.linkedin.com/search/results/people/?keywords=founder&sandbox_results=95',
        },
        tags: ['Founders'],
      },
    });
    expect(res.statusCode).toBe(201);
    const uuid = res.json().uuid;
    const done = await waitFor(async () => {
      const got = (
        await ctx.request(alice, { method: 'GET', url: `/leads/api/data-sources/${uuid}` })
      ).json();
      return got.status === 'completed' ? got : null;
    }, 60_000);
    expect(done).toMatchObject({ total_results: 95, next_page: 11, errors: [] });
    const leads = await ctx.db
      .selectFrom('leads')
      .select(['linkedin', 'data_source_uuid'])
      .where('team_id', '=', alice.teamId)
      .where('list_uuid', '=', list)
      .execute();
    expect(leads).toHaveLength(95);
    expect(new Set(leads.map((lead) => lead.linkedin)).size).toBe(95);
    const metrics = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/data-sources/metrics',
      payload: { uuids: [uuid] },
    });
    expect(metrics.json()[uuid]).toMatchObject({ saved_records: 95, queued_records: 0, error_records: 0 });
  });
});
