// The engine end to end on a fake clock (as engine.flow.test.ts): branching and flow control - A/B
// tests, filters and rules, holds, skipped nodes, ended enrollments, manual routers.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHarness } from '../../../test/engine-harness.js';
import { newId } from '../../lib/ids.js';
import { releaseHolds } from '../enrollments/enrollment-signals.js';
import { flowHelpers, startFlowHarness } from './engine.flow.test-support.js';

let h: EngineHarness;
let senderUuid: string;

beforeAll(async () => {
  ({ h, senderUuid } = await startFlowHarness());
});
afterAll(() => h.close());

const { db, team, enrollment, tasksOf, start, settled } = flowHelpers(() => ({ h, senderUuid }));

describe('branching and flow control on the sandbox network', () => {
  it('splits an A/B test by its weights, deterministically per enrollment', async () => {
    const { rows } = await start(
      [
        {
          id: 1,
          type: 'rule_ab_test',
          payload: {
            branches: [
              { branch_id: 1, value: 30, is_enabled: true },
              { branch_id: 2, value: 70, is_enabled: true },
            ],
          },
          next: { 1: 2, 2: 3 },
        },
        { id: 2, type: 'end' },
        { id: 3, type: 'end' },
      ],
      400,
      'Ab',
    );
    await h.run(settled(rows.map((r) => r.uuid)));
    const forks = await sql<{ fork: number; n: number }>`
      select fork_result as fork, count(*)::int as n from tasks
      where team_id = ${team()} and type = 'rule_ab_test' and flow_lead_uuid = any(${rows.map((r) => r.uuid)}::uuid[])
      group by 1 order by 1
    `.execute(db());
    const [a, b] = forks.rows;
    expect(a!.n + b!.n).toBe(400);
    // 30% of 400 = 120; a binomial 99.9% band is about +-30.
    expect(a!.n).toBeGreaterThan(90);
    expect(a!.n).toBeLessThan(150);
    // Every enrollment went to the end node of its branch.
    const ends = await sql<{ node: number; n: number }>`
      select flow_node_id as node, count(*)::int as n from flow_leads
      where uuid = any(${rows.map((r) => r.uuid)}::uuid[]) group by 1 order by 1
    `.execute(db());
    expect(ends.rows).toEqual([
      { node: 2, n: a!.n },
      { node: 3, n: b!.n },
    ]);
  });

  it('branches on a contact filter and a json_logic rule at the moment it runs, and tags the contact', async () => {
    const tag = await db()
      .insertInto('tags')
      .values({ team_id: team(), uuid: newId(), name: 'VIP' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const marked = await db()
      .insertInto('tags')
      .values({ team_id: team(), uuid: newId(), name: 'Seen by flow' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const { rows, leads } = await start(
      [
        {
          id: 1,
          type: 'rule_filter',
          payload: {
            branches: [
              {
                branch_id: 1,
                filters: {
                  mass_actions_filter: { tags: [tag.uuid] },
                  json_logic: { '!=': [{ var: 'first_name' }, 'Fil2'] },
                },
              },
              { branch_id: 0 },
            ],
          },
          next: { 1: 2, 0: 3 },
        },
        { id: 2, type: 'gs_add_tag', payload: { tag_uuid: marked.uuid }, next: { 1: 3 } },
        { id: 3, type: 'end' },
      ],
      3,
      'Fil',
    );
    // Fil0 and Fil2 are VIPs; Fil2 is excluded by the json_logic rule.
    await db()
      .updateTable('leads')
      .set({ tags: [tag.uuid] })
      .where('uuid', 'in', [leads[0]!.uuid, leads[2]!.uuid])
      .execute();
    await h.run(settled(rows.map((r) => r.uuid)));
    const forks = await Promise.all(rows.map(async (r) => (await tasksOf(r.uuid))[0]!.fork_result));
    expect(forks).toEqual([1, 0, 0]);
    const tagged = await db()
      .selectFrom('leads')
      .select(['first_name', 'tags'])
      .where(
        'uuid',
        'in',
        leads.map((l) => l.uuid),
      )
      .orderBy('first_name')
      .execute();
    expect(tagged.map((l) => l.tags.includes(marked.uuid))).toEqual([true, false, false]);
  });

  it('holds a contact at util_hodor until released, then moves on', async () => {
    const { rows } = await start(
      [
        { id: 1, type: 'util_hodor', payload: { is_open: 0 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
      1,
      'Hold',
    );
    await h.run(undefined, { maxTicks: 5 });
    expect(await enrollment(rows[0]!.uuid)).toMatchObject({
      status: 'in_progress',
      flow_node_id: 1,
      next_run_at: null,
    });
    expect(await releaseHolds(db(), team(), { uuids: [rows[0]!.uuid] }, h.clock.now())).toBe(1);
    await h.run(settled([rows[0]!.uuid]));
    expect((await tasksOf(rows[0]!.uuid)).map((t) => [t.type, t.status])).toEqual([
      ['util_hodor', 'closed'],
      ['end', 'closed'],
    ]);
  });

  it('skips nodes whose outside service is not configured, without stranding the contact', async () => {
    const { rows } = await start(
      [
        { id: 1, type: 'integration_export_to_crm', payload: { integration_uuid: newId() }, next: { 1: 2 } },
        { id: 2, type: 'email_search_waterflow', payload: { waterflow_sequence: [] }, next: { 1: 3, 2: 3 } },
        { id: 3, type: 'phone_call_phone', payload: { note: 'Call them' }, next: { 1: 4 } },
        { id: 4, type: 'end' },
      ],
      1,
      'Skip',
    );
    await h.run(settled([rows[0]!.uuid]));
    const tasks = await db()
      .selectFrom('tasks')
      .select(['type', 'status', 'automation', 'fork_result'])
      .where('flow_lead_uuid', '=', rows[0]!.uuid)
      .orderBy('step')
      .execute();
    expect(tasks).toEqual([
      { type: 'integration_export_to_crm', status: 'skipped', automation: 'auto', fork_result: null },
      { type: 'email_search_waterflow', status: 'closed', automation: 'auto', fork_result: 1 },
      // A to-do for a person; the contact did not wait for it.
      { type: 'phone_call_phone', status: 'in_progress', automation: 'manual', fork_result: null },
      { type: 'end', status: 'closed', automation: 'auto', fork_result: null },
    ]);
  });

  it('ends enrollments whose contact was deleted or blacklisted', async () => {
    const { rows, leads } = await start(
      [
        { id: 1, type: 'util_timer', payload: { wait_time: 600 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
      2,
      'Gone',
    );
    await h.run(undefined, { maxTicks: 2 });
    await db()
      .updateTable('leads')
      .set({ is_blacklisted: true })
      .where('uuid', '=', leads[0]!.uuid)
      .execute();
    await db().deleteFrom('leads').where('uuid', '=', leads[1]!.uuid).execute();
    await h.run(settled(rows.map((r) => r.uuid)));
    expect((await enrollment(rows[0]!.uuid)).reason).toBe('blacklisted');
    expect((await enrollment(rows[1]!.uuid)).reason).toBe('contact_deleted');
  });

  it('waits at a manual router until a person completes its to-do with the branch to take', async () => {
    const { rows } = await start(
      [
        {
          id: 1,
          type: 'rule_manual_router',
          payload: {
            branches: [
              { branch_id: 1, name: 'Call' },
              { branch_id: 2, name: 'Skip' },
            ],
            note: 'Decide',
          },
          next: { 1: 2, 2: 3 },
        },
        { id: 2, type: 'end' },
        { id: 3, type: 'end' },
      ],
      1,
      'Router',
    );
    await h.run(undefined, { maxTicks: 3 });
    const todo = await db()
      .selectFrom('tasks')
      .select(['uuid', 'automation', 'status'])
      .where('flow_lead_uuid', '=', rows[0]!.uuid)
      .executeTakeFirstOrThrow();
    expect(todo).toMatchObject({ automation: 'manual', status: 'in_progress' });
    const wrong = await h.ctx.request(h.user, {
      method: 'PUT',
      url: `/flows/api/tasks/${todo.uuid}/complete`,
      payload: { fork_result: 7 },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toContain('1, 2');
    const done = await h.ctx.request(h.user, {
      method: 'PUT',
      url: `/flows/api/tasks/${todo.uuid}/complete`,
      payload: { fork_result: 2 },
    });
    expect(done.statusCode).toBe(200);
    // The API woke the enrollment with the database clock: bring the engine's clock there.
    h.clock.set(new Date(Math.max(h.clock.now().getTime(), Date.now() + 1000)));
    await h.run(settled([rows[0]!.uuid]));
    expect(await enrollment(rows[0]!.uuid)).toMatchObject({ status: 'finished', flow_node_id: 3 });
  });
});
