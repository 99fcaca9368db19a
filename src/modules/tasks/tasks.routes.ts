import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withBodyForm } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { UuidParams } from '../../http/schemas.js';
import type { GroupField } from './tasks.counts.js';
import { taskFilterFields } from './tasks.filter.js';
import { MASS_MOVES } from './tasks.mass-moves.js';
import { ScheduleQuery, SenderDay, TeamDay } from './tasks.schedule.schemas.js';
import {
  CompleteTaskBody,
  ContinueAutomationBody,
  ContinueAutomationResult,
  CreatedTasks,
  CreateTaskBody,
  FailTaskBody,
  GroupCounts,
  GroupCountsBody,
  GroupCountsQuery,
  MassMoveBody,
  MassMoveResult,
  RestartFromTopBody,
  Task,
  TaskPage,
  TasksListBody,
  TasksQuery,
} from './tasks.schemas.js';
import type { TasksService } from './tasks.service.js';

const MASS_MOVE_TEXT: Record<(typeof MASS_MOVES)[number], { summary: string; description: string }> = {
  cancel: {
    summary: 'Cancel many to-dos',
    description:
      'Manual tasks that are in_progress or failed become canceled. Automation tasks are the engine\u2019s: ' +
      'named in uuids they are a 422; a filter leaves them out.',
  },
  complete: {
    summary: 'Complete many to-dos',
    description:
      'Manual tasks that are in_progress or failed become closed with executed_at now. No "sent" event is ' +
      'recorded: a person did it outside the product. Automation tasks: named in uuids a 422, left out by a filter.',
  },
  retry: {
    summary: 'Retry failed tasks',
    description:
      'Failed tasks go back to in_progress (attempts are kept; a task that failed because the contact ' +
      'replied is not retried). A flow\u2019s task is retried when its contact is still at that step, and ' +
      'the engine runs the step again.',
  },
  skip: {
    summary: 'Skip tasks',
    description:
      'Tasks that are in_progress (not yet handed to LinkedIn or the mailbox) or failed become skipped. A ' +
      'flow\u2019s task is skipped when its contact is still at that step, and the contact moves on to the next node.',
  },
};

export const tasksRoutes: FastifyPluginAsyncTypebox<{ tasks: TasksService }> = async (app, { tasks }) => {
  const tags = ['Tasks'];

  withBodyForm(
    app,
    {
      url: '/flows/api/tasks',
      bodyUrl: '/flows/api/tasks/list',
      primary: 'GET',
      config: { filterFields: Object.keys(taskFilterFields) },
      schema: {
        tags,
        operationId: 'listTasks',
        summary: 'List tasks',
        description:
          'Bracket filters (filter[status]=failed, filter[executed_at][>=]=2026-07-01, filter[type][]=a&' +
          'filter[type][]=b) on flow_uuid, type, status, automation, lead_uuid, sender_profile_uuid, ' +
          'flow_node_id, executed_at, schedule_at, automation_error_code, schedule_at_before, ' +
          'schedule_at_after, assignee_uuid (also uuid, flow_lead_uuid, created_at); a flat ?status= ' +
          'filters the same way. order_field: created_at (default), schedule_at, executed_at, uuid. total ' +
          'is exact; with filters on flow, node, sender, type, automation, status and error code only it ' +
          'comes from counters, so it stays fast at ten million tasks.',
        response: { 200: TaskPage },
      },
      querystring: TasksQuery,
      body: TasksListBody,
    },
    (params, request) => tasks.listTasks(authOf(request).teamId, params as never),
  );

  app.post(
    '/flows/api/tasks',
    {
      schema: {
        tags,
        operationId: 'createTask',
        summary: 'Create a to-do (or one per selected contact)',
        description:
          'A manual task for a person: one of the five manual types, about a contact, done as a sender ' +
          'profile. text is stored as payload.template. It is not executed by the product. With filter (the ' +
          'contact selection of mass actions: {"all": false, "ids": [...], "excludeIds": []} or filter keys; ' +
          'blacklisted contacts left out) one to-do per selected contact (and lead_uuid, if sent too) is ' +
          'made, answered as {affected, operation: null, data}; above LEADFLOW_MASS_ACTION_SYNC_LIMIT ' +
          'contacts a bulk operation makes them (202 {affected: null, operation, data: []}).',
        body: CreateTaskBody,
        response: { 201: Type.Union([Task, CreatedTasks]), 202: CreatedTasks },
      },
    },
    async (request, reply) => {
      const actor = authOf(request);
      const { filter, ...input } = request.body;
      if (filter === undefined) return reply.code(201).send(await tasks.createTask(actor, input));
      const result = await tasks.createTasks(actor, { ...input, filter });
      return reply.code(result.queued ? 202 : 201).send(result.body);
    },
  );

  app.get(
    '/flows/api/tasks/schedule',
    {
      schema: {
        tags,
        operationId: 'senderSchedule',
        summary: 'A sender profile\u2019s day (or every profile\u2019s)',
        description:
          'The profile\u2019s tasks of a local date (done, being executed, planned) with their times in its ' +
          'zone, the day\u2019s open windows and, per action type, the day\u2019s limit, usage and what is left. ' +
          'Without sender_profile_uuid: {data: [one such day per sender profile], truncated}; without date: ' +
          'today in each profile\u2019s zone.',
        querystring: ScheduleQuery,
        response: {
          200: Type.Union([SenderDay, TeamDay]),
          404: errorResponse(404, 'no sender profile of your team has that sender_profile_uuid'),
        },
      },
    },
    async (request) => tasks.schedule(authOf(request).teamId, request.query),
  );

  withBodyForm(
    app,
    {
      url: '/flows/api/tasks/group-counts',
      bodyUrl: '/flows/api/tasks/group-counts',
      primary: 'POST',
      schema: {
        tags,
        operationId: 'taskGroupCounts',
        summary: 'Count tasks by group',
        description:
          'Number of tasks per value of group_field among those matching filter. Grouping by status, type, ' +
          'flow, sender, automation or error code with a filter on those keys only is read from counters. ' +
          'The GET form takes the same parameters in the query string (group_field defaults to status there).',
        response: { 200: GroupCounts },
      },
      querystring: GroupCountsQuery,
      body: GroupCountsBody,
    },
    (params, request) =>
      tasks.groupCounts(authOf(request).teamId, {
        ...(params as { filter?: unknown; timezone?: string }),
        group_field: (params as { group_field?: GroupField }).group_field ?? 'status',
      }),
  );

  app.put(
    '/flows/api/tasks/continue-automation',
    {
      schema: {
        tags,
        operationId: 'continueAutomation',
        summary: 'Release a contact from a hold',
        description:
          'A contact waiting at a hold (util_hodor) node moves on. 422 when nothing holds the contact.',
        body: ContinueAutomationBody,
        response: { 200: ContinueAutomationResult },
      },
    },
    async (request) => tasks.continueAutomation(authOf(request).teamId, request.body),
  );

  for (const name of MASS_MOVES) {
    app.put(
      `/flows/api/tasks/mass-${name}`,
      {
        schema: {
          tags,
          operationId: `tasksMass${name[0]!.toUpperCase()}${name.slice(1)}`,
          summary: MASS_MOVE_TEXT[name].summary,
          description:
            `${MASS_MOVE_TEXT[name].description} Up to LEADFLOW_MASS_ACTION_SYNC_LIMIT tasks it runs in the ` +
            'request (200 {"affected": N}); above it a bulk operation is queued (202 {"affected": null, ' +
            '"operation": {...}}; poll GET /leads/api/bulk-operations/{uuid}).',
          body: MassMoveBody,
          response: { 200: MassMoveResult, 202: MassMoveResult },
        },
      },
      async (request, reply) => {
        const result = await tasks.massMove(authOf(request), name, request.body);
        return reply.code(result.queued ? 202 : 200).send(result.body);
      },
    );
  }

  app.put(
    '/flows/api/tasks/mass-restart-from-top',
    {
      schema: {
        tags,
        operationId: 'tasksMassRestartFromTop',
        summary: 'Restart contacts from the top of a flow',
        description:
          'The enrollments of the selected tasks of flow_uuid (live, paused or ended) start again at the entry ' +
          'node of their contact source (or new_contact_source_id) in the flow\u2019s current version, with ' +
          'sender_profile_uuid if given; their open tasks are canceled with error_msg "restarted". Blacklisted ' +
          'contacts are left out. Runs in the request: more than LEADFLOW_MASS_ACTION_SYNC_LIMIT enrollments ' +
          'is a 422 (narrow the filter). affected = enrollments restarted.',
        body: RestartFromTopBody,
        response: { 200: MassMoveResult },
      },
    },
    async (request) => tasks.restartFromTop(authOf(request), request.body),
  );

  app.get(
    '/flows/api/tasks/:uuid',
    {
      schema: {
        tags,
        operationId: 'getTask',
        summary: 'Get a task',
        params: UuidParams,
        response: { 200: Task },
      },
    },
    async (request) => tasks.getTask(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/flows/api/tasks/:uuid/complete',
    {
      schema: {
        tags,
        operationId: 'completeTask',
        summary: 'Complete a to-do',
        description:
          'closed, with executed_at now (no "sent" event: a person did it). Manual tasks only (422 otherwise). ' +
          'For a flow\u2019s rule_manual_router to-do, fork_result picks the branch the contact takes.',
        params: UuidParams,
        body: CompleteTaskBody,
        response: { 200: Task },
      },
    },
    async (request) =>
      tasks.moveTask(authOf(request).teamId, request.params.uuid, 'complete', {
        ...(request.body?.fork_result === undefined ? {} : { forkResult: request.body.fork_result }),
      }),
  );

  app.put(
    '/flows/api/tasks/:uuid/cancel',
    {
      schema: {
        tags,
        operationId: 'cancelTask',
        summary: 'Cancel a to-do',
        description: 'canceled. Manual tasks only (422 otherwise).',
        params: UuidParams,
        response: { 200: Task },
      },
    },
    async (request) => tasks.moveTask(authOf(request).teamId, request.params.uuid, 'cancel'),
  );

  app.put(
    '/flows/api/tasks/:uuid/fail',
    {
      schema: {
        tags,
        operationId: 'failTask',
        summary: 'Fail a to-do',
        description: 'failed, optionally with error_msg saying why. Manual tasks only (422 otherwise).',
        params: UuidParams,
        body: FailTaskBody,
        response: { 200: Task },
      },
    },
    async (request) =>
      tasks.moveTask(authOf(request).teamId, request.params.uuid, 'fail', {
        ...(request.body?.error_msg === undefined ? {} : { errorMsg: request.body.error_msg }),
      }),
  );

  for (const name of ['retry', 'skip'] as const) {
    app.put(
      `/flows/api/tasks/:uuid/${name}`,
      {
        schema: {
          tags,
          operationId: `${name}Task`,
          summary: name === 'retry' ? 'Retry a failed task' : 'Skip a task',
          description: `${MASS_MOVE_TEXT[name].description} One task, by the rules of PUT /flows/api/tasks/mass-${name}; 422 says why a task cannot take it.`,
          params: UuidParams,
          response: { 200: Task },
        },
      },
      async (request) => tasks.moveTask(authOf(request).teamId, request.params.uuid, name),
    );
  }
};
