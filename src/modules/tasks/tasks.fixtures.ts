// Test helpers of the task tests: sender profiles through their API, tasks and enrollments inserted
// directly (the engine makes automation tasks; these tests must not depend on it).
import type { Insertable } from 'kysely';
import { expect } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import type { TestContext, TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import type { FlowLeadsTable } from '../flows/flows.tables.js';
import type { TasksTable } from './tasks.tables.js';

export async function createSender(ctx: TestContext, user: TestUser, body: Record<string, unknown> = {}) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/flows/api/sender-profiles',
    payload: { first_name: 'Sam', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { uuid: string; assignee_user_id: number; schedule: { timezone: string } };
}

export async function createContacts(ctx: TestContext, user: TestUser, count: number) {
  const list = await makeList(ctx.db, user.teamId);
  return makeLeads(
    ctx.db,
    user.teamId,
    list.uuid,
    Array.from({ length: count }, (_, i) => ({ first_name: `Contact ${i}` })),
  );
}

export type TaskSeed = Partial<Insertable<TasksTable>> & { lead_uuid?: string };

/** Inserts tasks of the team (automation tasks by default) and returns their uuids in order. */
export async function insertTasks(ctx: TestContext, teamId: number, seeds: TaskSeed[]): Promise<string[]> {
  const rows = seeds.map((seed) => ({
    team_id: teamId,
    uuid: newId(),
    lead_uuid: newId(),
    type: 'linkedin_send_message',
    automation: 'auto' as const,
    ...seed,
  }));
  if (rows.length > 0) await ctx.db.insertInto('tasks').values(rows).execute();
  return rows.map((row) => row.uuid);
}

/** Inserts an enrollment (flow_leads row) of the team and returns its uuid. */
export async function insertEnrollment(
  ctx: TestContext,
  teamId: number,
  values: Partial<Insertable<FlowLeadsTable>> & { flow_uuid: string },
): Promise<string> {
  const uuid = newId();
  await ctx.db
    .insertInto('flow_leads')
    .values({
      team_id: teamId,
      uuid,
      flow_version_uuid: newId(),
      lead_uuid: newId(),
      status: 'in_progress',
      flow_node_id: 2,
      step: 1,
      ...values,
    })
    .execute();
  return uuid;
}
