import type { Database } from '../../../db/database.js';
import { notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../../lib/pagination.js';
import * as repo from './workspaces.repository.js';

export function createFlowWorkspacesService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async listWorkspaces(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.workspaceSort);
      const { rows, total } = await repo.selectWorkspaces(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    createWorkspace(actor: { teamId: number; userId: number }, body: { name: string; order?: number }) {
      return repo.insertWorkspace(db, {
        team_id: actor.teamId,
        uuid: newId(),
        user_id: actor.userId,
        name: body.name.trim(),
        order: body.order ?? 0,
      });
    },

    async updateWorkspace(teamId: number, uuid: string, body: { name?: string; order?: number }) {
      const workspace = await repo.updateWorkspace(db, teamId, uuid, {
        name: body.name?.trim(),
        order: body.order,
      });
      if (!workspace) throw notFound('Flow workspace');
      return workspace;
    },

    async deleteWorkspace(teamId: number, uuid: string) {
      const deleted = await db.transaction().execute((trx) => repo.deleteWorkspace(trx, teamId, uuid));
      if (!deleted) throw notFound('Flow workspace');
      return deleted;
    },
  };
}

export type FlowWorkspacesService = ReturnType<typeof createFlowWorkspacesService>;
