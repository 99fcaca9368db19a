// Summing and folding delta tables: sums equal recounts before and after folds, folds keep every
// dimension (and the time bucket) apart, and a fold of one scope leaves the others alone.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../test/harness.js';
import { newId } from '../lib/ids.js';
import { flowConversionDeltas, foldDeltas, sumDeltas, taskCountDeltas } from './count-deltas.js';

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

const rowsOf = async (table: string, teamId: number) =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(table)} where team_id = ${teamId}`.execute(ctx.db)
  ).rows[0]!.n;

describe('count deltas', () => {
  it('sum by group to a recount, fold once rows pile up, and keep scopes apart', async () => {
    const [flowA, flowB] = [newId(), newId()];
    // 100 statements, each its own delta row: 3 of 4 tasks on flow A, statuses alternating.
    for (let i = 0; i < 100; i++) {
      await ctx.db
        .insertInto('tasks')
        .values({
          team_id: alice.teamId,
          uuid: newId(),
          lead_uuid: newId(),
          flow_uuid: i % 4 === 0 ? flowB : flowA,
          flow_node_id: 2,
          type: 'linkedin_send_message',
          automation: 'auto',
          status: i % 2 ? 'closed' : 'in_progress',
        })
        .execute();
    }
    const recount = async (flow: string) =>
      (
        await sql<{ status: string; count: number }>`
          select status, count(*)::int as count from tasks
          where team_id = ${alice.teamId} and flow_uuid = ${flow} group by status order by status`.execute(
          ctx.db,
        )
      ).rows;
    const sums = async (flow: string) =>
      (
        await sumDeltas(ctx.db, taskCountDeltas, alice.teamId, {
          groupBy: ['status'],
          where: sql`d.flow_uuid = ${flow}`,
        })
      ).sort((a, b) => String(a.status).localeCompare(String(b.status)));

    expect(await rowsOf('task_count_deltas', alice.teamId)).toBe(100);
    const expectedA = await recount(flowA);
    expect(expectedA).toEqual([
      { status: 'closed', count: 50 },
      { status: 'in_progress', count: 25 },
    ]);
    // The first read of flow A summed 75 rows for 2 groups: it folds A's rows, not B's.
    expect(await sums(flowA)).toEqual(expectedA);
    expect(await rowsOf('task_count_deltas', alice.teamId)).toBe(2 + 25);
    expect(await sums(flowA)).toEqual(expectedA);
    expect(await sums(flowB)).toEqual(await recount(flowB));

    // A group that sums to zero disappears from the answer and from the folded rows.
    await ctx.db
      .deleteFrom('tasks')
      .where('team_id', '=', alice.teamId)
      .where('flow_uuid', '=', flowB)
      .execute();
    await foldDeltas(ctx.db, taskCountDeltas, alice.teamId);
    expect(await sums(flowB)).toEqual([]);
    expect(await rowsOf('task_count_deltas', alice.teamId)).toBe(2);
    const [total] = await sumDeltas(ctx.db, taskCountDeltas, alice.teamId);
    expect(total).toEqual({ count: 75 });
  });

  it('keep the hour of time-bucketed rows when folding', async () => {
    const flow = newId();
    const at = (iso: string) => new Date(iso);
    const rows = [
      ['2026-03-01T10:05:00Z', 'replied'],
      ['2026-03-01T10:55:00Z', 'replied'],
      ['2026-03-01T11:10:00Z', 'replied'],
      ['2026-03-01T11:20:00Z', 'accepted'],
    ] as const;
    for (const [time, kind] of rows) {
      await ctx.db
        .insertInto('flow_conversion_deltas')
        .values({
          team_id: alice.teamId,
          flow_uuid: flow,
          flow_node_id: 3,
          contact_source_id: 1,
          channel: 'linkedin_message',
          kind,
          delta: 1,
          occurred_at: at(time),
        })
        .execute();
    }
    const inRange = (from: string, to: string) =>
      sumDeltas(ctx.db, flowConversionDeltas, alice.teamId, {
        groupBy: ['kind'],
        where: sql`d.flow_uuid = ${flow} and d.occurred_at >= ${at(from)} and d.occurred_at < ${at(to)}`,
      });
    await foldDeltas(ctx.db, flowConversionDeltas, alice.teamId, sql`d.flow_uuid = ${flow}`);
    expect(await rowsOf('flow_conversion_deltas', alice.teamId)).toBe(3);
    expect(await inRange('2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z')).toEqual([
      { kind: 'replied', count: 2 },
    ]);
    expect(
      (await inRange('2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z')).sort((a, b) =>
        String(a.kind).localeCompare(String(b.kind)),
      ),
    ).toEqual([
      { kind: 'accepted', count: 1 },
      { kind: 'replied', count: 3 },
    ]);
  });

  it('do not fold rows that are already one per combination, however few groups a read asks for', async () => {
    const team = await ctx.createUser();
    // One statement, 200 distinct combinations (flow x node): 200 delta rows a fold cannot shrink.
    await ctx.db
      .insertInto('tasks')
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          team_id: team.teamId,
          uuid: newId(),
          lead_uuid: newId(),
          flow_uuid: newId(),
          flow_node_id: i,
          type: 'linkedin_send_message',
          automation: 'auto' as const,
        })),
      )
      .execute();
    const ids = async () =>
      (
        await sql<{
          id: number;
        }>`select id from task_count_deltas where team_id = ${team.teamId} order by id`.execute(ctx.db)
      ).rows.map((row) => row.id);
    const before = await ids();
    expect(await sumDeltas(ctx.db, taskCountDeltas, team.teamId)).toEqual([{ count: 200 }]);
    expect(await sumDeltas(ctx.db, taskCountDeltas, team.teamId, { groupBy: ['status'] })).toEqual([
      { status: 'in_progress', count: 200 },
    ]);
    // Untouched: the same rows, not rewritten by a fold.
    expect(await ids()).toEqual(before);
  });
});
