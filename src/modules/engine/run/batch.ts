// One claimed batch of one team: load everything its nodes read in a few queries, run the node
// machine over every enrollment in rounds (a round answers all the Needs of the previous one at once:
// filters, mass-action checks, sender rotation, HTTP calls), then write every row, task and effect in
// one transaction fenced by the claim token - so internal nodes happen exactly once.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../../db/database.js';
import { AppError } from '../../../lib/errors.js';
import { compileFilter } from '../../../lib/filter.js';
import { queueLeadsFromFlow } from '../../enrichment/enrichment.flow.js';
import {
  contactsWhere,
  type EnrollmentTarget,
  enrollContacts,
  enrollmentTarget,
} from '../../enrollments/enroll.js';
import { endEnrollments, recordEnrollmentEnds, releaseHolds } from '../../enrollments/enrollment-signals.js';
import { emitEvents } from '../../events/emit.js';
import { EVENT_CATALOG, isEventName } from '../../events/events.catalog.js';
import { loadLeadFilterSpec } from '../../leads/leads.filter.js';
import { type PreparedAction, prepareMassAction } from '../../leads/leads.mass-actions.js';
import type { LeadRow } from '../../leads/leads.present.js';
import { deliverEventsTo } from '../../webhooks/fan-out.js';
import type { WebhookClient } from '../../webhooks/webhook-client.js';
import type { PreparedRender } from '../render.js';
import { loadVersions } from '../version.js';
import { callApi } from './http-node.js';
import { advance, aiTemplateOf, endWork } from './machine.js';
import { renderAction, scheduleFor } from './step-context.js';
import type { BatchContext, EnrollmentRow, SenderRow, TaskRow, Work as WorkType } from './work.js';
import { Work } from './work.js';

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
/** Messages composed at once per batch; the LLM client queues beyond its own limit anyway. */
const COMPOSE_CONCURRENCY = 8;

function byKey<T, K>(rows: T[], key: (row: T) => K): Map<K, T> {
  return new Map(rows.map((row) => [key(row), row]));
}

/** Every uuid a version's nodes reference under `field` (gs_send_to_flow flows, webhooks, senders). */
function referenced(works: WorkType[], type: string, field: string): string[] {
  const found = new Set<string>();
  for (const work of works) {
    for (const node of work.version?.nodes.values() ?? []) {
      if (node.type === type && typeof node.payload[field] === 'string') {
        found.add((node.payload[field] as string).toLowerCase());
      }
    }
  }
  return [...found];
}

/** The saved AI templates the action nodes of the batch's versions name (`template_uuid`). */
function aiTemplateUuids(works: WorkType[]): string[] {
  const found = new Set<string>();
  for (const work of works) {
    for (const node of work.version?.nodes.values() ?? []) {
      const uuid = aiTemplateOf(node);
      if (uuid) found.add(uuid);
    }
  }
  return [...found];
}

async function loadWorks(db: Executor, teamId: number, rows: EnrollmentRow[]) {
  const flowUuids = [...new Set(rows.map((r) => r.flow_uuid))];
  const leadUuids = [...new Set(rows.map((r) => r.lead_uuid))];
  const [flows, versions, leads, tasks] = await Promise.all([
    db.selectFrom('flows').selectAll().where('team_id', '=', teamId).where('uuid', 'in', flowUuids).execute(),
    loadVersions(
      db,
      teamId,
      rows.map((r) => r.flow_version_uuid),
    ),
    db.selectFrom('leads').selectAll().where('team_id', '=', teamId).where('uuid', 'in', leadUuids).execute(),
    sql<TaskRow>`
      select t.* from tasks t
      join unnest(${rows.map((r) => r.uuid)}::uuid[], ${rows.map((r) => r.step)}::int[]) as c(fl, step)
        on t.flow_lead_uuid = c.fl and t.step = c.step
      where t.team_id = ${teamId}
    `.execute(db),
  ]);
  const flowMap = byKey(flows, (f) => f.uuid);
  const leadMap = byKey(leads as LeadRow[], (l) => l.uuid);
  const taskMap = byKey(tasks.rows, (t) => t.flow_lead_uuid);
  return rows.map(
    (row) =>
      new Work(
        row,
        versions.get(row.flow_version_uuid),
        flowMap.get(row.flow_uuid),
        leadMap.get(row.lead_uuid),
        taskMap.get(row.uuid),
      ),
  );
}

async function loadContext(
  deps: BatchDeps,
  teamId: number,
  works: WorkType[],
  now: Date,
): Promise<BatchContext> {
  const db = deps.db;
  const senderUuids = new Set<string>();
  for (const work of works) {
    if (work.fl.sender_profile_uuid) senderUuids.add(work.fl.sender_profile_uuid);
    for (const source of work.version?.sources.values() ?? []) {
      for (const uuid of source.sender_profiles) senderUuids.add(uuid.toLowerCase());
    }
  }
  for (const uuid of referenced(works, 'gs_change_sender_profile', 'sender_profile_uuid'))
    senderUuids.add(uuid);
  const leadUuids = [...new Set(works.map((w) => w.fl.lead_uuid))];
  const flowTargets = referenced(works, 'gs_send_to_flow', 'flow_uuid');
  const webhookTargets = referenced(works, 'gs_trigger_custom_webhook', 'webhook_uuid');
  const [senders, signals, flows, webhooks, prepared] = await Promise.all([
    senderUuids.size > 0
      ? db
          .selectFrom('sender_profiles')
          .selectAll()
          .where('team_id', '=', teamId)
          .where('uuid', 'in', [...senderUuids])
          .execute()
      : Promise.resolve([] as SenderRow[]),
    db
      .selectFrom('lead_signals')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('lead_uuid', 'in', leadUuids)
      .execute(),
    flowTargets.length > 0
      ? db
          .selectFrom('flows')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where('uuid', 'in', flowTargets)
          .where('status', '<>', 'archived')
          .execute()
      : Promise.resolve([]),
    webhookTargets.length > 0
      ? db
          .selectFrom('webhooks')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where('uuid', 'in', webhookTargets)
          .where('status', '=', 'on')
          .execute()
      : Promise.resolve([]),
    deps.renderer.prepare(db, teamId, leadUuids, [...senderUuids], aiTemplateUuids(works)),
  ]);
  const signalMap = new Map<string, typeof signals>();
  for (const signal of signals) {
    const list = signalMap.get(signal.lead_uuid) ?? [];
    list.push(signal);
    signalMap.set(signal.lead_uuid, list);
  }
  const senderMap = byKey(senders, (s) => s.uuid);
  return {
    teamId,
    now,
    senders: senderMap,
    signals: signalMap,
    filterResults: new Map(),
    massActions: new Map(),
    composed: new Map(),
    httpResults: new Map(),
    flowTargets: new Set(flows.map((f) => f.uuid)),
    webhookTargets: new Set(webhooks.map((w) => w.uuid)),
    defaults: { triggerWaitSeconds: deps.triggerDefaultWaitSeconds },
    scheduleOf(work) {
      const sender = work.fl.sender_profile_uuid ? senderMap.get(work.fl.sender_profile_uuid) : undefined;
      return scheduleFor(work.flow, sender, work.lead);
    },
    render(work, node) {
      return renderAction(prepared, work, node);
    },
    compose(work, node) {
      return prepared.compose(
        String(node.payload.template_uuid),
        work.fl.lead_uuid,
        work.fl.sender_profile_uuid,
        `${work.fl.uuid}:${node.id}`,
      );
    },
    renderText(work, template) {
      return prepared.render(
        template,
        work.fl.lead_uuid,
        work.fl.sender_profile_uuid,
        `${work.fl.uuid}:text`,
      );
    },
  };
}

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

// ---- answering the Needs of a round ----

async function resolveFilters(db: Executor, teamId: number, works: WorkType[], ctx: BatchContext) {
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

async function resolveMassActions(
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
async function resolveSenders(db: Executor, teamId: number, works: WorkType[], ctx: BatchContext) {
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
    if (enabled.length === 0) {
      work.fl.status = 'paused';
      work.fl.reason = candidates.length === 0 ? 'no_sender' : 'sender_disabled';
      work.fl.next_run_at = null;
      work.blocked = true;
      work.need = undefined;
      continue;
    }
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
async function resolveMessages(works: WorkType[], ctx: BatchContext) {
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

async function resolveHttp(deps: BatchDeps, works: WorkType[], ctx: BatchContext) {
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

// ---- writing ----

const json = (value: unknown) => JSON.stringify(value);

/** Statuses of an enrollment that has left its flow (claimed rows were all in progress). */
const ENDED = new Set(['finished', 'canceled', 'failed']);

async function writeWorks(
  trx: Executor,
  teamId: number,
  works: WorkType[],
  now: Date,
  prepared: Map<string, PreparedAction>,
): Promise<Set<string>> {
  const rows = works.map((w) => ({
    uuid: w.fl.uuid,
    claim_token: w.claimToken,
    status: w.fl.status,
    flow_node_id: w.fl.flow_node_id,
    step: w.fl.step,
    next_run_at: w.fl.next_run_at,
    wait: w.fl.wait,
    reason: w.fl.reason,
    sender_profile_uuid: w.fl.sender_profile_uuid,
    finished_at: w.fl.finished_at,
  }));
  const updated = await sql<{ uuid: string }>`
    update flow_leads fl set status = v.status, flow_node_id = v.flow_node_id, step = v.step,
      next_run_at = v.next_run_at, wait = v.wait, reason = v.reason,
      sender_profile_uuid = v.sender_profile_uuid, finished_at = v.finished_at, lease_until = null,
      updated_at = ${now}
    from jsonb_to_recordset(${json(rows)}::jsonb) as v(uuid uuid, claim_token int, status text,
      flow_node_id int, step int, next_run_at timestamptz, wait jsonb, reason text,
      sender_profile_uuid uuid, finished_at timestamptz)
    where fl.team_id = ${teamId} and fl.uuid = v.uuid and fl.claim_token = v.claim_token
    returning fl.uuid
  `.execute(trx);
  const accepted = new Set(updated.rows.map((r) => r.uuid));
  const mine = works.filter((w) => accepted.has(w.fl.uuid));
  await recordEnrollmentEnds(
    trx,
    teamId,
    mine.filter((w) => ENDED.has(w.fl.status)).map((w) => w.fl.uuid),
  );

  const inserts = mine.flatMap((w) =>
    w.newTasks.map((t) => ({
      ...t,
      lead_uuid: w.fl.lead_uuid,
      company_uuid: w.lead?.company_uuid ?? null,
      flow_uuid: w.fl.flow_uuid,
      flow_lead_uuid: w.fl.uuid,
      priority: w.flow?.priority ?? 0,
      assigned_to: t.automation === 'manual' ? (w.flow?.user_id ?? null) : null,
    })),
  );
  if (inserts.length > 0) {
    await sql`
      insert into tasks (team_id, uuid, lead_uuid, company_uuid, sender_profile_uuid, flow_uuid,
        flow_lead_uuid, flow_node_id, step, type, automation, status, payload, fork_result, error_msg,
        automation_error_code, priority, note, timezone, schedule_at, executed_at, assigned_to,
        created_at, updated_at)
      select ${teamId}, v.uuid, v.lead_uuid, v.company_uuid, v.sender_profile_uuid, v.flow_uuid,
        v.flow_lead_uuid, v.flow_node_id, v.step, v.type, v.automation, v.status, v.payload,
        v.fork_result, v.error_msg, v.automation_error_code, v.priority, v.note, v.timezone,
        v.schedule_at, v.executed_at, v.assigned_to, ${now}, ${now}
      from jsonb_to_recordset(${json(inserts)}::jsonb) as v(uuid uuid, lead_uuid uuid, company_uuid uuid,
        sender_profile_uuid uuid, flow_uuid uuid, flow_lead_uuid uuid, flow_node_id int, step int,
        type text, automation text, status text, payload jsonb, fork_result int, error_msg text,
        automation_error_code text, priority int, note text, timezone text, schedule_at timestamptz,
        executed_at timestamptz, assigned_to bigint)
      on conflict (team_id, flow_lead_uuid, step) where flow_lead_uuid is not null do nothing
    `.execute(trx);
  }

  const changes = mine.flatMap((w) => w.taskChanges);
  if (changes.length > 0) {
    // Only a task still in progress moves: a person's move made meanwhile wins.
    await sql`
      update tasks t set status = v.status, fork_result = coalesce(v.fork_result, t.fork_result),
        error_msg = coalesce(v.error_msg, t.error_msg),
        automation_error_code = coalesce(v.automation_error_code, t.automation_error_code),
        executed_at = v.executed_at, updated_at = ${now}
      from jsonb_to_recordset(${json(changes)}::jsonb) as v(uuid uuid, status text, fork_result int,
        error_msg text, automation_error_code text, executed_at timestamptz)
      where t.team_id = ${teamId} and t.uuid = v.uuid and t.status = 'in_progress'
    `.execute(trx);
  }

  await applyEffects(trx, teamId, mine, prepared, now);

  const rotated = mine.flatMap((w) =>
    w.rotated ? [{ flow: w.fl.flow_uuid, source: w.rotated.sourceId, sender: w.rotated.sender }] : [],
  );
  if (rotated.length > 0) {
    await sql`
      insert into contact_source_rotation (team_id, flow_uuid, contact_source_id, sender_profile_uuid, assigned)
      select ${teamId}, v.flow, v.source, v.sender, count(*)
      from jsonb_to_recordset(${json(rotated)}::jsonb) as v(flow uuid, source int, sender uuid)
      group by v.flow, v.source, v.sender
      on conflict (team_id, flow_uuid, contact_source_id, sender_profile_uuid)
      do update set assigned = contact_source_rotation.assigned + excluded.assigned
    `.execute(trx);
  }

  await markDispatch(trx, teamId, mine);
  return accepted;
}

/** Tells the dispatcher when each sender has an action ready (the earliest wins). */
export async function markDispatch(trx: Executor, teamId: number, works: WorkType[]) {
  const marks = new Map<string, { sender: string; channel: string; at: Date }>();
  for (const work of works) {
    if (!work.dispatch || !work.fl.sender_profile_uuid || work.fl.status !== 'in_progress') continue;
    const key = `${work.fl.sender_profile_uuid}:${work.dispatch.channel}`;
    const existing = marks.get(key);
    if (!existing || work.dispatch.at < existing.at) {
      marks.set(key, {
        sender: work.fl.sender_profile_uuid,
        channel: work.dispatch.channel,
        at: work.dispatch.at,
      });
    }
  }
  if (marks.size === 0) return;
  await sql`
    insert into sender_channel_state (team_id, sender_profile_uuid, channel, next_dispatch_at)
    select ${teamId}, v.sender, v.channel, v.at
    from jsonb_to_recordset(${json([...marks.values()])}::jsonb) as v(sender uuid, channel text, at timestamptz)
    on conflict (team_id, sender_profile_uuid, channel) do update set
      next_dispatch_at = least(coalesce(sender_channel_state.next_dispatch_at, 'infinity'),
        greatest(excluded.next_dispatch_at, coalesce(sender_channel_state.next_slot_at, '-infinity'))),
      -- A dispatcher holding the sender would overwrite next_dispatch_at on release: it keeps this.
      pending_dispatch_at = least(coalesce(sender_channel_state.pending_dispatch_at, 'infinity'), excluded.next_dispatch_at)
  `.execute(trx);
}

async function applyEffects(
  trx: Executor,
  teamId: number,
  works: WorkType[],
  prepared: Map<string, PreparedAction>,
  now: Date,
) {
  const effects = works.flatMap((w) => w.effects);
  if (effects.length === 0) return;
  // Per action and flow, so the contacts' activities name the flow that changed them.
  const massGroups = new Map<string, { key: string; flowUuid: string; leads: string[] }>();
  for (const work of works) {
    for (const effect of work.effects) {
      if (effect.kind !== 'mass_action') continue;
      const group = `${effect.key}|${work.fl.flow_uuid}`;
      const entry = massGroups.get(group) ?? { key: effect.key, flowUuid: work.fl.flow_uuid, leads: [] };
      entry.leads.push(effect.leadUuid);
      massGroups.set(group, entry);
    }
  }
  for (const { key, flowUuid, leads } of massGroups.values()) {
    const action = prepared.get(key);
    if (action)
      await action.apply(trx, teamId, sql<SqlBool>`l.uuid = any(${leads}::uuid[])`, { flowUuid, at: now });
  }
  const pairs = (kind: string) =>
    effects.filter((e) => e.kind === kind) as Array<{
      leadUuid: string;
      except: string;
      flowUuids?: string[] | null;
    }>;
  const releases = pairs('release_holds');
  if (releases.length > 0) {
    await releaseHolds(trx, teamId, {
      where: sql<SqlBool>`fl.lead_uuid = any(${releases.map((r) => r.leadUuid)}::uuid[]) and fl.uuid <> all(${releases.map((r) => r.except)}::uuid[])`,
    });
  }
  for (const effect of pairs('end_others')) {
    const scope: RawBuilder<SqlBool> = effect.flowUuids
      ? sql<SqlBool>`fl.flow_uuid = any(${effect.flowUuids}::uuid[])`
      : sql<SqlBool>`true`;
    await endEnrollments(
      trx,
      teamId,
      { where: sql<SqlBool>`fl.lead_uuid = ${effect.leadUuid} and fl.uuid <> ${effect.except} and ${scope}` },
      'canceled',
      'removed_by_automation',
    );
  }
  await triggerCustomWebhooks(trx, teamId, works);
  const enrichments = effects.flatMap((e) => (e.kind === 'enqueue_enrichment' ? [e] : []));
  if (enrichments.length > 0) await queueLeadsFromFlow(trx, teamId, enrichments, now);
  await sendToFlows(
    trx,
    teamId,
    effects.flatMap((e) => (e.kind === 'send_to_flow' ? [e] : [])),
  );
}

/**
 * gs_send_to_flow: contacts enter their target flows through its first contact source, by the flows
 * module's enrolment (the one way in: skips contacts already in the flow, never blacklisted ones). A
 * target archived or deleted since the node was planned takes nobody.
 */
async function sendToFlows(
  trx: Executor,
  teamId: number,
  sends: Array<{ leadUuid: string; flowUuid: string }>,
) {
  const byFlow = new Map<string, string[]>();
  for (const send of sends) byFlow.set(send.flowUuid, [...(byFlow.get(send.flowUuid) ?? []), send.leadUuid]);
  for (const [flowUuid, leadUuids] of byFlow) {
    let target: EnrollmentTarget;
    try {
      target = await enrollmentTarget(trx, teamId, flowUuid, 1);
    } catch (error) {
      if (error instanceof AppError) continue;
      throw error;
    }
    await enrollContacts(
      trx,
      teamId,
      target,
      'flow',
      contactsWhere(teamId, sql<SqlBool>`l.uuid = any(${leadUuids}::uuid[])`),
    );
  }
}

/**
 * gs_trigger_custom_webhook: the contact's event (the webhook's own event name, with the automation)
 * is recorded without fan-out and delivered to that webhook only, signed and retried like any other. It
 * reports nothing that happened, so it stays off the contact's timeline.
 */
async function triggerCustomWebhooks(trx: Executor, teamId: number, works: WorkType[]) {
  const calls = works.flatMap((w) =>
    w.effects.flatMap((e) => (e.kind === 'custom_webhook' ? [{ work: w, webhookUuid: e.webhookUuid }] : [])),
  );
  if (calls.length === 0) return;
  const webhooks = await trx
    .selectFrom('webhooks')
    .select(['uuid', 'event'])
    .where('team_id', '=', teamId)
    .where('uuid', 'in', [...new Set(calls.map((c) => c.webhookUuid))])
    .execute();
  const eventOf = new Map(webhooks.map((w) => [w.uuid, w.event]));
  for (const call of calls) {
    const event = eventOf.get(call.webhookUuid);
    if (!event || !isEventName(event) || !EVENT_CATALOG[event].contact) continue;
    const flow = call.work.flow;
    const [uuid] = await emitEvents(
      trx,
      teamId,
      [
        {
          name: event,
          leadUuid: call.work.fl.lead_uuid,
          automation: flow
            ? { uuid: flow.uuid, name: flow.name, status: flow.status, priority: flow.priority }
            : null,
        },
      ],
      { fanOut: false, timeline: false },
    );
    if (uuid) await deliverEventsTo(trx, teamId, call.webhookUuid, [uuid]);
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
