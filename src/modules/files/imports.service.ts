import type { Static } from 'typebox';
import type { Database } from '../../db/database.js';
import { enqueueJob } from '../../jobs/queue.js';
import { conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { requireDataSource, requireTeamLists } from '../companies/companies.references.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { requireList, resolveTagInputs } from '../leads/leads.references.js';
import { insertList } from '../lists/lists.repository.js';
import type { ImportType } from './files.tables.js';
import { type ImportKind, mappingDeduplicates, resolveMapping } from './import-mapping.js';
import { type ImportConfig, importJob, importJobKey } from './import-runner.js';
import * as repo from './imports.repository.js';
import type { ImportCompaniesBody, ImportLeadsBody } from './imports.schemas.js';
import type { FileStore } from './storage.js';
import { inspectUpload, storeUpload, type UploadPart } from './uploads.js';

type Actor = { teamId: number; userId: number | null };
type LeadsBody = Static<typeof ImportLeadsBody>;
type CompaniesBody = Static<typeof ImportCompaniesBody>;

const IMPORT_TYPES: ImportType[] = ['csv_leads', 'csv_companies'];

/** Contacts known only by a name are created like POST /leads/api/leads creates them, never matched. */
function importWarnings(row: repo.FileImportRow, config: ImportConfig | null): string[] {
  if (config?.kind !== 'leads') return [];
  if (!mappingDeduplicates(config.columns)) {
    return [
      'No mapped column can deduplicate contacts (a LinkedIn reference, an e-mail, or a name together with ' +
        'company_name): every row creates a new contact, and importing the file again creates them again.',
    ];
  }
  if (row.undeduplicated_count > 0) {
    return [
      `${row.undeduplicated_count} row(s) had only a name (no LinkedIn reference, e-mail or company_name): ` +
        'they were created without deduplication, and importing them again creates them again.',
    ];
  }
  return [];
}

/** The stored record → the wire record. */
export function presentImport(row: repo.FileImportRow) {
  const { storage_key: _key, config: rawConfig, ...rest } = row;
  const config = rawConfig as unknown as ImportConfig | null;
  return {
    ...rest,
    warnings: importWarnings(row, config),
    enclosure: '"',
    list_uuid: config?.list_uuid ?? null,
    list_uuids: config?.list_uuids ?? [],
    columns: config?.mapping ?? null,
    options: config
      ? {
          update_if_exists: config.update_if_exists,
          move_to_list: config.move_to_list,
          skip_first_row: config.skip_first_row,
          tags: config.tag_uuids,
          data_source_uuid: config.data_source_uuid,
        }
      : null,
  };
}

export function createImportsService(deps: { db: Database; store: FileStore; uploadMaxBytes: number }) {
  const { db, store } = deps;

  async function requireImport(teamId: number, uuid: string) {
    const row = await repo.selectImport(db, teamId, uuid);
    if (!row) throw notFound('File import');
    return row;
  }

  async function startImport(actor: Actor, uuid: string, kind: ImportKind, body: LeadsBody | CompaniesBody) {
    const { teamId } = actor;
    const record = await requireImport(teamId, uuid);
    if (record.status === 'queued' || record.status === 'processing') {
      throw conflict(
        'An import of this file is already running; wait for it to finish (GET /leads/api/file-imports/{uuid}).',
      );
    }
    if (record.file_removed_at) {
      throw conflict(
        `The uploaded file was removed on ${record.file_removed_at.toISOString()} (uploads are kept ` +
          'LEADFLOW_FILE_RETENTION_DAYS days); upload it again to import it.',
      );
    }
    const definitions = await selectCustomFieldDefinitions(db, teamId, kind === 'leads' ? 'lead' : 'company');
    const columns = resolveMapping(kind, body, record.headers, definitions);
    const nested = (body.options ?? {}) as Record<string, unknown>;
    const option = (key: string) => (body as Record<string, unknown>)[key] ?? nested[key];
    const skipFirstRow = (option('skip_first_row') as boolean | undefined) ?? true;
    const mapping = body.columns
      ? body.columns.map((entry) => ({
          source:
            typeof entry.source === 'number'
              ? (record.headers[entry.source] ?? String(entry.source))
              : entry.source,
          target: entry.target ?? null,
        }))
      : Object.entries(body.column_mapping ?? {}).map(([source, target]) => ({
          source,
          target: target ?? null,
        }));

    const updated = await db.transaction().execute(async (trx) => {
      let listUuid: string | null = null;
      let listUuids: string[] = [];
      if (kind === 'leads') {
        const given = (body as LeadsBody).list_uuid?.toLowerCase();
        if (given) {
          await requireList(trx, teamId, given);
          listUuid = given;
        } else {
          // Every contact belongs to a list: without one, the file gets its own.
          listUuid = newId();
          await insertList(trx, { team_id: teamId, uuid: listUuid, name: record.file_name });
        }
      } else {
        const companies = body as CompaniesBody;
        const field = companies.list_uuids ? 'list_uuids' : 'list_uuid';
        listUuids = [
          ...new Set(
            (companies.list_uuids ?? (companies.list_uuid ? [companies.list_uuid] : [])).map((u) =>
              u.toLowerCase(),
            ),
          ),
        ];
        await requireTeamLists(trx, teamId, listUuids, field);
      }
      await requireDataSource(trx, teamId, body.data_source_uuid);
      const tags = (option('tags') as string[] | undefined) ?? [];
      const [tagUuids] = await resolveTagInputs(trx, teamId, [{ path: 'tags', values: tags }]);
      const config: ImportConfig = {
        kind,
        mapping,
        columns,
        skip_first_row: skipFirstRow,
        update_if_exists: (option('update_if_exists') as boolean | undefined) ?? true,
        move_to_list: kind === 'leads' && ((option('move_to_list') as boolean | undefined) ?? false),
        list_uuid: listUuid,
        list_uuids: listUuids,
        tag_uuids: tagUuids!,
        data_source_uuid: body.data_source_uuid?.toLowerCase() ?? null,
      };
      const queued = await repo.queueImport(trx, teamId, uuid, {
        type: kind === 'leads' ? 'csv_leads' : 'csv_companies',
        config,
        totalRows: record.rows_count + (skipFirstRow ? 0 : 1),
      });
      if (!queued) {
        throw conflict('An import of this file was started, or its file removed, at the same time; retry.');
      }
      await enqueueJob(trx, importJob, { teamId, uuid }, { jobKey: importJobKey(teamId, uuid) });
      return queued;
    });
    return presentImport(updated);
  }

  return {
    /** Stores an uploaded CSV, reads its format, header and row count, and records it. */
    async upload(actor: Actor, parts: AsyncIterable<UploadPart>) {
      const uuid = newId();
      const key = `imports/${actor.teamId}/${uuid}.csv`;
      const stored = await storeUpload(store, key, parts, deps.uploadMaxBytes, ['type']);
      try {
        const type = (stored.fields.type?.trim() || 'csv_leads') as ImportType;
        if (!IMPORT_TYPES.includes(type)) {
          throw invalidField(
            'type',
            `type must be one of ${IMPORT_TYPES.join(', ')} (got "${stored.fields.type}").`,
          );
        }
        const csv = await inspectUpload(store, key, stored);
        const row = await repo.insertImport(db, {
          team_id: actor.teamId,
          uuid,
          user_id: actor.userId,
          type,
          file_name: stored.fileName.slice(0, 255),
          storage_key: key,
          size_bytes: stored.sizeBytes,
          encoding: csv.format.encoding,
          has_bom: csv.format.bom,
          delimiter: csv.format.delimiter,
          headers: csv.headers,
          rows_count: csv.rowsCount,
          sample_rows: csv.sampleRows,
        });
        return presentImport(row);
      } catch (error) {
        await store.delete(key);
        throw error;
      }
    },

    async getImport(teamId: number, uuid: string) {
      return presentImport(await requireImport(teamId, uuid));
    },

    async listImports(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.importSort);
      const { rows, total } = await repo.selectImports(db, teamId, params.filter, page);
      return envelope(rows.map(presentImport), total, page);
    },

    importLeads: (actor: Actor, uuid: string, body: LeadsBody) => startImport(actor, uuid, 'leads', body),
    importCompanies: (actor: Actor, uuid: string, body: CompaniesBody) =>
      startImport(actor, uuid, 'companies', body),
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
