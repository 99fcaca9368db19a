import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/database.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { isValidTimeZone } from '../../lib/schedule.js';
import { queueBulkOperation } from '../bulk-operations/bulk-operations.jobs.js';
import { releaseHolds } from '../enrollments/enrollment-signals.js';
import { countLeads } from '../leads/leads.query.js';
import { isTeamMember, selectSenderProfile } from '../senders/senders.repository.js';
import { type GroupField, groupTaskCounts } from './tasks.counts.js';
import {
  CREATE_TASKS_OPERATION,
  insertTasksForLeads,
  type ManyTasksSpec,
  selectionWhere,
} from './tasks.create-many.js';
import { compileTaskFilter, type MANUAL_TASK_TYPES, taskSort } from './tasks.filter.js';
import {
  compileTaskSelection,
  type MassMoveName,
  massMoveOperationType,
  type TaskSelection,
} from './tasks.mass-moves.js';
import { applyMove, countMovable, MOVES, oneTask } from './tasks.moves.js';
import * as repo from './tasks.repository.js';
import {
  countRestartable,
  type RestartInput,
  restartFromTop,
  restartTarget,
  tooManyToRestart,
} from './tasks.restart.js';
import { NEEDS_TEXT as NEEDS_TEXT_TYPES } from './tasks.rules.js';
import { senderTimeline, teamTimeline } from './tasks.timeline.js';

type Actor = { teamId: number; userId: number };

export type CreateTaskInput = {
  lead_uuid?: string;
  sender_profile_uuid: string;
  type?: (typeof MANUAL_TASK_TYPES)[number];
  text?: string;
  payload?: { template?: string; note?: string | null };
  note?: string | null;
  schedule_at?: string | Date;
  timezone?: string;
  assigned_to?: number;
};

/** Why a task in a source status still cannot take retry or skip (the rules of tasks.moves.ts). */
function unmovableReason(
  task: { automation_error_code: string | null; taken_to_execute_at: Date | null },
  name: string,
) {
  if (name === 'retry' && task.automation_error_code === 'replied')
    return 'it failed because the contact replied.';
  if (name === 'skip' && task.taken_to_execute_at !== null) {
    return 'it was handed to LinkedIn or the mailbox already; its outcome decides.';
  }
  return 'its contact is no longer at this step of the flow.';
}

/** Types whose to-do is pointless without a text. */
const NEEDS_TEXT = new Set<string>(NEEDS_TEXT_TYPES);

export function createTasksService(deps: {
  db: Database;
  config: Pick<Config, 'massActionSyncLimit'>;
  clock?: Clock;
}) {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  async function requireTask(teamId: number, uuid: string) {
    const task = await repo.selectTask(db, teamId, uuid);
    if (!task) throw notFound('Task');
    return task;
  }
  /** A branch picked by completing a flow's manual router must be one of the node's branches. */
  async function checkForkResult(teamId: number, uuid: string, forkResult: number) {
    const task = await requireTask(teamId, uuid);
    const branches = ((task.payload?.branches as Array<{ branch_id?: unknown }> | undefined) ?? []).map((b) =>
      Number(b.branch_id),
    );
    if (task.type !== 'rule_manual_router' || !task.flow_lead_uuid) {
      throw invalidField(
        'fork_result',
        'fork_result picks the branch of a flow\u2019s rule_manual_router to-do; this task is not one.',
      );
    }
    if (!branches.includes(forkResult)) {
      throw invalidField(
        'fork_result',
        `fork_result must be one of this router's branches: ${branches.join(', ')}.`,
      );
    }
  }

  /** The type, and the text a message needs (422 without one); a valid time zone. */
  function checkTaskText(input: CreateTaskInput) {
    const type = input.type ?? 'linkedin_send_message';
    const text = input.text ?? input.payload?.template;
    if (NEEDS_TEXT.has(type) && !text?.trim()) {
      throw invalidField('text', `The text field is required for a ${type} task (the message to send).`);
    }
    if (input.timezone !== undefined && !isValidTimeZone(input.timezone)) {
      throw invalidField(
        'timezone',
        `timezone must be an IANA time zone such as "Europe/Berlin" (got "${input.timezone}").`,
      );
    }
    return { type, text };
  }

  /** The team's sender profile the to-do is done as, and a team member as assignee (422 otherwise). */
  async function checkTaskPeople(trx: Executor, actor: Actor, input: CreateTaskInput) {
    const sender = await selectSenderProfile(trx, actor.teamId, input.sender_profile_uuid);
    if (!sender) {
      throw invalidField(
        'sender_profile_uuid',
        'sender_profile_uuid does not name one of your sender profiles.',
      );
    }
    if (input.assigned_to !== undefined && !(await isTeamMember(trx, actor.teamId, input.assigned_to))) {
      throw invalidField('assigned_to', `assigned_to ${input.assigned_to} is not a member of this team.`);
    }
    return sender;
  }

  return {
    async listTasks(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, taskSort);
      const where = compileTaskFilter(params.filter);
      const [rows, total] = await Promise.all([
        repo.selectTaskPage(db, teamId, where, page),
        repo.countTasks(db, teamId, where),
      ]);
      return envelope(rows, total, page);
    },

    getTask: requireTask,

    async createTask(actor: Actor, input: CreateTaskInput) {
      const { type, text } = checkTaskText(input);
      if (input.lead_uuid === undefined) throw invalidField('lead_uuid', 'The lead_uuid field is required.');
      const leadUuid = input.lead_uuid;
      return db.transaction().execute(async (trx) => {
        const [lead, sender] = await Promise.all([
          repo.selectLeadForTask(trx, actor.teamId, leadUuid),
          checkTaskPeople(trx, actor, input),
        ]);
        if (!lead) throw invalidField('lead_uuid', 'lead_uuid does not name one of your contacts.');
        const note = input.note ?? input.payload?.note ?? null;
        return repo.insertManualTask(trx, {
          team_id: actor.teamId,
          uuid: newId(),
          lead_uuid: lead.uuid,
          company_uuid: lead.company_uuid,
          sender_profile_uuid: sender.uuid,
          type,
          payload: { template: text ?? null, note },
          note,
          timezone: input.timezone ?? sender.schedule.timezone,
          schedule_at: input.schedule_at === undefined ? null : new Date(input.schedule_at),
          assigned_to: input.assigned_to ?? sender.assignee_user_id ?? actor.userId,
          user_id: actor.userId,
        });
      });
    },

    /**
     * One to-do per contact of `input.filter` (and `lead_uuid`, when sent too): in the request up to the
     * synchronous limit, else as a bulk operation.
     */
    async createTasks(actor: Actor, input: CreateTaskInput & { filter: Record<string, unknown> }) {
      const { type, text } = checkTaskText(input);
      const sender = await checkTaskPeople(db, actor, input);
      const where = await selectionWhere(db, actor.teamId, input.filter, input.lead_uuid);
      const note = input.note ?? input.payload?.note ?? null;
      const spec: ManyTasksSpec = {
        sender_profile_uuid: sender.uuid,
        type,
        template: text ?? null,
        note,
        timezone: input.timezone ?? sender.schedule.timezone,
        schedule_at: input.schedule_at === undefined ? null : new Date(input.schedule_at).toISOString(),
        assigned_to: input.assigned_to ?? sender.assignee_user_id ?? actor.userId,
        user_id: actor.userId,
      };
      const limit = deps.config.massActionSyncLimit;
      if ((await countLeads(db, actor.teamId, where)) > limit) {
        const operation = await db.transaction().execute((trx) =>
          queueBulkOperation(trx, {
            teamId: actor.teamId,
            userId: actor.userId,
            type: CREATE_TASKS_OPERATION,
            filter: { selection: input.filter, ...(input.lead_uuid ? { lead_uuid: input.lead_uuid } : {}) },
            payload: spec,
          }),
        );
        return { queued: true as const, body: { affected: null, operation, data: [] } };
      }
      const uuids = await db
        .transaction()
        .execute((trx) => insertTasksForLeads(trx, actor.teamId, where, spec, newId()));
      const data = await repo.selectTasksByUuids(db, actor.teamId, uuids);
      return { queued: false as const, body: { affected: uuids.length, operation: null, data } };
    },

    /** complete, cancel or fail one to-do (spec 3.3): 200 with the task, 422 for a flow's task. */
    async moveTask(
      teamId: number,
      uuid: string,
      name: 'complete' | 'cancel' | 'fail' | 'retry' | 'skip',
      options: { errorMsg?: string; forkResult?: number } = {},
    ) {
      const move = MOVES[name];
      if (options.forkResult !== undefined) await checkForkResult(teamId, uuid, options.forkResult);
      const moved = await db.transaction().execute((trx) =>
        applyMove(trx, teamId, move, oneTask(uuid), {
          errorMsg: options.errorMsg ?? null,
          ...(options.forkResult === undefined ? {} : { forkResult: options.forkResult }),
        }),
      );
      const task = await requireTask(teamId, uuid);
      if (moved.length > 0 || task.status === move.to) return task;
      if (task.automation === 'auto' && move.manualOnly) {
        throw new AppError(
          'validation_error',
          `Only manual tasks move by hand; this task belongs to an automation (flow ${task.flow_uuid}). ` +
            'Skip or retry it with PUT /flows/api/tasks/mass-skip or /mass-retry.',
          { uuid: ['belongs to an automation'] },
        );
      }
      if (!move.from.includes(task.status)) {
        throw new AppError(
          'validation_error',
          `The task is ${task.status}; ${name} applies to tasks that are ${move.from.join(' or ')}.`,
          { status: [`is ${task.status}`] },
        );
      }
      throw new AppError(
        'validation_error',
        `The task cannot be ${name === 'retry' ? 'retried' : `${name}ped`}: ${unmovableReason(task, name)}`,
        {
          uuid: [`cannot ${name}`],
        },
      );
    },

    async massMove(actor: Actor, name: MassMoveName, selection: TaskSelection) {
      const move = MOVES[name];
      const where = compileTaskSelection(selection);
      if (move.manualOnly && selection.uuids && selection.uuids.length > 0) {
        const automated = await repo.selectAutomationTaskUuids(db, actor.teamId, selection.uuids);
        if (automated.length > 0) {
          throw new AppError(
            'validation_error',
            `mass-${name} moves manual tasks only; these belong to automations: ${automated.join(', ')}.`,
            { uuids: automated.map((uuid) => `${uuid} belongs to an automation`) },
          );
        }
      }
      const limit = deps.config.massActionSyncLimit;
      const selected = await countMovable(db, actor.teamId, move, where, limit + 1);
      if (selected > limit) {
        const operation = await db.transaction().execute((trx) =>
          queueBulkOperation(trx, {
            teamId: actor.teamId,
            userId: actor.userId,
            type: massMoveOperationType(name),
            filter: selection,
            payload: {},
          }),
        );
        return { queued: true as const, body: { affected: null, operation } };
      }
      const moved = await db.transaction().execute((trx) => applyMove(trx, actor.teamId, move, where));
      return { queued: false as const, body: { affected: moved.length, operation: null } };
    },

    /** The enrollments of the selected tasks of a flow start again from the top (tasks.restart.ts). */
    async restartFromTop(actor: Actor, body: TaskSelection & RestartInput) {
      const where = compileTaskSelection(body);
      const target = await restartTarget(db, actor.teamId, body);
      const limit = deps.config.massActionSyncLimit;
      const count = await countRestartable(db, actor.teamId, body.flow_uuid, where);
      if (count > limit) throw tooManyToRestart(count, limit);
      const affected = await db
        .transaction()
        .execute((trx) => restartFromTop(trx, actor.teamId, body, target, where));
      return { affected, operation: null };
    },

    async continueAutomation(teamId: number, input: { lead_uuid: string; flow_uuid?: string }) {
      const enrollments = {
        leadUuid: input.lead_uuid,
        ...(input.flow_uuid ? { flowUuids: [input.flow_uuid] } : {}),
      };
      const released = await db.transaction().execute((trx) => releaseHolds(trx, teamId, enrollments));
      if (released === 0) {
        throw new AppError(
          'validation_error',
          `Nothing is held: contact ${input.lead_uuid} is not waiting at a hold (util_hodor) node` +
            `${input.flow_uuid ? ` of flow ${input.flow_uuid}` : ''}.`,
          { lead_uuid: ['is not held'] },
        );
      }
      return { released };
    },

    groupCounts(teamId: number, input: { group_field: GroupField; filter?: unknown; timezone?: string }) {
      if (input.timezone !== undefined && !isValidTimeZone(input.timezone)) {
        throw invalidField('timezone', `timezone must be an IANA time zone (got "${input.timezone}").`);
      }
      return groupTaskCounts(db, teamId, input);
    },

    /** One sender's day, or (no sender named: a documented leniency) every sender's. */
    schedule(teamId: number, query: { sender_profile_uuid?: string; date?: string }) {
      return query.sender_profile_uuid === undefined
        ? teamTimeline(db, teamId, query.date, clock.now())
        : senderTimeline(db, teamId, query.sender_profile_uuid, query.date, clock.now());
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;
