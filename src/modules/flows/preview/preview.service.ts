// POST /flows/api/flows/{uuid}/preview: what a flow (or a draft of it) would do to chosen contacts over
// the next days - the engine's node machine on simulated time with the senders' schedules, limits and
// warm-up, and the sandbox network's answers at adjustable rates (src/modules/engine/preview). It only
// reads: the run lives in memory, nothing is sent, written or enrolled.
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import { AppError, invalidField, notFound } from '../../../lib/errors.js';
import { compileFilter } from '../../../lib/filter.js';
import { newId } from '../../../lib/ids.js';
import type { Channel } from '../../channels/driver.js';
import type { ActionRenderer, EnrollmentRow, SenderRow, SignalRow } from '../../engine/index.js';
import {
  compileVersion,
  newLane,
  type PreviewEnrollment,
  runPreview,
  type SenderLane,
} from '../../engine/index.js';
import { loadLeadFilterSpec } from '../../leads/leads.filter.js';
import type { LeadRow } from '../../leads/leads.present.js';
import { selectFlow } from '../flows.repository.js';
import { selectVersion } from '../versions/versions.repository.js';
import type { FlowVersionsService } from '../versions/versions.service.js';
import * as repo from './preview.repository.js';
import type { PreviewBody } from './preview.schemas.js';
import { pickContacts } from './preview-contacts.js';
import { buildReport } from './preview-report.js';

export type PreviewDeps = {
  db: Database;
  versions: Pick<FlowVersionsService, 'validateDraft'>;
  renderer: ActionRenderer;
  sandbox: Config['sandbox'];
  engine: Config['engine'];
  /** Longest a preview may simulate before it answers with what it has. */
  budgetMs?: number;
  /** Previews running at once in this process. */
  concurrency?: number;
};

const CHANNELS: Channel[] = ['linkedin', 'email'];

/** Why each sender cannot act on each channel (no seat, seat logged out, no active mailbox). */
async function channelProblems(db: Database, teamId: number, senders: string[]) {
  if (senders.length === 0) return new Map<string, string>();
  const [seats, mailboxes] = await repo.selectSeatsAndMailboxes(db, teamId, senders);
  const problems = new Map<string, string>();
  for (const sender of senders) {
    const seat = seats.find((s) => s.sender_profile_uuid === sender);
    if (!seat) problems.set(`${sender}:linkedin`, 'no_linkedin_seat');
    else if (seat.status !== 'running') problems.set(`${sender}:linkedin`, 'seat_login_issue');
    const boxes = mailboxes.filter((m) => m.sender_profile_uuid === sender);
    if (boxes.length === 0) problems.set(`${sender}:email`, 'no_mailbox');
    else if (!boxes.some((m) => m.status === 'active'))
      problems.set(`${sender}:email`, 'mailbox_unavailable');
  }
  return problems;
}

/** Contacts each rule_filter node's filter selects among `leads` (the engine asks the database the same). */
async function filterMatches(
  db: Database,
  teamId: number,
  version: ReturnType<typeof compileVersion>,
  leads: string[],
) {
  const matches = new Map<number, Set<string>>();
  const nodes = [...version.nodes.values()].filter((n) => n.type === 'rule_filter');
  if (nodes.length === 0) return matches;
  const spec = await loadLeadFilterSpec(db, teamId);
  for (const node of nodes) {
    const branches = (Array.isArray(node.payload.branches) ? node.payload.branches : []) as Array<{
      branch_id?: unknown;
      filters?: { mass_actions_filter?: unknown };
    }>;
    const filter = (branches.find((b) => Number(b.branch_id) === 1) ?? branches[0])?.filters
      ?.mass_actions_filter;
    if (!filter || typeof filter !== 'object') continue;
    let matched = new Set<string>();
    try {
      matched = await repo.selectMatchingContacts(db, teamId, leads, compileFilter(spec, filter));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    matches.set(node.id, matched);
  }
  return matches;
}

export function createFlowPreviewService(deps: PreviewDeps) {
  const { db } = deps;
  let running = 0;

  async function loadVersion(teamId: number, flowUuid: string, activeUuid: string, body: PreviewBody) {
    if (body.version) {
      const tree = await deps.versions.validateDraft(teamId, flowUuid, body.version, 'version.');
      return { label: 'draft', version: compileVersion({ uuid: 'draft', flow_uuid: flowUuid, ...tree }) };
    }
    const row = await selectVersion(db, teamId, activeUuid);
    if (!row) throw notFound('Flow version');
    return { label: row.uuid, version: compileVersion(row) };
  }

  async function preview(teamId: number, flowUuid: string, body: PreviewBody) {
    const began = performance.now();
    const flow = await selectFlow(db, teamId, flowUuid);
    if (!flow) throw notFound('Flow');
    const { label, version } = await loadVersion(teamId, flowUuid, flow.flow_version_uuid, body);
    const sources = [...version.sources.values()].filter((s) => s.after_id !== null);
    const sourceId = body.contact_source_id ?? sources[0]?.id;
    const source = version.sources.get(sourceId ?? -1);
    if (!source || source.after_id === null || source.after_id === undefined) {
      throw invalidField(
        'contact_source_id',
        `contact_source_id: the flow has no contact source ${sourceId ?? ''} with an entry node.`,
      );
    }
    const days = body.days ?? 30;
    const start = body.start_at ? new Date(body.start_at) : new Date();
    const end = new Date(start.getTime() + days * 86_400_000);
    const picked = await pickContacts(db, teamId, flowUuid, version, body);
    const leadUuids = picked.leads.map((l) => l.uuid);

    const senderUuids = new Set<string>();
    for (const s of version.sources.values())
      for (const uuid of s.sender_profiles) senderUuids.add(uuid.toLowerCase());
    for (const node of version.nodes.values()) {
      if (node.type === 'gs_change_sender_profile' && typeof node.payload.sender_profile_uuid === 'string')
        senderUuids.add(node.payload.sender_profile_uuid.toLowerCase());
    }
    const senderList = [...senderUuids];
    const [senders, problems, signals, known, rotation, matches, prepared] = await Promise.all([
      senderList.length > 0 ? repo.selectSenders(db, teamId, senderList) : Promise.resolve([] as SenderRow[]),
      channelProblems(db, teamId, senderList),
      leadUuids.length > 0 ? repo.selectSignals(db, teamId, leadUuids) : Promise.resolve([] as SignalRow[]),
      leadUuids.length > 0 && senderList.length > 0
        ? repo.selectOtherFlowSenders(db, teamId, flowUuid, leadUuids, senderList)
        : Promise.resolve([]),
      repo.selectRotation(db, teamId, flowUuid),
      filterMatches(db, teamId, version, leadUuids),
      deps.renderer.prepare(db, teamId, leadUuids, senderList, []),
    ]);

    const settings = assumptionsOf(deps.sandbox, body.assumptions);
    const lanes = new Map<string, SenderLane>();
    for (const sender of senders)
      for (const channel of CHANNELS)
        lanes.set(
          `${sender.uuid}:${channel}`,
          newLane(sender, channel, problems.get(`${sender.uuid}:${channel}`)),
        );
    const signalMap = new Map<string, SignalRow[]>();
    for (const s of signals) signalMap.set(s.lead_uuid, [...(signalMap.get(s.lead_uuid) ?? []), s]);
    const knownSenders = new Map<string, string[]>();
    for (const k of known)
      if (k.sender_profile_uuid)
        knownSenders.set(k.lead_uuid, [...(knownSenders.get(k.lead_uuid) ?? []), k.sender_profile_uuid]);

    const enrollments: PreviewEnrollment[] = picked.leads.map((lead, index) => ({
      index,
      fl: enrollmentRow(
        teamId,
        flowUuid,
        version.uuid,
        lead.uuid,
        source.id,
        source.after_id as number,
        start,
      ),
      lead,
      task: undefined,
      steps: [],
      reachedAt: [],
      wakeAt: Number.NaN,
      action: undefined,
    }));
    const budget = deps.budgetMs ?? 20_000;
    const simStart = performance.now();
    const run = await runPreview({
      teamId,
      flow: { ...flow, status: 'on' },
      version,
      senders: new Map(senders.map((s) => [s.uuid, s])),
      lanes,
      enrollments,
      signals: signalMap,
      filterMatches: matches,
      knownSenders,
      rotationLoad: new Map(
        rotation.map((r) => [`${r.contact_source_id}:${r.sender_profile_uuid}`, Number(r.assigned)]),
      ),
      prepared,
      settings,
      engine: deps.engine,
      start,
      end,
      deadline: began + budget,
    });
    const simulationMs = performance.now() - simStart;
    const report = buildReport({
      version,
      enrollments,
      lanes: [...lanes.values()],
      run,
      start,
      end,
      detail: body.detail ?? 20,
    });
    return {
      flow_uuid: flowUuid,
      version: label,
      started_at: start.toISOString(),
      ends_at: end.toISOString(),
      complete: run.complete,
      simulated_until: run.simulatedUntil.toISOString(),
      assumptions: {
        accept_rate: settings.acceptRate,
        reply_rate: settings.replyRate,
        min_response_hours: settings.minResponseSeconds / 3600,
        max_response_hours: settings.maxResponseSeconds / 3600,
        seed: settings.seed,
      },
      contacts: { total: picked.leads.length, source: picked.source, left_out: picked.leftOut },
      ...report,
      warnings: [...picked.warnings, ...warningsOf(version, run.complete, budget)],
      stats: {
        wall_ms: Math.round(performance.now() - began),
        simulation_ms: Math.round(simulationMs),
        steps: run.steps,
        actions: run.actions,
      },
    };
  }

  return {
    async preview(teamId: number, flowUuid: string, body: PreviewBody) {
      if (running >= (deps.concurrency ?? 2)) {
        throw new AppError('rate_limited', 'Other previews are running; try again in a few seconds.');
      }
      running += 1;
      try {
        return await preview(teamId, flowUuid, body);
      } finally {
        running -= 1;
      }
    },
  };
}

export type FlowPreviewService = ReturnType<typeof createFlowPreviewService>;

function assumptionsOf(sandbox: Config['sandbox'], a: PreviewBody['assumptions'] = {}): Config['sandbox'] {
  const min = a.min_response_hours !== undefined ? a.min_response_hours * 3600 : sandbox.minResponseSeconds;
  const max =
    a.max_response_hours !== undefined
      ? a.max_response_hours * 3600
      : Math.max(min, sandbox.maxResponseSeconds);
  if (max < min)
    throw invalidField(
      'assumptions.max_response_hours',
      'assumptions.max_response_hours must not be below min_response_hours.',
    );
  return {
    ...sandbox,
    acceptRate: a.accept_rate ?? sandbox.acceptRate,
    replyRate: a.reply_rate ?? sandbox.replyRate,
    minResponseSeconds: min,
    maxResponseSeconds: max,
    seed: a.seed ?? sandbox.seed,
  };
}

function enrollmentRow(
  teamId: number,
  flowUuid: string,
  versionUuid: string,
  leadUuid: string,
  sourceId: number,
  afterId: number,
  start: Date,
): EnrollmentRow {
  return {
    team_id: teamId,
    uuid: newId(),
    flow_uuid: flowUuid,
    flow_version_uuid: versionUuid,
    lead_uuid: leadUuid,
    contact_source_id: sourceId,
    added_by: 'user',
    sender_profile_uuid: null,
    status: 'in_progress',
    flow_node_id: afterId,
    step: 0,
    next_run_at: start,
    flow_active: true,
    claim_token: 0,
    lease_until: null,
    wait: null,
    reason: null,
    started_at: start,
    finished_at: null,
    created_at: start,
    updated_at: start,
  };
}

function warningsOf(version: ReturnType<typeof compileVersion>, complete: boolean, budget: number): string[] {
  const warnings: string[] = [];
  const types = new Set([...version.nodes.values()].map((n) => n.type));
  if (!complete)
    warnings.push(`The preview stopped after ${budget / 1000} s; fewer contacts or days show all of it.`);
  if ([...types].some((t) => t.startsWith('gs_') && /tag|list|stage/.test(t)))
    warnings.push(
      'CRM changes (tags, lists, stages) are not applied: filters later in the flow see the contacts as they are now.',
    );
  if (types.has('gs_call_api'))
    warnings.push('HTTP calls (gs_call_api) are not made; the contacts move on as if they answered.');
  if ([...version.nodes.values()].some((n) => typeof n.payload.template_uuid === 'string'))
    warnings.push(
      'Messages from AI templates are composed when they are sent; the preview shows a placeholder.',
    );
  if (types.has('gs_send_to_flow') || types.has('gs_remove_from_all_automations'))
    warnings.push('Other flows are not run: contacts sent to another flow are only counted here.');
  warnings.push("Other flows' actions of the same senders are not counted against their limits.");
  return warnings;
}

export type { LeadRow };
