// The count deltas written by the statement triggers of migration 0500 always sum to a recount.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

async function countsFromDeltas() {
  const { rows } = await sql<{ key: string; n: number }>`
    select concat_ws('|', flow_uuid, flow_node_id, type, status) as key, sum(delta)::int as n
    from task_count_deltas where team_id = ${alice.teamId}
    group by 1 having sum(delta) <> 0 order by 1`.execute(ctx.db);
  return rows;
}

async function countsFromTasks() {
  const { rows } = await sql<{ key: string; n: number }>`
    select concat_ws('|', flow_uuid, flow_node_id, type, status) as key, count(*)::int as n
    from tasks where team_id = ${alice.teamId} group by 1 order by 1`.execute(ctx.db);
  return rows;
}

describe('task and enrollment count deltas', () => {
  it('follow inserts, status moves and deletes of tasks', async () => {
    const flow = newId();
    const rows = Array.from({ length: 30 }, (_, i) => ({
      team_id: alice.teamId,
      uuid: newId(),
      lead_uuid: newId(),
      flow_uuid: i % 3 === 0 ? null : flow,
      flow_node_id: i % 3 === 0 ? null : (i % 2) + 1,
      type: i % 2 ? 'linkedin_send_message' : 'linkedin_send_connection_request',
      automation: (i % 3 === 0 ? 'manual' : 'auto') as 'manual' | 'auto',
    }));
    await ctx.db.insertInto('tasks').values(rows).execute();
    expect(await countsFromDeltas()).toEqual(await countsFromTasks());

    await ctx.db
      .updateTable('tasks')
      .set({ status: 'closed' })
      .where('team_id', '=', alice.teamId)
      .where('type', '=', 'linkedin_send_message')
      .execute();
    // A no-op update of the counted columns writes no delta.
    const before = await ctx.db.selectFrom('task_count_deltas').select('id').execute();
    await ctx.db.updateTable('tasks').set({ note: 'n' }).where('team_id', '=', alice.teamId).execute();
    const after = await ctx.db.selectFrom('task_count_deltas').select('id').execute();
    expect(after.length).toBe(before.length);

    await ctx.db
      .deleteFrom('tasks')
      .where('team_id', '=', alice.teamId)
      .where('flow_node_id', '=', 1)
      .execute();
    expect(await countsFromDeltas()).toEqual(await countsFromTasks());
    expect((await countsFromTasks()).length).toBeGreaterThan(1);
  });

  it('follow enrollments by flow, source, way in and status', async () => {
    const flow = newId();
    const version = newId();
    await ctx.db
      .insertInto('flow_leads')
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          team_id: alice.teamId,
          uuid: newId(),
          flow_uuid: flow,
          flow_version_uuid: version,
          lead_uuid: newId(),
          contact_source_id: (i % 2) + 1,
        })),
      )
      .execute();
    await ctx.db
      .updateTable('flow_leads')
      .set({ status: 'finished' })
      .where('team_id', '=', alice.teamId)
      .where('contact_source_id', '=', 2)
      .execute();
    const { rows } = await sql<{ key: string; n: number }>`
      select concat_ws('|', contact_source_id, status) as key, sum(delta)::int as n
      from flow_lead_count_deltas where team_id = ${alice.teamId} and flow_uuid = ${flow}
      group by 1 having sum(delta) <> 0 order by 1`.execute(ctx.db);
    expect(rows).toEqual([
      { key: '1|in_progress', n: 5 },
      { key: '2|finished', n: 5 },
    ]);
  });
});
