// Answering the Needs of a round for the whole batch at once: filters, mass-action checks, sender
// rotation, HTTP calls and AI-composed messages (a node's runner asks; the next round reads the answer).
import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { AppError } from '../../../lib/errors.js';
import { compileFilter } from '../../../lib/filter.js';
import { loadLeadFilterSpec } from '../../leads/leads.filter.js';
import { type PreparedAction, prepareMassAction } from '../../leads/leads.mass-actions.js';
import type { BatchDeps } from './batch.js';
import { callApi } from './http-node.js';
import type { BatchContext, Work as WorkType } from './work.js';

/** Messages composed at once per batch; the LLM client queues beyond its own limit anyway. */
const COMPOSE_CONCURRENCY = 8;

export async function resolveFilters(db: Executor, teamId: number, works: WorkType[], ctx: BatchContext) {
  const groups = new Map<string, { works: WorkType[]; filter: unknown; nodeId: number }>();
  for (const work of works) {
    if (work.need?.kind !== 'filter') continue;
    const node = work.need.node;
    const key = `${work.version?.uuid}:${node.id}`;
    const branches = (Array.isArray(node.payload.branches) ? node.payload.branches : []) as Array<{
      branch_id?: unknown;
      filters?: { mass_actions_filter?: unknown };
    }>;
    const filter = (branches.find((b) => Number(b.branch_id) === 1) ?? branches[0])?.filters
      ?.mass_actions_filter;
    const group = groups.get(key) ?? { works: [], filter, nodeId: node.id };
    group.works.push(work);
    groups.set(key, group);
  }
  if (groups.size === 0) return;
  const spec = await loadLeadFilterSpec(db, teamId);
  for (const group of groups.values()) {
    let matched = new Set<string>();
    try {
      const where = compileFilter(spec, group.filter);
      const leads = group.works.map((w) => w.fl.lead_uuid);
      const rows = await sql<{ uuid: string }>`
        select l.uuid from leads l
        where l.team_id = ${teamId} and l.uuid = any(${leads}::uuid[]) and ${where ?? sql<SqlBool>`true`}
      `.execute(db);
      matched = new Set(rows.rows.map((r) => r.uuid));
    } catch (error) {
      // A filter that no longer compiles (a custom field was deleted) matches nobody.
      if (!(error instanceof AppError)) throw error;
    }
    for (const work of group.works)
      ctx.filterResults.set(`${work.fl.uuid}:${group.nodeId}`, matched.has(work.fl.lead_uuid));
  }
}

export async function resolveMassActions(
  db: Executor,
  teamId: number,
  works: WorkType[],
  ctx: BatchContext,
  prepared: Map<string, PreparedAction>,
) {
  for (const work of works) {
    const need = work.need;
    if (need?.kind !== 'mass_action' || ctx.massActions.has(need.key)) continue;
    try {
      prepared.set(need.key, await prepareMassAction(db, teamId, need.massType, need.payload));
      ctx.massActions.set(need.key, { ok: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.massActions.set(need.key, { ok: false, message: error.message });
    }
  }
}

/**
 * Fair rotation: a contact that already has one of the source's senders in another flow keeps it;
 * the others go to the enabled sender that was given the fewest enrollments of this source so far.
 */
export async function resolveSenders(db: Executor, teamId: number, works: WorkType[], ctx: BatchContext) {
  const needing = works
    .filter((w) => w.need?.kind === 'sender')
    .sort((a, b) => a.fl.uuid.localeCompare(b.fl.uuid));
  if (needing.length === 0) return;
  const candidatesOf = (work: WorkType) =>
    (work.version?.sources.get(work.fl.contact_source_id)?.sender_profiles ?? [])
      .map((uuid) => uuid.toLowerCase())
      .filter((uuid) => ctx.senders.has(uuid));
  const allCandidates = [...new Set(needing.flatMap(candidatesOf))];
  const [known, counters] = await Promise.all([
    allCandidates.length > 0
      ? db
          .selectFrom('flow_leads')
          .select(['lead_uuid', 'sender_profile_uuid'])
          .where('team_id', '=', teamId)
          .where(
            'lead_uuid',
            'in',
            needing.map((w) => w.fl.lead_uuid),
          )
          .where('sender_profile_uuid', 'in', allCandidates)
          .orderBy('created_at', 'desc')
          .execute()
      : Promise.resolve([]),
    allCandidates.length > 0
      ? db
          .selectFrom('contact_source_rotation')
          .selectAll()
          .where('team_id', '=', teamId)
          .where(
            'flow_uuid',
            'in',
            needing.map((w) => w.fl.flow_uuid),
          )
          .execute()
      : Promise.resolve([]),
  ]);
  const load = new Map(
    counters.map((c) => [
      `${c.flow_uuid}:${c.contact_source_id}:${c.sender_profile_uuid}`,
      Number(c.assigned),
    ]),
  );
  for (const work of needing) {
    const candidates = candidatesOf(work);
    const enabled = candidates.filter((uuid) => ctx.senders.get(uuid)?.status === 'enabled');
    if (work.pausedWithoutSender(candidates, enabled)) continue;
    const known_ = known.find(
      (k) => k.lead_uuid === work.fl.lead_uuid && enabled.includes(k.sender_profile_uuid ?? ''),
    );
    let pick = known_?.sender_profile_uuid ?? undefined;
    if (!pick) {
      const keyOf = (uuid: string) => `${work.fl.flow_uuid}:${work.fl.contact_source_id}:${uuid}`;
      pick = enabled.reduce((best, uuid) =>
        (load.get(keyOf(uuid)) ?? 0) < (load.get(keyOf(best)) ?? 0) ? uuid : best,
      );
      load.set(keyOf(pick), (load.get(keyOf(pick)) ?? 0) + 1);
      work.rotated = { sourceId: work.fl.contact_source_id, sender: pick };
    }
    work.fl.sender_profile_uuid = pick;
  }
}

/** Composes the messages of AI-template nodes, a few at a time (their prompts may wait on the LLM). */
export async function resolveMessages(works: WorkType[], ctx: BatchContext) {
  const waiting = works.filter((w) => w.need?.kind === 'message');
  let next = 0;
  const runner = async () => {
    while (next < waiting.length) {
      const work = waiting[next++] as WorkType;
      if (work.need?.kind !== 'message') continue;
      const node = work.need.node;
      ctx.composed.set(`${work.fl.uuid}:${node.id}`, await ctx.compose(work, node));
    }
  };
  await Promise.all(Array.from({ length: Math.min(COMPOSE_CONCURRENCY, waiting.length) }, runner));
}

export async function resolveHttp(deps: BatchDeps, works: WorkType[], ctx: BatchContext) {
  const calls = works.filter((w) => w.need?.kind === 'http');
  await Promise.all(
    calls.map(async (work) => {
      if (work.need?.kind !== 'http') return;
      const node = work.need.node;
      ctx.httpResults.set(
        `${work.fl.uuid}:${node.id}`,
        await callApi(node, work, { ...deps.http, render: ctx.renderText }),
      );
    }),
  );
}
