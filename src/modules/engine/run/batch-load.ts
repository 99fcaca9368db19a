// Loading one claimed batch: its enrollments' flows, versions, contacts and current tasks, then what
// their nodes read (senders, signals, target flows and webhooks, the renderer's preparation) - a few
// queries for the whole batch.
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { LeadRow } from '../../leads/leads.present.js';
import { loadVersions } from '../version.js';
import type { BatchDeps } from './batch.js';
import { aiTemplateOf } from './machine.js';
import { renderAction, scheduleFor } from './step-context.js';
import type { BatchContext, EnrollmentRow, SenderRow, TaskRow, Work as WorkType } from './work.js';
import { Work } from './work.js';

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

export async function loadWorks(db: Executor, teamId: number, rows: EnrollmentRow[]) {
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

export async function loadContext(
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
        work.fl.flow_uuid,
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
