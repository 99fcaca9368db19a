// The flow preview's run: the engine's node machine (run/machine.ts, the code that moves real
// enrollments) on simulated time, in memory. Enrollments, the senders' dispatch (preview-senders.ts)
// and the sandbox network's answers take turns exactly as one engine tick orders them (enrollments,
// then answers, then dispatch), and the clock jumps to the next thing due like the simulation's does.
// Nothing is written anywhere: what the batch would write, the preview keeps in these objects.

import type { SandboxSettings } from '../../browsers/sandbox/sandbox-driver.js';
import type { Channel } from '../../channels/driver.js';
import type { SignalKind } from '../engine.tables.js';
import { triggersFiredBy } from '../nodes/triggers.js';
import type { ComposedAction, PreparedRender } from '../render.js';
import { advance } from '../run/machine.js';
import { renderAction, scheduleFor } from '../run/step-context.js';
import {
  type BatchContext,
  type EnrollmentRow,
  type FlowRow,
  type NewTask,
  type SenderRow,
  type SignalRow,
  Work,
} from '../run/work.js';
import type { CompiledVersion } from '../version.js';
import { TimeHeap } from './preview-heap.js';
import {
  type ActionResult,
  dispatchLane,
  enqueue,
  type QueuedAction,
  type SenderLane,
} from './preview-senders.js';

type LeadRow = NonNullable<Work['lead']>;

export type PreviewEnrollment = {
  index: number;
  fl: EnrollmentRow;
  lead: LeadRow;
  /** The task of the current step (the machine changes it in place). */
  task: NewTask | undefined;
  /** Every step's task, in order. */
  steps: NewTask[];
  /** When each step was reached. */
  reachedAt: Date[];
  wakeAt: number;
  action: QueuedAction | undefined;
};

export type PreviewSetup = {
  teamId: number;
  flow: FlowRow;
  version: CompiledVersion;
  senders: Map<string, SenderRow>;
  lanes: Map<string, SenderLane>;
  enrollments: PreviewEnrollment[];
  signals: Map<string, SignalRow[]>;
  /** rule_filter matches by node id: the contacts its filter selects. */
  filterMatches: Map<number, Set<string>>;
  /** Contacts that already have a sender of the flow (a rotation keeps it). */
  knownSenders: Map<string, string[]>;
  rotationLoad: Map<string, number>;
  prepared: PreparedRender;
  settings: SandboxSettings;
  engine: { actionIntervalSeconds: number; limitPauseMs: number; triggerDefaultWaitSeconds: number };
  start: Date;
  end: Date;
  deadline: number;
};

export type Answer = { at: Date; kind: SignalKind; enrollment: number; sender: string };

export type PreviewRun = {
  complete: boolean;
  simulatedUntil: Date;
  steps: number;
  actions: number;
  answers: Answer[];
  /** Conversions per node id: accepted / replied. */
  conversions: Map<number, { accepted: number; replied: number }>;
};

const MESSAGE_TYPES = new Set(['linkedin_send_message', 'linkedin_send_inmail', 'email_send_message']);
const CONVERTS: Partial<Record<SignalKind, { kind: 'accepted' | 'replied'; types: string[] }>> = {
  connection_accepted: { kind: 'accepted', types: ['linkedin_send_connection_request'] },
  linkedin_replied: { kind: 'replied', types: ['linkedin_send_message', 'linkedin_send_connection_request'] },
  linkedin_inmail_replied: { kind: 'replied', types: ['linkedin_send_inmail'] },
  email_replied: { kind: 'replied', types: ['email_send_message'] },
};
const MAX_ROUNDS = 12;
const COMPOSED_LATER: ComposedAction = {
  text: '(composed from the AI template when it is sent)',
  subject: null,
  missing: [],
  source: 'preview',
};

const running = (e: PreviewEnrollment) => e.fl.status === 'in_progress';

export async function runPreview(setup: PreviewSetup): Promise<PreviewRun> {
  const { enrollments, lanes, version, flow } = setup;
  const wakes = new TimeHeap();
  const answers = new TimeHeap();
  const pendingAnswers: Answer[] = [];
  const delivered: Answer[] = [];
  const conversions = new Map<number, { accepted: number; replied: number }>();
  let steps = 0;
  let actions = 0;

  const ctx: BatchContext = {
    teamId: setup.teamId,
    now: setup.start,
    senders: setup.senders,
    signals: setup.signals,
    filterResults: new Map(),
    massActions: new Map(),
    composed: new Map(),
    httpResults: new Map(),
    flowTargets: new Set(referenced(version, 'gs_send_to_flow', 'flow_uuid')),
    webhookTargets: new Set(referenced(version, 'gs_trigger_custom_webhook', 'webhook_uuid')),
    defaults: { triggerWaitSeconds: setup.engine.triggerDefaultWaitSeconds },
    scheduleOf: (work) => scheduleFor(work.flow, senderOf(work.fl.sender_profile_uuid), work.lead),
    render: (work, node) => renderAction(setup.prepared, work, node),
    compose: async () => COMPOSED_LATER,
    renderText: (work, template) =>
      setup.prepared.render(template, work.fl.lead_uuid, work.fl.sender_profile_uuid, `${work.fl.uuid}:text`),
  };
  function senderOf(uuid: string | null) {
    return uuid ? setup.senders.get(uuid) : undefined;
  }

  function wake(e: PreviewEnrollment, at: Date) {
    e.fl.next_run_at = at;
    e.wakeAt = at.getTime();
    wakes.push(e.wakeAt, e.index);
  }

  /** Answers a round's Need in memory (run/round-needs.ts answers it from the database). */
  function resolve(work: Work, e: PreviewEnrollment) {
    const need = work.need;
    if (!need) return;
    const key = `${work.fl.uuid}:${need.kind === 'sender' || need.kind === 'mass_action' ? '' : need.node.id}`;
    switch (need.kind) {
      case 'filter':
        ctx.filterResults.set(key, setup.filterMatches.get(need.node.id)?.has(e.lead.uuid) ?? false);
        break;
      case 'mass_action':
        ctx.massActions.set(need.key, { ok: true });
        break;
      case 'http':
        ctx.httpResults.set(key, { status: 'closed', error_msg: 'Not called in the preview.' });
        break;
      case 'message':
        ctx.composed.set(key, COMPOSED_LATER);
        break;
      case 'sender':
        assignSender(work);
        break;
    }
  }

  /** Fair rotation, as resolveSenders: a known sender is kept, else the least loaded enabled one. */
  function assignSender(work: Work) {
    const candidates = (version.sources.get(work.fl.contact_source_id)?.sender_profiles ?? [])
      .map((uuid) => uuid.toLowerCase())
      .filter((uuid) => setup.senders.has(uuid));
    const enabled = candidates.filter((uuid) => setup.senders.get(uuid)?.status === 'enabled');
    if (work.pausedWithoutSender(candidates, enabled)) return;
    const known = (setup.knownSenders.get(work.fl.lead_uuid) ?? []).find((uuid) => enabled.includes(uuid));
    let pick = known;
    if (!pick) {
      const keyOf = (uuid: string) => `${work.fl.contact_source_id}:${uuid}`;
      const load = setup.rotationLoad;
      pick = enabled.reduce((best, uuid) =>
        (load.get(keyOf(uuid)) ?? 0) < (load.get(keyOf(best)) ?? 0) ? uuid : best,
      );
      load.set(keyOf(pick), (load.get(keyOf(pick)) ?? 0) + 1);
    }
    work.fl.sender_profile_uuid = pick;
  }

  function runEnrollment(e: PreviewEnrollment, now: Date) {
    ctx.now = now;
    const work = new Work(e.fl, version, flow, e.lead, e.task as never);
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      advance(work, ctx);
      if (!work.need) break;
      resolve(work, e);
    }
    steps += work.visits;
    e.fl = work.fl;
    e.steps.push(...work.newTasks);
    for (const _ of work.newTasks) e.reachedAt.push(now);
    e.task = work.task as NewTask | undefined;
    e.wakeAt = Number.NaN;
    if (work.dispatch && e.task) {
      const task = e.task;
      const lane = lanes.get(`${task.sender_profile_uuid}:${work.dispatch.channel}`);
      const scheduleAt = task.schedule_at ?? now;
      const action: QueuedAction = {
        enrollment: e.index,
        type: task.type as QueuedAction['type'],
        scheduleAt,
        zone: task.timezone ?? ctx.scheduleOf(work).zone,
        readyAt: scheduleAt,
        done: false,
      };
      e.action = action;
      if (!lane || lane.unavailable) {
        // The engine parks the enrollments of a sender that cannot act (enrollments/sender-pauses.ts).
        e.fl.status = 'paused';
        e.fl.reason = lane?.unavailable ?? 'no_sender';
      } else {
        lane.history.push(action);
        enqueue(lane, action);
      }
    }
    if (e.fl.status === 'in_progress' && e.fl.next_run_at) wake(e, e.fl.next_run_at);
  }

  function onResult(lane: SenderLane, queued: QueuedAction, result: ActionResult, now: Date) {
    const e = enrollments[queued.enrollment] as PreviewEnrollment;
    const task = e.task;
    if (!task) return;
    task.executed_at = now;
    if (result.kind === 'closed') {
      task.status = 'closed';
      if (result.respondAt && result.response) {
        const kind: SignalKind =
          result.response === 'accept'
            ? 'connection_accepted'
            : lane.channel === 'email'
              ? 'email_replied'
              : queued.type === 'linkedin_send_inmail'
                ? 'linkedin_inmail_replied'
                : 'linkedin_replied';
        const answer = { at: result.respondAt, kind, enrollment: e.index, sender: lane.sender.uuid };
        pendingAnswers.push(answer);
        answers.push(result.respondAt.getTime(), pendingAnswers.length - 1);
      }
    } else {
      task.status = result.kind;
      task.automation_error_code = result.code;
      task.error_msg = result.message;
      if (result.code === 'already_connected') signal(e, 'connection_accepted', lane.sender.uuid, now, now);
    }
    wake(e, now);
  }

  /** A signal, as signals.ts applies it: triggers woken, the stop rule, the conversion counted. */
  function signal(e: PreviewEnrollment, kind: SignalKind, sender: string, at: Date, now: Date) {
    const list = setup.signals.get(e.lead.uuid) ?? [];
    list.push({
      team_id: setup.teamId,
      id: 0,
      lead_uuid: e.lead.uuid,
      sender_profile_uuid: sender,
      kind,
      occurred_at: at,
      external_key: null,
      payload: null,
    });
    setup.signals.set(e.lead.uuid, list);
    const convert = CONVERTS[kind];
    if (convert && e.fl.sender_profile_uuid === sender) {
      const node = [...e.steps]
        .reverse()
        .find((t) => t.status === 'closed' && convert.types.includes(t.type));
      if (node) {
        const counts = conversions.get(node.flow_node_id) ?? { accepted: 0, replied: 0 };
        counts[convert.kind] += 1;
        conversions.set(node.flow_node_id, counts);
      }
    }
    if (e.fl.sender_profile_uuid !== sender) return;
    const waitingAt = version.nodes.get(e.fl.flow_node_id ?? -1)?.type;
    const wait = (e.fl.wait ?? {}) as Record<string, unknown>;
    if (running(e) && wait.kind === 'trigger' && waitingAt && triggersFiredBy(kind).includes(waitingAt)) {
      e.fl.wait = { ...wait, happened: true };
      wake(e, now);
      return;
    }
    if (kind.endsWith('_replied') && (running(e) || e.fl.status === 'paused')) {
      const lastMessage = [...e.steps].reverse().find((t) => MESSAGE_TYPES.has(t.type));
      if ((lastMessage?.payload?.stop_on_reply_level ?? 'always') === 'never') return;
      e.fl.status = 'finished';
      e.fl.reason = 'replied';
      e.fl.finished_at = now;
      e.fl.next_run_at = null;
      e.wakeAt = Number.NaN;
    }
  }

  const laneDeps = {
    settings: setup.settings,
    actionIntervalSeconds: setup.engine.actionIntervalSeconds,
    limitPauseMs: setup.engine.limitPauseMs,
    scheduleOf: (queued: QueuedAction) => {
      const e = enrollments[queued.enrollment] as PreviewEnrollment;
      const sender = senderOf(e.fl.sender_profile_uuid);
      return flow.use_sender_schedule && sender ? sender.schedule : flow.schedule;
    },
    leadOf: (index: number) => (enrollments[index] as PreviewEnrollment).lead.uuid,
    running: (index: number) => running(enrollments[index] as PreviewEnrollment),
    onResult,
  };

  for (const e of enrollments) wake(e, setup.start);
  const laneList = [...lanes.values()];
  const end = setup.end.getTime();
  let now = setup.start.getTime();
  let complete = true;
  let lastYield = performance.now();
  let iterations = 0;
  while (now < end) {
    iterations += 1;
    if ((iterations & 63) === 0) {
      const at = performance.now();
      if (at > setup.deadline) {
        complete = false;
        break;
      }
      // A long preview must not hold the process: let other requests in every 50 ms.
      if (at - lastYield > 50) {
        await new Promise((resolve) => setImmediate(resolve));
        lastYield = performance.now();
      }
    }
    const date = new Date(now);
    let busy = false;
    while (wakes.peekTime() <= now) {
      const [at, index] = wakes.pop();
      const e = enrollments[index] as PreviewEnrollment;
      if (e.wakeAt !== at || !running(e)) continue;
      runEnrollment(e, date);
      busy = true;
    }
    while (answers.peekTime() <= now) {
      const answer = pendingAnswers[answers.pop()[1]] as Answer;
      const e = enrollments[answer.enrollment] as PreviewEnrollment;
      const lane = lanes.get(`${answer.sender}:linkedin`);
      if (answer.kind === 'connection_accepted' && lane) {
        lane.network.pending.delete(e.lead.uuid);
        lane.network.connected.add(e.lead.uuid);
      }
      signal(e, answer.kind, answer.sender, answer.at, date);
      delivered.push(answer);
      busy = true;
    }
    for (const lane of laneList) {
      if (lane.nextDispatchAt > now) continue;
      const acted = dispatchLane(lane, date, laneDeps);
      actions += acted;
      if (acted > 0) busy = true;
    }
    if (busy) continue;
    let next = Math.min(wakes.peekTime(), answers.peekTime());
    for (const lane of laneList) next = Math.min(next, lane.nextDispatchAt);
    if (next === Number.POSITIVE_INFINITY) break; // nothing left to happen
    now = Math.min(end, Math.max(now + 1000, next));
  }
  return {
    complete,
    simulatedUntil: new Date(Math.min(now, end)),
    steps,
    actions,
    answers: delivered,
    conversions,
  };
}

function referenced(version: CompiledVersion, type: string, field: string): string[] {
  return [...version.nodes.values()]
    .filter((node) => node.type === type && typeof node.payload[field] === 'string')
    .map((node) => (node.payload[field] as string).toLowerCase());
}

export type { Channel };
