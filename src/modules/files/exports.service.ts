import type { Readable } from 'node:stream';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob } from '../../jobs/queue.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { exportColumns } from './export-columns.js';
import { exportJob } from './export-runner.js';
import { compileExportWhere } from './export-selection.js';
import * as repo from './exports.repository.js';
import type { ExportType } from './files.tables.js';
import type { FileStore } from './storage.js';

type Actor = { teamId: number; userId: number | null };
export type ExportRequest = { filter?: Record<string, unknown> | null; fields?: string[] };

// What our export names look like; anything else (a path, "..") never names a file of ours.
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

export function presentExport(row: repo.FileExportRow) {
  const { storage_key: _key, skip_blacklisted: _skip, ...rest } = row;
  return rest;
}

/**
 * Checks the request, stores the export and queues its job (inside `trx`). `skipBlacklisted` leaves
 * blacklisted contacts out (mass actions never touch them).
 */
export async function queueExport(
  trx: Executor,
  actor: Actor,
  type: ExportType,
  request: ExportRequest,
  options: { skipBlacklisted?: boolean } = {},
) {
  if (request.filter === undefined || request.filter === null) {
    throw invalidField('filter', 'filter is required; {"all": true} exports every record.');
  }
  const fields: unknown = request.fields;
  if (fields !== undefined && (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string'))) {
    throw invalidField(
      'fields',
      'fields must be a list of column names (payload.fields for the mass action).',
    );
  }
  await compileExportWhere(trx, actor.teamId, type, request.filter, false);
  const definitions = await selectCustomFieldDefinitions(
    trx,
    actor.teamId,
    type === 'contact_export_csv' ? 'lead' : 'company',
  );
  exportColumns(type, definitions, request.fields ?? null);
  const row = await repo.insertExport(trx, {
    team_id: actor.teamId,
    uuid: newId(),
    user_id: actor.userId,
    type,
    filter: request.filter,
    fields: request.fields ?? null,
    skip_blacklisted: options.skipBlacklisted ?? false,
  });
  await enqueueJob(
    trx,
    exportJob,
    { teamId: row.team_id, uuid: row.uuid },
    { jobKey: `files.export:${row.team_id}:${row.uuid}` },
  );
  return presentExport(row);
}

export function createExportsService(deps: { db: Database; store: FileStore }) {
  const { db, store } = deps;

  return {
    createExport(
      actor: Actor,
      type: ExportType,
      request: ExportRequest,
      options: { skipBlacklisted?: boolean } = {},
    ) {
      return db.transaction().execute((trx) => queueExport(trx, actor, type, request, options));
    },

    async getExport(teamId: number, uuid: string) {
      const row = await repo.selectExport(db, teamId, uuid);
      if (!row) throw notFound('File export');
      return presentExport(row);
    },

    async listExports(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.exportSort);
      const { rows, total } = await repo.selectExports(db, teamId, params.filter, page);
      return envelope(rows.map(presentExport), total, page);
    },

    /** A finished export file of the team, by file name or export uuid. */
    async download(
      teamId: number,
      body: { file_name?: string; uuid?: string },
    ): Promise<{ fileName: string; size: number; stream: Readable }> {
      let by: { file_name: string } | { uuid: string };
      if (body.uuid) by = { uuid: body.uuid.toLowerCase() };
      else if (body.file_name !== undefined) {
        const name = body.file_name.trim();
        if (!FILE_NAME.test(name)) {
          throw invalidField(
            'file_name',
            'file_name must be the file_name of one of your finished exports (e.g. leads-export-2026-04-28-….csv), not a path.',
          );
        }
        by = { file_name: name };
      } else {
        throw invalidField(
          'file_name',
          'file_name is required (the file_name of a finished export); or give its uuid.',
        );
      }
      const row = await repo.selectDownloadable(db, teamId, by);
      if (row?.file_removed_at) {
        throw new AppError(
          'not_found',
          `This export's file was removed on ${row.file_removed_at.toISOString()} (export files are kept ` +
            'LEADFLOW_FILE_RETENTION_DAYS days); export again.',
        );
      }
      const size = row?.storage_key ? await store.size(row.storage_key) : undefined;
      if (!row?.storage_key || !row.file_name || size === undefined) {
        throw new AppError('not_found', 'Export file not found (exports are per team; is it finished?)');
      }
      return { fileName: row.file_name, size, stream: store.read(row.storage_key) };
    },
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
