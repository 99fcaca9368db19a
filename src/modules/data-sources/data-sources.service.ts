import type { Database, Executor } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { requireList, resolveTagInputs } from '../leads/leads.references.js';
import { selectSenderProfile } from '../senders/senders.repository.js';
import { scheduleDataSourceRun } from './data-sources.jobs.js';
import * as repo from './data-sources.repository.js';
import type { DataSourcePayload } from './data-sources.tables.js';
import {
  type DataSourceStatus,
  type DataSourceType,
  isSearchType,
  URL_LESS_TYPES,
} from './data-sources.types.js';

type PayloadInput = {
  url?: string | null;
  search_url?: string | null;
  saved_search_url?: string | null;
  list_url?: string | null;
  post_url?: string | null;
  contacts_limit?: number | null;
};

type CreateBody = {
  type: DataSourceType;
  list_uuid: string;
  payload?: PayloadInput | null;
  tags?: string[] | null;
  sender_profile_uuid?: string | null;
  status?: 'in_progress' | 'not_started';
};

type UpdateBody = Partial<Omit<CreateBody, 'status'>> & { status?: 'in_progress' | 'on_hold' };

const URL_KEYS = ['url', 'search_url', 'saved_search_url', 'list_url', 'post_url'] as const;

/** The stored payload of `type`: one URL (from `url` or its per-type aliases) and the contacts limit. */
export function normalizePayload(
  type: DataSourceType,
  input: PayloadInput | null | undefined,
): DataSourcePayload {
  const given = URL_KEYS.flatMap((key) => {
    const value = input?.[key]?.trim();
    return value ? [{ key, value }] : [];
  });
  if (new Set(given.map((entry) => entry.value)).size > 1) {
    throw invalidField(
      `payload.${given[1]!.key}`,
      `payload.${given[1]!.key} differs from payload.${given[0]!.key}; give the URL once (payload.url).`,
    );
  }
  const contacts_limit = input?.contacts_limit ?? null;
  if (!isSearchType(type) || URL_LESS_TYPES.has(type)) return { url: null, contacts_limit };
  const found = given[0];
  if (!found) {
    throw invalidField(
      'payload.url',
      `payload.url is required for a ${type} source: the LinkedIn search, saved search, list or post URL.`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(found.value);
  } catch {
    throw invalidField(`payload.${found.key}`, `payload.${found.key} is not a URL: ${found.value}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalidField(`payload.${found.key}`, `payload.${found.key} must be an http(s) URL.`);
  }
  return { url: found.value, contacts_limit };
}

async function requireSender(db: Executor, teamId: number, uuid: string) {
  const sender = await selectSenderProfile(db, teamId, uuid);
  if (!sender) {
    throw invalidField(
      'sender_profile_uuid',
      `sender_profile_uuid does not name one of your sender profiles (${uuid}).`,
    );
  }
}

async function resolveTags(db: Executor, teamId: number, tags: string[] | null | undefined) {
  if (!tags || tags.length === 0) return [];
  const [uuids] = await resolveTagInputs(db, teamId, [{ path: 'tags', values: tags }]);
  return uuids!;
}

export function createDataSourcesService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function requireSource(executor: Executor, teamId: number, uuid: string, forUpdate = false) {
    const source = await repo.selectDataSource(executor, teamId, uuid, { forUpdate });
    if (!source) throw notFound('Data source');
    return source;
  }

  return {
    async listDataSources(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.dataSourceSort);
      const { rows, total } = await repo.selectDataSources(db, teamId, params.filter, page);
      return envelope(rows.map(repo.presentDataSource), total, page);
    },

    async getDataSource(teamId: number, uuid: string) {
      return repo.presentDataSource(await requireSource(db, teamId, uuid));
    },

    async createDataSource(teamId: number, userId: number | null, body: CreateBody) {
      const payload = normalizePayload(body.type, body.payload);
      const runs = isSearchType(body.type);
      if (!runs && body.status === 'in_progress') {
        throw invalidField(
          'status',
          'A csv_leads source does not run (CSV imports fill it); leave status out.',
        );
      }
      const status: DataSourceStatus = runs && body.status !== 'not_started' ? 'in_progress' : 'not_started';
      return db.transaction().execute(async (trx) => {
        await requireList(trx, teamId, body.list_uuid.toLowerCase());
        const sender = body.sender_profile_uuid?.toLowerCase() ?? null;
        if (sender) await requireSender(trx, teamId, sender);
        const source = await repo.insertDataSource(trx, {
          team_id: teamId,
          uuid: newId(),
          user_id: userId,
          sender_profile_uuid: sender,
          list_uuid: body.list_uuid.toLowerCase(),
          type: body.type,
          status,
          payload,
          tags: await resolveTags(trx, teamId, body.tags),
          started_at: status === 'in_progress' ? clock.now() : null,
        });
        if (status === 'in_progress') await scheduleDataSourceRun(trx, teamId, source.uuid);
        return repo.presentDataSource(source);
      });
    },

    /**
     * Changes the source. A new type or URL starts the search again from its first page (dedup keeps
     * the records already saved from being saved twice); status on_hold pauses it and in_progress
     * starts or resumes it where it stopped (a completed one from the first page again).
     */
    async updateDataSource(teamId: number, uuid: string, body: UpdateBody) {
      return db.transaction().execute(async (trx) => {
        const current = await requireSource(trx, teamId, uuid, true);
        const type = body.type ?? current.type;
        const changes: repo.DataSourceChanges = {};
        if (body.type !== undefined || body.payload !== undefined) {
          const payload =
            body.payload !== undefined
              ? normalizePayload(type, body.payload)
              : normalizePayload(type, {
                  url: current.payload.url ?? null,
                  contacts_limit: current.payload.contacts_limit ?? null,
                });
          changes.payload = payload;
          if (type !== current.type || (payload.url ?? null) !== (current.payload.url ?? null)) {
            changes.rewind = true;
          }
          if (body.type !== undefined) changes.type = body.type;
        }
        if (body.list_uuid !== undefined) {
          await requireList(trx, teamId, body.list_uuid.toLowerCase());
          changes.list_uuid = body.list_uuid.toLowerCase();
        }
        if (body.sender_profile_uuid !== undefined) {
          const sender = body.sender_profile_uuid?.toLowerCase() ?? null;
          if (sender) await requireSender(trx, teamId, sender);
          changes.sender_profile_uuid = sender;
        }
        if (body.tags !== undefined) changes.tags = await resolveTags(trx, teamId, body.tags);

        let run = false;
        if (!isSearchType(type)) {
          if (body.status !== undefined) {
            throw invalidField(
              'status',
              'A csv_leads source does not run (CSV imports fill it); leave status out.',
            );
          }
          if (current.status !== 'not_started') changes.status = 'not_started';
        } else if (body.status === 'on_hold') {
          if (current.status !== 'in_progress' && current.status !== 'on_hold') {
            throw new AppError(
              'validation_error',
              `Only a running source can be put on hold; this one is ${current.status}.`,
              { status: [`cannot go from ${current.status} to on_hold`] },
            );
          }
          changes.status = 'on_hold';
        } else if (body.status === 'in_progress') {
          changes.status = 'in_progress';
          changes.started = clock.now();
          if (current.status === 'completed') changes.rewind = true;
          run = true;
        } else if (current.status === 'in_progress' && changes.rewind) {
          run = true;
        }
        const updated = await repo.updateDataSource(trx, teamId, uuid, changes);
        if (!updated) throw notFound('Data source');
        if (run) await scheduleDataSourceRun(trx, teamId, uuid);
        return repo.presentDataSource(updated);
      });
    },

    /** Deletes the source (its saved contacts and companies stay, naming it in data_source_uuid). */
    async deleteDataSource(teamId: number, uuid: string) {
      const deleted = await repo.deleteDataSource(db, teamId, uuid);
      if (!deleted) throw notFound('Data source');
      return repo.presentDataSource(deleted);
    },

    async dataSourceMetrics(teamId: number, uuids: string[]) {
      const rows = await repo.selectDataSourceMetrics(db, teamId, [
        ...new Set(uuids.map((uuid) => uuid.toLowerCase())),
      ]);
      return Object.fromEntries(
        rows.map((row) => [
          row.uuid,
          {
            queued_records: Number(row.queued_records),
            saved_records: row.saved_records,
            duplicate_records: row.duplicate_records,
            blacklisted_records: row.blacklisted_records,
            error_records: row.error_records,
            child_queued_records: 0,
            child_saved_records: 0,
            child_duplicate_records: 0,
          },
        ]),
      );
    },
  };
}

export type DataSourcesService = ReturnType<typeof createDataSourcesService>;
