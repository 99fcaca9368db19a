// Never twice, for real: a `leadflow worker` process is killed with SIGKILL in the middle of a run,
// twice, and fresh workers finish the job. The sandbox network records every action it was asked for.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
} from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, waitFor } from '../../../test/harness.js';
import { spawnLeadflow, stopChild } from '../../../test/processes.js';

const CONTACTS = 150;

let ctx: TestContext;
let dataDir: string;
const workers: ChildProcess[] = [];

function startWorker(): ChildProcess {
  // node itself (spawnLeadflow): the SIGKILL must reach the worker, not a wrapper process.
  const child = spawnLeadflow(['worker'], {
    env: {
      ...process.env,
      DATABASE_URL: ctx.databaseUrl,
      LOG_LEVEL: 'silent',
      LEADFLOW_DATA_DIR: dataDir,
      LEADFLOW_SECRET_KEY: randomBytes(32).toString('base64'),
      LEADFLOW_ENGINE_POLL_INTERVAL_MS: '20',
      LEADFLOW_ENGINE_LEASE_MS: '1000',
      LEADFLOW_ENGINE_RECONCILE_AFTER_MS: '1500',
      LEADFLOW_ENGINE_BATCH_SIZE: '20',
    },
    stdio: 'ignore',
  });
  workers.push(child);
  return child;
}

async function sent(): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from sandbox_linkedin_actions`.execute(
    ctx.db,
  );
  return row.rows[0]?.n ?? 0;
}

beforeAll(async () => {
  ctx = await createTestContext();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-kill-'));
});
afterAll(async () => {
  await Promise.all(workers.map((child) => stopChild(child, 'SIGKILL')));
  await ctx.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('a worker killed mid-run', () => {
  it('never makes the network act twice, and the next worker finishes every enrollment', async () => {
    const user = await ctx.createUser();
    const sender = await makeSender(ctx.db, user.teamId, {
      limits: { linkedin_visit_profile: 500, linkedin_like_latest_post: 200 },
    });
    await makeSandboxSeat(ctx.db, user.teamId, sender.uuid);
    const flow = await makeFlow(ctx.db, user.teamId, {
      senders: [sender.uuid],
      nodes: [
        { id: 1, type: 'linkedin_visit_profile', next: { 1: 2 } },
        { id: 2, type: 'linkedin_like_latest_post', next: { 1: 3 } },
        { id: 3, type: 'end' },
      ],
    });
    const leads = await makeContacts(ctx.db, user.teamId, CONTACTS, 'Kill');
    await enroll(
      ctx.db,
      user.teamId,
      flow,
      leads.map((l) => l.uuid),
      { at: new Date() },
    );

    for (const after of [40, 140]) {
      const worker = startWorker();
      await waitFor(async () => (await sent()) >= after, 60_000, 20);
      await stopChild(worker, 'SIGKILL');
    }
    startWorker();
    await waitFor(
      async () => {
        const live = await ctx.db
          .selectFrom('flow_leads')
          .select('uuid')
          .where('status', 'in', ['in_progress', 'paused'])
          .execute();
        return live.length === 0;
      },
      90_000,
      100,
    );

    const doubles = await sql<{ n: number }>`
      select count(*)::int as n from (
        select t.flow_lead_uuid, t.step from sandbox_linkedin_actions a
        join tasks t on t.team_id = a.team_id and t.uuid = a.task_uuid group by 1, 2 having count(*) > 1) d`.execute(
      ctx.db,
    );
    expect(doubles.rows[0]?.n).toBe(0);
    const byAction = await sql<{ action: string; n: number }>`
      select action, count(*)::int as n from sandbox_linkedin_actions group by 1 order by 1`.execute(ctx.db);
    expect(byAction.rows).toEqual([
      { action: 'linkedin_like_latest_post', n: CONTACTS },
      { action: 'linkedin_visit_profile', n: CONTACTS },
    ]);
    const ends = await sql<{ status: string; reason: string; n: number }>`
      select status, reason, count(*)::int as n from flow_leads group by 1, 2`.execute(ctx.db);
    expect(ends.rows).toEqual([{ status: 'finished', reason: 'completed', n: CONTACTS }]);
  }, 240_000);
});
