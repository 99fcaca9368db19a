// Flows: create (with the initial version), read with warnings, update, delete, the status machine of
// spec 3.1 and cloning. Status changes mirror "the flow is on" onto its enrollments in the same
// transaction (setFlowActive); archiving and deleting end the live enrollments (endEnrollments).
import type { Database, Executor } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { assertValidSchedule, defaultSchedule } from '../../lib/schedule.js';
import { endEnrollments, setFlowActive } from '../enrollments/enrollment-signals.js';
import { teamTimeZone } from '../identity/team-timezone.js';
import { syncFilterSources } from './enrollments/filter-sources.js';
import * as repo from './flows.repository.js';
import type { CreateFlowBody, UpdateFlowBody } from './flows.schemas.js';
import type { FlowStatus } from './flows.tables.js';
import { type FlowWarning, loadFlowWarnings } from './flows.warnings.js';
import { initialTree } from './versions/initial-version.js';
import { insertVersion, selectVersion } from './versions/versions.repository.js';

export type Actor = { teamId: number; userId: number };

/** Work other parts of the module do when a flow starts or gets a new active version. */
export type FlowHooks = {
  /** In the transaction that turned the flow on (or saved a version of a flow that is on). */
  onActivated?: (trx: Executor, teamId: number, flowUuid: string) => Promise<void>;
};

const TRACKING_KEYS = ['email_track_opens', 'email_track_clicks', 'email_unsubscribe_link'] as const;

/** The e-mail tracking switches of a flow's settings (all off unless set). */
function emailTracking(settings: Record<string, unknown> | null) {
  return {
    email_track_opens: settings?.email_track_opens === true,
    email_track_clicks: settings?.email_track_clicks === true,
    email_unsubscribe_link: settings?.email_unsubscribe_link === true,
  };
}

/** The tracking switches a create or update body sets. */
function trackingChanges(body: Partial<Record<(typeof TRACKING_KEYS)[number], boolean>>) {
  const changes: Record<string, boolean> = {};
  for (const key of TRACKING_KEYS) if (body[key] !== undefined) changes[key] = body[key] as boolean;
  return changes;
}

export function presentFlow(row: repo.FlowRow, warnings: FlowWarning[]) {
  return {
    uuid: row.uuid,
    public_uuid: row.public_uuid,
    team_id: row.team_id,
    name: row.name,
    description: row.description,
    flow_workspace_uuid: row.flow_workspace_uuid,
    flow_version_uuid: row.flow_version_uuid,
    use_sender_schedule: row.use_sender_schedule,
    schedule: row.schedule,
    priority: row.priority,
    status: row.status,
    is_public: row.is_public,
    ...emailTracking(row.settings),
    user_id: row.user_id,
    warnings,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createFlowsService(deps: { db: Database; hooks?: FlowHooks }) {
  const { db } = deps;

  /** The flow with its warnings and its active version's tree. */
  async function detail(executor: Executor, row: repo.FlowRow) {
    const [warnings, version] = await Promise.all([
      loadFlowWarnings(executor, row.team_id, [row.flow_version_uuid]),
      selectVersion(executor, row.team_id, row.flow_version_uuid),
    ]);
    return {
      ...presentFlow(row, warnings.get(row.flow_version_uuid) ?? []),
      nodes: version?.nodes ?? [],
      contact_sources: version?.contact_sources ?? [],
      first_common_node_id: version?.first_common_node_id ?? null,
    };
  }

  async function requireWorkspace(executor: Executor, teamId: number, uuid: string | null | undefined) {
    if (uuid && !(await repo.workspaceExists(executor, teamId, uuid))) {
      throw invalidField(
        'flow_workspace_uuid',
        `flow_workspace_uuid does not name one of your flow workspaces (${uuid}).`,
      );
    }
  }

  /** Locks the flow, applies `move` to its status in the same transaction, and answers the flow. */
  async function transition(
    teamId: number,
    uuid: string,
    move: (trx: Executor, flow: repo.FlowRow) => Promise<FlowStatus | undefined>,
  ) {
    return db.transaction().execute(async (trx) => {
      const flow = await repo.selectFlow(trx, teamId, uuid, true);
      if (!flow) throw notFound('Flow');
      const next = await move(trx, flow);
      if (next === undefined || next === flow.status) return detail(trx, flow);
      const updated = (await repo.updateFlow(trx, teamId, uuid, { status: next }))!;
      await setFlowActive(trx, teamId, uuid, next === 'on');
      if (next === 'on') await deps.hooks?.onActivated?.(trx, teamId, uuid);
      return detail(trx, updated);
    });
  }

  return {
    async listFlows(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.flowSort);
      const { rows, total } = await repo.selectFlows(db, teamId, params.filter, page);
      const warnings = await loadFlowWarnings(
        db,
        teamId,
        rows.map((row) => row.flow_version_uuid),
      );
      return envelope(
        rows.map((row) => presentFlow(row, warnings.get(row.flow_version_uuid) ?? [])),
        total,
        page,
      );
    },

    async getFlow(teamId: number, uuid: string) {
      const flow = await repo.selectFlow(db, teamId, uuid);
      if (!flow) throw notFound('Flow');
      return detail(db, flow);
    },

    async createFlow(actor: Actor, body: CreateFlowBody) {
      if (body.schedule) assertValidSchedule(body.schedule);
      return db.transaction().execute(async (trx) => {
        await requireWorkspace(trx, actor.teamId, body.flow_workspace_uuid);
        // Without one (use_sender_schedule), the team's default is kept for when it is switched off.
        const schedule = body.schedule ?? defaultSchedule(await teamTimeZone(trx, actor.teamId));
        const uuid = newId();
        const versionUuid = newId();
        const flow = await repo.insertFlow(trx, {
          team_id: actor.teamId,
          uuid,
          user_id: actor.userId,
          name: body.name.trim(),
          description: body.description ?? null,
          flow_workspace_uuid: body.flow_workspace_uuid ?? null,
          flow_version_uuid: versionUuid,
          use_sender_schedule: body.use_sender_schedule ?? false,
          schedule,
          priority: body.priority ?? 2,
          status: 'draft',
          is_public: body.is_public ?? false,
          settings: trackingChanges(body),
        });
        await insertVersion(trx, {
          team_id: actor.teamId,
          uuid: versionUuid,
          flow_uuid: uuid,
          ...initialTree(new Date().toISOString()),
        });
        return detail(trx, flow);
      });
    },

    async updateFlow(teamId: number, uuid: string, body: UpdateFlowBody) {
      if (body.schedule) assertValidSchedule(body.schedule);
      return db.transaction().execute(async (trx) => {
        await requireWorkspace(trx, teamId, body.flow_workspace_uuid);
        const flow = await repo.updateFlow(trx, teamId, uuid, {
          name: body.name?.trim(),
          description: body.description,
          schedule: body.schedule,
          use_sender_schedule: body.use_sender_schedule,
          priority: body.priority,
          is_public: body.is_public,
          flow_workspace_uuid: body.flow_workspace_uuid,
          settings: trackingChanges(body),
        });
        if (!flow) throw notFound('Flow');
        return detail(trx, flow);
      });
    },

    /** Deletes the flow and its versions; its live enrollments end as canceled (flow_deleted). */
    async deleteFlow(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        const flow = await repo.selectFlow(trx, teamId, uuid, true);
        if (!flow) throw notFound('Flow');
        await setFlowActive(trx, teamId, uuid, false);
        await endEnrollments(trx, teamId, { where: repo.flowCondition(uuid) }, 'canceled', 'flow_deleted');
        await repo.deleteFlow(trx, teamId, uuid);
      });
    },

    start: (teamId: number, uuid: string) =>
      transition(teamId, uuid, async (_trx, flow) => {
        if (flow.status === 'archived') {
          throw new AppError(
            'validation_error',
            'An archived flow cannot be started. Unarchive it first (PUT .../unarchive), then start it.',
            { status: ['archived flows cannot be started'] },
          );
        }
        return 'on';
      }),

    /** on -> off: contacts finish the step they are in; nothing new is planned. */
    stop: (teamId: number, uuid: string) =>
      transition(teamId, uuid, async (_trx, flow) => (flow.status === 'on' ? 'off' : undefined)),

    archive: (teamId: number, uuid: string) =>
      transition(teamId, uuid, async (trx, flow) => {
        if (flow.status === 'archived') return undefined;
        await endEnrollments(trx, teamId, { where: repo.flowCondition(uuid) }, 'canceled', 'flow_archived');
        return 'archived';
      }),

    unarchive: (teamId: number, uuid: string) =>
      transition(teamId, uuid, async (_trx, flow) => (flow.status === 'archived' ? 'off' : undefined)),

    /** A copy of the flow's settings and active version, stopped (status off). */
    async cloneFlow(
      actor: Actor,
      body: { flow_uuid: string; name: string; flow_workspace_uuid?: string | null },
    ) {
      return db.transaction().execute(async (trx) => {
        const source = await repo.selectFlow(trx, actor.teamId, body.flow_uuid);
        if (!source) throw notFound('Flow');
        const workspace =
          body.flow_workspace_uuid === undefined ? source.flow_workspace_uuid : body.flow_workspace_uuid;
        await requireWorkspace(trx, actor.teamId, workspace);
        const version = await selectVersion(trx, actor.teamId, source.flow_version_uuid);
        const uuid = newId();
        const versionUuid = newId();
        const flow = await repo.insertFlow(trx, {
          team_id: actor.teamId,
          uuid,
          user_id: actor.userId,
          name: body.name.trim(),
          description: source.description,
          flow_workspace_uuid: workspace,
          flow_version_uuid: versionUuid,
          use_sender_schedule: source.use_sender_schedule,
          schedule: source.schedule,
          priority: source.priority,
          status: 'off',
          is_public: source.is_public,
          settings: source.settings,
        });
        const copy = await insertVersion(trx, {
          team_id: actor.teamId,
          uuid: versionUuid,
          flow_uuid: uuid,
          ...(version
            ? {
                nodes: version.nodes,
                contact_sources: version.contact_sources,
                first_common_node_id: version.first_common_node_id,
              }
            : initialTree(new Date().toISOString())),
        });
        await syncFilterSources(trx, actor.teamId, uuid, copy);
        return detail(trx, flow);
      });
    },
  };
}

export type FlowsService = ReturnType<typeof createFlowsService>;
