// 100,000 contacts enrolled and canceled by contact mass actions, each one background operation.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../../test/harness.js';
import { selectInitialStageUuid } from '../../pipeline-stages/pipeline-stages.defaults.js';
import { createFlow } from '../flows.fixtures.js';

const COUNT = 100_000;
let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

async function runToEnd(payload: object) {
  const res = await ctx.request(alice, { method: 'PUT', url: '/leads/api/leads/mass-action', payload });
  expect(res.statusCode, res.body).toBe(202);
  const uuid = res.json().operation.uuid as string;
  return waitFor(
    async () => {
      const op = (
        await ctx.request(alice, { method: 'GET', url: `/leads/api/bulk-operations/${uuid}` })
      ).json();
      return op.status === 'done' || op.status === 'failed' ? op : undefined;
    },
    120_000,
    200,
  );
}

describe('flow mass actions at 100,000 contacts', () => {
  it('enrolls and cancels every selected contact in one background operation each', async () => {
    const list = await makeList(ctx.db, alice.teamId, 'Big');
    const stage = await selectInitialStageUuid(ctx.db, alice.teamId, 'lead');
    await sql`
      insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, name, first_name, custom_fields, is_blacklisted)
      select ${alice.teamId}, leadflow_uuid_v7(), ${list.uuid}::uuid, ${stage}::uuid, 'P ' || i, 'P', '{}'::jsonb,
        i % 10000 = 0
      from generate_series(1, ${COUNT}) as g(i)
    `.execute(ctx.db);
    // A team's table has statistics; a freshly filled test table would be planned as empty.
    await sql`analyze leads`.execute(ctx.db);
    const flow = await createFlow(ctx, alice);
    await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/${flow.uuid}/start` });

    const added = await runToEnd({
      type: 'contact_add_to_flow',
      payload: { flow_uuid: flow.uuid },
      filter: { list_uuid: list.uuid },
    });
    // Ten contacts are blacklisted: skipped.
    expect(added).toMatchObject({ status: 'done', affected: COUNT - 10 });
    const counts = await sql<{ status: string; active: boolean; n: number }>`
      select status, flow_active as active, count(*)::int as n from flow_leads
      where team_id = ${alice.teamId} and flow_uuid = ${flow.uuid} group by 1, 2`.execute(ctx.db);
    expect(counts.rows).toEqual([{ status: 'in_progress', active: true, n: COUNT - 10 }]);
    const listed = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows-leads/list',
      payload: { filter: { flow_uuid: [flow.uuid], status: ['in_progress'] }, limit: 1 },
    });
    expect(listed.json().total).toBe(COUNT - 10);

    const canceled = await runToEnd({
      type: 'contact_cancel_from_flows',
      payload: { flow_uuids: [flow.uuid] },
      filter: { list_uuid: list.uuid },
    });
    expect(canceled).toMatchObject({ status: 'done', affected: COUNT - 10 });
    const metrics = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/flows-leads/list',
      payload: { filter: { flow_uuid: [flow.uuid], status: ['canceled'] }, limit: 1 },
    });
    expect(metrics.json().total).toBe(COUNT - 10);
  }, 180_000);
});
