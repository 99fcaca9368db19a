// Test helpers of the flows area: flows and versions through the API, senders and enrollments by insert
// (the senders module and the engine own those writes).
import { expect } from 'vitest';
import type { TestContext, TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { defaultSchedule } from '../../lib/schedule.js';

export type WireFlow = {
  uuid: string;
  status: string;
  flow_version_uuid: string;
  flow_workspace_uuid: string | null;
  name: string;
  warnings: Array<{ code: string; message: string }>;
  nodes: Array<{ id: number; type: string }>;
  contact_sources: Array<{ id: number; after_id: number; sender_profiles: string[] }>;
};

export async function createFlow(
  ctx: TestContext,
  user: TestUser,
  body: Record<string, unknown> = {},
): Promise<WireFlow> {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/flows/api/flows',
    payload: { name: 'Outreach', schedule: defaultSchedule('Europe/Berlin'), ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export type TestNode = {
  id: number;
  type: string;
  before: Array<{ node_id: number; branch_id: number }>;
  after: Array<{ node_id: number; branch_id: number }>;
  payload?: Record<string, unknown>;
  delay_in_seconds?: number;
};

/** A linear tree of `steps` (type and payload), ids 1..n, ending in an end node. */
export function linearTree(steps: Array<{ type: string; payload?: Record<string, unknown> }>): TestNode[] {
  const nodes: TestNode[] = steps.map((step, index) => ({
    id: index + 1,
    type: step.type,
    before: index === 0 ? [] : [{ node_id: index, branch_id: 1 }],
    after: [{ node_id: index + 2, branch_id: 1 }],
    payload: step.payload ?? {},
  }));
  nodes.push({
    id: steps.length + 1,
    type: 'end',
    before: steps.length === 0 ? [] : [{ node_id: steps.length, branch_id: 1 }],
    after: [],
  });
  return nodes;
}

export const messageStep = (text = 'Hello {{first_name}}') => ({
  type: 'linkedin_send_message',
  payload: { template: text },
});

export function source(overrides: Record<string, unknown> = {}) {
  return { id: 1, name: null, rotation_strategy: 'fair', sender_profiles: [], after_id: 1, ...overrides };
}

export function saveVersion(
  ctx: TestContext,
  user: TestUser,
  flowUuid: string,
  body: { nodes: unknown[]; contact_sources?: unknown[]; first_common_node_id?: number | null },
) {
  return ctx.request(user, {
    method: 'POST',
    url: `/flows/api/flows/${flowUuid}/flow-versions`,
    payload: { contact_sources: [source()], ...body },
  });
}

/** Saves a version and expects a 422; answers path -> messages. */
export async function versionProblems(
  ctx: TestContext,
  user: TestUser,
  flowUuid: string,
  body: { nodes: unknown[]; contact_sources?: unknown[]; first_common_node_id?: number | null },
) {
  const res = await saveVersion(ctx, user, flowUuid, body);
  expect(res.statusCode, res.body).toBe(422);
  return res.json().error.data as Record<string, string[]>;
}

/** A linear message tree (or `nodes`) with node `index` changed. */
export const withNode = (index: number, change: Partial<TestNode>, nodes = linearTree([messageStep()])) => {
  nodes[index] = { ...nodes[index]!, ...change };
  return nodes;
};

export async function makeSender(
  ctx: TestContext,
  teamId: number,
  status: 'enabled' | 'disabled' = 'enabled',
) {
  return ctx.db
    .insertInto('sender_profiles')
    .values({
      team_id: teamId,
      uuid: newId(),
      first_name: 'Sam',
      schedule: JSON.stringify(defaultSchedule()),
      limits: '{}',
      status,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Inserts enrollments as the engine would leave them (at `node`, in_progress unless said). */
export async function makeEnrollments(
  ctx: TestContext,
  teamId: number,
  flow: { uuid: string; flow_version_uuid: string },
  rows: Array<{ node: number; status?: 'in_progress' | 'paused' | 'finished'; lead?: string }>,
) {
  return ctx.db
    .insertInto('flow_leads')
    .values(
      rows.map((row) => ({
        team_id: teamId,
        uuid: newId(),
        flow_uuid: flow.uuid,
        flow_version_uuid: flow.flow_version_uuid,
        lead_uuid: row.lead ?? newId(),
        flow_node_id: row.node,
        status: row.status ?? 'in_progress',
        next_run_at: new Date(),
        started_at: new Date(),
      })),
    )
    .returningAll()
    .execute();
}
