// One claimed batch of one team: load everything its nodes read in a few queries (batch-load.ts), run
// the node machine over every enrollment in rounds (a round answers all the Needs of the previous one at
// once: round-needs.ts), then write every row, task and effect in one transaction fenced by the claim
// token (batch-write.ts, batch-effects.ts) - so internal nodes happen exactly once.
import type { Logger } from 'pino';
import type { Database, Executor } from '../../../db/database.js';
import type { PreparedAction } from '../../leads/leads.mass-actions.js';
import type { WebhookClient } from '../../webhooks/webhook-client.js';
import type { PreparedRender } from '../render.js';
import { loadContext, loadWorks } from './batch-load.js';
import { writeWorks } from './batch-write.js';
import { advance, endWork } from './machine.js';
import {
  resolveFilters,
  resolveHttp,
  resolveMassActions,
  resolveMessages,
  resolveSenders,
} from './round-needs.js';
import type { BatchContext, EnrollmentRow, Work as WorkType } from './work.js';

export type BatchDeps = {
  db: Database;
  log: Logger;
  renderer: {
    prepare(
      db: Executor,
      teamId: number,
      leads: string[],
      senders: string[],
      aiTemplates: string[],
    ): Promise<PreparedRender>;
  };
  triggerDefaultWaitSeconds: number;
  http: { client: WebhookClient; sleep(ms: number): Promise<void> };
};

const MAX_ROUNDS = 12;

/** Enrollments that cannot run at all: flow or contact gone, flow archived, contact blacklisted. */
function precheck(work: WorkType, ctx: BatchContext): void {
  const problem = !work.flow
    ? 'flow_deleted'
    : work.flow.status === 'archived'
      ? 'flow_archived'
      : !work.version
        ? 'version_removed'
        : !work.lead
          ? 'contact_deleted'
          : work.lead.is_blacklisted
            ? 'blacklisted'
            : undefined;
  if (problem) {
    endWork(work, 'canceled', problem, ctx);
    return;
  }
  if (work.flow?.status !== 'on') {
    // Stopped since it was claimed: give the row back as it was.
    work.fl.next_run_at =
      work.fl.next_run_at && work.fl.next_run_at > ctx.now ? work.fl.next_run_at : ctx.now;
    work.blocked = true;
  }
}

/** Runs one team's claimed rows to their next wait and writes the result. Returns steps taken. */
export async function runTeamBatch(
  deps: BatchDeps,
  teamId: number,
  rows: EnrollmentRow[],
  now: Date,
): Promise<{ steps: number; written: number }> {
  const works = await loadWorks(deps.db, teamId, rows);
  const ctx = await loadContext(deps, teamId, works, now);
  const prepared = new Map<string, PreparedAction>();
  for (const work of works) precheck(work, ctx);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    for (const work of works) if (!work.blocked) advance(work, ctx);
    const waiting = works.filter((w) => w.need !== undefined);
    if (waiting.length === 0) break;
    await resolveFilters(deps.db, teamId, waiting, ctx);
    await resolveMassActions(deps.db, teamId, waiting, ctx, prepared);
    await resolveSenders(deps.db, teamId, waiting, ctx);
    await resolveHttp(deps, waiting, ctx);
    await resolveMessages(waiting, ctx);
    if (round === MAX_ROUNDS - 1) {
      for (const work of waiting) {
        work.fl.next_run_at = new Date(now.getTime() + 60_000);
        work.blocked = true;
      }
    }
  }
  const accepted = await deps.db
    .transaction()
    .execute((trx) => writeWorks(trx, teamId, works, now, prepared));
  return {
    steps: works.reduce((sum, w) => sum + (accepted.has(w.fl.uuid) ? w.visits : 0), 0),
    written: accepted.size,
  };
}
