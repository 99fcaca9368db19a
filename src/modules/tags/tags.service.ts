import type { Database } from '../../db/database.js';
import { enqueueJob } from '../../jobs/queue.js';
import { conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { stripDeletedTagJob } from './tags.jobs.js';
import * as repo from './tags.repository.js';

type TagChanges = { name?: string; color?: string | null };

const UNIQUE_VIOLATION = '23505';

function normalizeColor(color: string | null | undefined) {
  if (color === undefined || color === null) return color;
  const hex = color.toLowerCase();
  // #abc and #aabbcc are the same colour; store one spelling so filters and clients agree.
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
}

function cleanName(name: string) {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', 'name must not be blank.');
  return trimmed;
}

export function createTagsService(deps: { db: Database }) {
  const { db } = deps;

  async function nameTaken(teamId: number, name: string) {
    const existing = await repo.selectTagByName(db, teamId, name);
    return conflict(
      `A tag named "${existing?.name ?? name}" already exists in this team (names are case-insensitive).`,
      { name: ['already taken'], uuid: existing?.uuid },
    );
  }

  async function requireTag(teamId: number, uuid: string) {
    const tag = await repo.selectTag(db, teamId, uuid);
    if (!tag) throw notFound('Tag');
    return tag;
  }

  return {
    async listTags(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.tagSort);
      const { rows, total } = await repo.selectTags(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    getTag: requireTag,

    async createTag(teamId: number, input: TagChanges & { name: string }) {
      const name = cleanName(input.name);
      const tag = await repo.insertTag(db, {
        team_id: teamId,
        uuid: newId(),
        name,
        color: normalizeColor(input.color) ?? null,
      });
      if (!tag) throw await nameTaken(teamId, name);
      return tag;
    },

    async updateTag(teamId: number, uuid: string, input: TagChanges) {
      if (input.name === undefined && input.color === undefined) {
        throw invalidField('name', 'Give name and/or color to change.');
      }
      const changes: TagChanges = {};
      if (input.name !== undefined) changes.name = cleanName(input.name);
      if (input.color !== undefined) changes.color = normalizeColor(input.color);
      try {
        const tag = await repo.updateTag(db, teamId, uuid, changes);
        if (!tag) throw notFound('Tag');
        return tag;
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION && changes.name) {
          throw await nameTaken(teamId, changes.name);
        }
        throw error;
      }
    },

    /** Deletes the tag now; a job queued in the same transaction takes it off contacts and companies. */
    async deleteTag(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteTag(trx, teamId, uuid))) throw notFound('Tag');
        await enqueueJob(trx, stripDeletedTagJob, { teamId, tagUuid: uuid });
      });
    },

    async tagMetrics(teamId: number, uuids: string[], metrics?: repo.TagMetric[]) {
      const wanted: repo.TagMetric[] =
        metrics && metrics.length > 0 ? metrics : ['leads_count', 'companies_count'];
      const rows = uuids.length > 0 ? await repo.selectTagCounts(db, teamId, uuids, wanted) : [];
      return Object.fromEntries(
        rows.map((row) => [row.uuid, Object.fromEntries(wanted.map((metric) => [metric, row[metric] ?? 0]))]),
      );
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
