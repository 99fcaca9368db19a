import type { Database } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import * as repo from './pipeline-stages.repository.js';
import type { PipelineCategory, PipelineObject } from './pipeline-stages.tables.js';

type StageChanges = { name?: string; category?: PipelineCategory; order?: number };

function present(stage: repo.StageRow) {
  return { ...stage, object_type: stage.object };
}

function cleanName(name: string) {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', 'name must not be blank.');
  return trimmed;
}

export function createPipelineStagesService(deps: { db: Database }) {
  const { db } = deps;

  return {
    /** Sorted by order, ascending, unless the caller picks a sort. */
    async listStages(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(
        { ...params, order_type: params.order_type ?? (params.order_field ? undefined : 'asc') },
        repo.stageSort,
      );
      const { rows, total } = await repo.selectStages(db, teamId, params.filter, page);
      return envelope(rows.map(present), total, page);
    },

    async getStage(teamId: number, uuid: string) {
      const stage = await repo.selectStage(db, teamId, uuid);
      if (!stage) throw notFound('Pipeline stage');
      return present(stage);
    },

    async createStage(
      teamId: number,
      input: { name: string; object: PipelineObject; category: PipelineCategory; order?: number },
    ) {
      const stage = await repo.insertStage(db, {
        team_id: teamId,
        uuid: newId(),
        name: cleanName(input.name),
        object: input.object,
        category: input.category,
        order: input.order,
      });
      return present(stage);
    },

    async updateStage(teamId: number, uuid: string, input: StageChanges) {
      if (input.name === undefined && input.category === undefined && input.order === undefined) {
        throw invalidField('name', 'Give at least one of name, category or order to change.');
      }
      const changes: StageChanges = { ...input };
      if (input.name !== undefined) changes.name = cleanName(input.name);
      const stage = await repo.updateStage(db, teamId, uuid, changes);
      if (!stage) throw notFound('Pipeline stage');
      return present(stage);
    },

    /**
     * Deletes a custom stage. Its records move to the first other stage of the same object and
     * category, in the same transaction, so no record is ever left without a stage.
     */
    async deleteStage(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        const stage = await repo.lockStage(trx, teamId, uuid);
        if (!stage) throw notFound('Pipeline stage');
        if (stage.is_default) {
          throw new AppError(
            'validation_error',
            `"${stage.name}" is one of the default pipeline stages every team has; default stages cannot be deleted (rename, recategorise or reorder it instead).`,
            { uuid: ['default stages cannot be deleted'] },
          );
        }
        const target = await repo.selectReplacementStage(trx, teamId, stage);
        if (target) await repo.moveRecordsToStage(trx, teamId, stage.object, stage.uuid, target.uuid);
        await repo.deleteStage(trx, teamId, uuid);
      });
    },
  };
}

export type PipelineStagesService = ReturnType<typeof createPipelineStagesService>;
