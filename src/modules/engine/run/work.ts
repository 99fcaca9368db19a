// The in-memory state of one claimed enrollment while the engine moves it: the row as it will be
// written back, the tasks it creates or changes, and the side effects that commit with it.
import type { Selectable } from 'kysely';
import type { Schedule } from '../../../lib/schedule.js';
import type { Channel } from '../../channels/driver.js';
import type { FlowLeadsTable, FlowsTable } from '../../flows/flows.tables.js';
import type { LeadRow } from '../../leads/leads.present.js';
import type { SenderProfilesTable } from '../../senders/senders.tables.js';
import type { TaskStatus, TasksTable } from '../../tasks/tasks.tables.js';
import type { LeadSignalsTable } from '../engine.tables.js';
import type { CallApiPayload } from '../nodes/http.js';
import type { ComposedAction, Rendered } from '../render.js';
import type { CompiledVersion, EngineNode } from '../version.js';
import type { RenderedNode } from './step-context.js';

export type EnrollmentRow = Selectable<FlowLeadsTable>;
export type FlowRow = Selectable<FlowsTable>;
export type SenderRow = Selectable<SenderProfilesTable>;
export type TaskRow = Selectable<TasksTable>;
export type SignalRow = Selectable<LeadSignalsTable>;

/** What a finished node visit leaves on its task. */
export type TaskOutcome = {
  status: TaskStatus;
  fork_result?: number | null;
  error_msg?: string | null;
  automation_error_code?: string | null;
};

export type NewTask = {
  uuid: string;
  step: number;
  flow_node_id: number;
  type: string;
  automation: 'auto' | 'manual';
  status: TaskStatus;
  payload: Record<string, unknown> | null;
  fork_result: number | null;
  error_msg: string | null;
  automation_error_code: string | null;
  schedule_at: Date | null;
  executed_at: Date | null;
  sender_profile_uuid: string | null;
  timezone: string | null;
  note: string | null;
};

export type TaskChange = TaskOutcome & { uuid: string; executed_at: Date | null };

/** Work the batch does on the database for many enrollments at once, grouped by `key`. */
export type Effect =
  | { kind: 'mass_action'; key: string; massType: string; payload: Record<string, unknown>; leadUuid: string }
  | { kind: 'release_holds'; leadUuid: string; except: string }
  | { kind: 'end_others'; leadUuid: string; except: string; flowUuids: string[] | null }
  | { kind: 'send_to_flow'; leadUuid: string; flowUuid: string }
  | { kind: 'custom_webhook'; leadUuid: string; webhookUuid: string }
  /** gs_enqueue_for_enrichment; `olderThanSeconds` null: whenever it was last enriched. */
  | { kind: 'enqueue_enrichment'; leadUuid: string; olderThanSeconds: number | null };

/** Something a node needs from the database or the network before it can decide. */
export type Need =
  | { kind: 'filter'; node: EngineNode }
  | { kind: 'mass_action'; key: string; massType: string; payload: Record<string, unknown> }
  | { kind: 'sender' }
  | { kind: 'http'; node: EngineNode<CallApiPayload> }
  /** An action node with a saved AI template: its message is composed (maybe by the LLM) first. */
  | { kind: 'message'; node: EngineNode };

export type WorkStep =
  | { type: 'advance'; branch: number; outcome?: TaskOutcome; newTaskExtra?: Partial<NewTask> }
  | { type: 'jump'; nodeId: number; outcome: TaskOutcome }
  | {
      type: 'wait';
      nextRunAt: Date | null;
      wait: Record<string, unknown>;
      /** Creates the step's task (in progress) when it has none yet. */
      task?: Partial<NewTask>;
      dispatch?: { channel: Channel; at: Date };
    }
  | { type: 'pause'; reason: string }
  | { type: 'end'; status: 'finished' | 'canceled' | 'failed'; reason: string; outcome?: TaskOutcome }
  | { type: 'need'; need: Need };

export class Work {
  /** The row as it will be written back (the claim's copy, moved by the engine). */
  readonly fl: EnrollmentRow;
  readonly claimToken: number;
  /** The task of the enrollment's current step: loaded, or created during this claim. */
  task: TaskRow | NewTask | undefined;
  readonly newTasks: NewTask[] = [];
  readonly taskChanges: TaskChange[] = [];
  readonly effects: Effect[] = [];
  dispatch: { channel: Channel; at: Date } | undefined;
  need: Need | undefined;
  visits = 0;
  blocked = false;
  /** Senders assigned by rotation in this claim (counted once the batch commits). */
  rotated: { sourceId: number; sender: string } | undefined;

  constructor(
    row: EnrollmentRow,
    readonly version: CompiledVersion | undefined,
    readonly flow: FlowRow | undefined,
    readonly lead: LeadRow | undefined,
    task: TaskRow | undefined,
  ) {
    this.fl = { ...row };
    this.claimToken = row.claim_token;
    this.task = task;
  }

  /** Pauses the enrollment when none of its source's senders can act (none left, or all disabled); the
   * engine and the flow preview both ask this before assigning a sender. */
  pausedWithoutSender(candidates: readonly string[], enabled: readonly string[]): boolean {
    if (enabled.length > 0) return false;
    this.fl.status = 'paused';
    this.fl.reason = candidates.length === 0 ? 'no_sender' : 'sender_disabled';
    this.fl.next_run_at = null;
    this.blocked = true;
    this.need = undefined;
    return true;
  }
}

/** Everything the node handlers read besides the enrollment itself (loaded once per batch). */
export type BatchContext = {
  teamId: number;
  now: Date;
  senders: Map<string, SenderRow>;
  /** Signals of the batch's contacts, by contact. */
  signals: Map<string, SignalRow[]>;
  /** rule_filter results by `${enrollment uuid}:${node id}`. */
  filterResults: Map<string, boolean>;
  /** Prepared mass actions by key: undefined while unknown, an error message when it cannot run. */
  massActions: Map<string, { ok: true } | { ok: false; message: string }>;
  /** Messages composed from saved AI templates by `${enrollment uuid}:${node id}`. */
  composed: Map<string, ComposedAction>;
  /** gs_call_api results by `${enrollment uuid}:${node id}`. */
  httpResults: Map<string, TaskOutcome>;
  /** Flows that gs_send_to_flow may target (exist, not archived). */
  flowTargets: Set<string>;
  /** Webhooks gs_trigger_custom_webhook may target. */
  webhookTargets: Set<string>;
  defaults: { triggerWaitSeconds: number };
  scheduleOf(work: Work): { schedule: Schedule; zone: string };
  render(work: Work, node: RenderedNode): ComposedAction;
  /** Composes the message of an action node's saved AI template (the batch calls it for a Need). */
  compose(work: Work, node: EngineNode): Promise<ComposedAction>;
  /** Renders any template string for the work's contact and sender (missing values blank). */
  renderText(work: Work, template: string): Rendered;
};
