// Saving a version with enrollments waiting in the flow: those at a node the new tree keeps continue
// on the new version, the others end (canceled, node_removed) with their pending tasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { newId } from '../../../lib/ids.js';
import { createFlow, linearTree, makeEnrollments, messageStep, saveVersion } from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

describe('saving a version with waiting enrollments', () => {
  it('moves enrollments at kept nodes and ends those at removed or retyped nodes', async () => {
    const flow = await createFlow(ctx, alice);
    // v2: 1 message, 2 timer, 3 message, 4 end
    const v2 = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([
        messageStep(),
        { type: 'util_timer', payload: { wait_time: 60 } },
        messageStep('Again'),
      ]),
    });
    expect(v2.statusCode, v2.body).toBe(201);
    expect(v2.json().enrollments).toEqual({ moved: 0, ended: 0 });
    const onV2 = { uuid: flow.uuid, flow_version_uuid: v2.json().uuid };
    const [atMessage, atTimer, atSecond, finished] = await makeEnrollments(ctx, alice.teamId, onV2, [
      { node: 1 },
      { node: 2 },
      { node: 3, status: 'paused' },
      { node: 4, status: 'finished' },
    ]);
    const task = await ctx.db
      .insertInto('tasks')
      .values({
        team_id: alice.teamId,
        uuid: newId(),
        lead_uuid: atTimer!.lead_uuid,
        flow_uuid: flow.uuid,
        flow_lead_uuid: atTimer!.uuid,
        flow_node_id: 2,
        step: 1,
        type: 'util_timer',
        automation: 'auto',
      })
      .returningAll()
      .executeTakeFirstOrThrow();

    // v3: node 1 kept, node 2 becomes a message (retyped), node 3 removed, node 4 (end) kept.
    const v3 = await saveVersion(ctx, alice, flow.uuid, {
      nodes: [
        {
          id: 1,
          type: 'linkedin_send_message',
          before: [],
          after: [{ node_id: 2, branch_id: 1 }],
          payload: { template: 'Hi' },
        },
        {
          id: 2,
          type: 'linkedin_send_message',
          before: [{ node_id: 1, branch_id: 1 }],
          after: [{ node_id: 4, branch_id: 1 }],
          payload: { template: 'Yo' },
        },
        { id: 4, type: 'end', before: [{ node_id: 2, branch_id: 1 }], after: [] },
      ],
    });
    expect(v3.statusCode, v3.body).toBe(201);
    expect(v3.json()).toMatchObject({ is_active: true, enrollments: { moved: 1, ended: 2 } });

    const rows = new Map(
      (await ctx.db.selectFrom('flow_leads').selectAll().where('flow_uuid', '=', flow.uuid).execute()).map(
        (r) => [r.uuid, r],
      ),
    );
    expect(rows.get(atMessage!.uuid)).toMatchObject({
      status: 'in_progress',
      flow_version_uuid: v3.json().uuid,
      flow_node_id: 1,
      claim_token: 1,
    });
    for (const ended of [atTimer!, atSecond!]) {
      expect(rows.get(ended.uuid)).toMatchObject({
        status: 'canceled',
        reason: 'node_removed',
        next_run_at: null,
      });
      expect(rows.get(ended.uuid)!.finished_at).toBeInstanceOf(Date);
    }
    expect(rows.get(finished!.uuid)).toMatchObject({ status: 'finished', flow_version_uuid: v2.json().uuid });
    const canceledTask = await ctx.db
      .selectFrom('tasks')
      .select(['status', 'error_msg'])
      .where('uuid', '=', task.uuid)
      .executeTakeFirst();
    expect(canceledTask).toEqual({ status: 'canceled', error_msg: 'node_removed' });

    // The flow now reads the new tree; the old version can go, the active one cannot.
    const got = (await ctx.request(alice, { method: 'GET', url: `/flows/api/flows/${flow.uuid}` })).json();
    expect(got.flow_version_uuid).toBe(v3.json().uuid);
    expect(got.nodes.map((n: { id: number }) => n.id)).toEqual([1, 2, 4]);
    const refused = await ctx.request(alice, {
      method: 'DELETE',
      url: `/flows/api/flow-versions/${v3.json().uuid}`,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toMatch(/active version/);
    const deleted = await ctx.request(alice, {
      method: 'DELETE',
      url: `/flows/api/flow-versions/${v2.json().uuid}`,
    });
    expect(deleted.statusCode).toBe(204);
    const list = (
      await ctx.request(alice, { method: 'GET', url: `/flows/api/flows/${flow.uuid}/flow-versions` })
    ).json();
    expect(list.map((v: { uuid: string; is_active: boolean }) => [v.uuid, v.is_active])).toEqual([
      [flow.flow_version_uuid, false],
      [v3.json().uuid, true],
    ]);
  });
});
