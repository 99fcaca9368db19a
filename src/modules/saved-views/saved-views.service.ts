import type { Database } from '../../db/database.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import * as repo from './saved-views.repository.js';
import { MAX_FILTER_CHARS } from './saved-views.schemas.js';
import type { SavedViewPage, SavedViewSort } from './saved-views.tables.js';

type Owner = { teamId: number; userId: number };
type Changes = {
  name?: string;
  filter?: Record<string, unknown>;
  sort?: SavedViewSort | null;
  columns?: string[];
};

function checkFilter(filter: Record<string, unknown> | undefined) {
  if (filter !== undefined && JSON.stringify(filter).length > MAX_FILTER_CHARS) {
    throw invalidField('filter', `filter must be at most ${MAX_FILTER_CHARS} characters as JSON.`);
  }
}

/** Saved views of the web application's tables: each user sees and changes only their own, in each team. */
export function createSavedViewsService(deps: { db: Database }) {
  const { db } = deps;

  async function requireView(owner: Owner, uuid: string) {
    const view = await repo.selectSavedView(db, owner.teamId, owner.userId, uuid);
    if (!view) throw notFound('Saved view');
    return view;
  }

  async function requireFreeName(owner: Owner, page: SavedViewPage, name: string, exceptUuid?: string) {
    if (await repo.nameTaken(db, owner.teamId, owner.userId, page, name, exceptUuid)) {
      throw invalidField('name', `You already have a ${page} view named "${name}".`);
    }
  }

  return {
    async list(owner: Owner, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.savedViewSort);
      const { rows, total } = await repo.selectSavedViews(
        db,
        owner.teamId,
        owner.userId,
        params.filter,
        page,
      );
      return envelope(rows, total, page);
    },

    get: requireView,

    async create(owner: Owner, body: Changes & { name: string; page: SavedViewPage }) {
      checkFilter(body.filter);
      const name = body.name.trim();
      await requireFreeName(owner, body.page, name);
      return repo.insertSavedView(db, {
        team_id: owner.teamId,
        user_id: owner.userId,
        uuid: newId(),
        page: body.page,
        name,
        filter: body.filter ?? {},
        sort: body.sort ?? null,
        columns: body.columns ?? [],
      });
    },

    async update(owner: Owner, uuid: string, body: Changes) {
      checkFilter(body.filter);
      const view = await requireView(owner, uuid);
      const name = body.name?.trim();
      if (name !== undefined) await requireFreeName(owner, view.page, name, uuid);
      const updated = await repo.updateSavedView(db, owner.teamId, owner.userId, uuid, { ...body, name });
      if (!updated) throw notFound('Saved view');
      return updated;
    },

    async remove(owner: Owner, uuid: string) {
      if (!(await repo.deleteSavedView(db, owner.teamId, owner.userId, uuid))) throw notFound('Saved view');
    },
  };
}

export type SavedViewsService = ReturnType<typeof createSavedViewsService>;
