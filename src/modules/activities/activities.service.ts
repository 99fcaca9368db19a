import type { Database } from '../../db/database.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import * as repo from './activities.repository.js';
import type { ActivityObjectType } from './activities.tables.js';

type Actor = { teamId: number; userId: number };

export type CreateActivityInput = {
  object_uuid: string;
  object_type: ActivityObjectType;
  type: string;
  payload?: Record<string, unknown>;
  occurred_at?: string | Date;
};

export function createActivitiesService(deps: { db: Database }) {
  const { db } = deps;

  async function requireActivity(teamId: number, uuid: string) {
    const activity = await repo.selectActivity(db, teamId, uuid);
    if (!activity) throw notFound('Activity');
    return activity;
  }

  return {
    async listActivities(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.activitySort);
      const { rows, total } = await repo.selectActivities(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    getActivity: requireActivity,

    async createActivity(actor: Actor, input: CreateActivityInput) {
      return db.transaction().execute(async (trx) => {
        // The record stays until the activity is written (a deletion waits), so none is left orphaned.
        if (!(await repo.lockTimelineRecord(trx, actor.teamId, input.object_type, input.object_uuid))) {
          const what = input.object_type === 'lead' ? 'contacts' : 'companies';
          throw invalidField('object_uuid', `object_uuid does not name one of your ${what}.`);
        }
        const [uuid] = await repo.recordActivities(trx, actor.teamId, [
          {
            type: input.type,
            objectType: input.object_type,
            objectUuid: input.object_uuid,
            payload: input.payload ?? {},
            userId: actor.userId,
            createdAt: input.occurred_at ?? null,
          },
        ]);
        const activity = await repo.selectActivity(trx, actor.teamId, uuid!);
        return activity!;
      });
    },
  };
}

export type ActivitiesService = ReturnType<typeof createActivitiesService>;
