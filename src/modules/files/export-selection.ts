// Which records an export holds. The filter is the search language of contacts or companies plus the
// selection keys clients send with exports and mass actions: {"all": true} (everything),
// {"ids": [...]}, "excludeIds". An empty filter is refused, so nothing exports a whole team by accident.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { and, filterError } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';
import { compileCompanyFilter } from '../companies/companies.filter.js';
import { loadLeadFilterSpec } from '../leads/leads.filter.js';
import { compileSelection, isSelectionObject } from '../leads/leads.selection.js';
import type { ExportType } from './files.tables.js';

function uuidList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw filterError(path, `${path} must be an array of company UUIDs`);
  return value.map((item, index) => {
    if (!isUuid(item)) throw filterError(`${path}.${index}`, `${path}.${index} must be a UUID`);
    return item.toLowerCase();
  });
}

/** The company counterpart of compileSelection (leads.selection.ts), over alias `c`. */
async function compileCompanySelection(db: Executor, teamId: number, selection: unknown, path: string) {
  if (!isSelectionObject(selection)) {
    throw filterError(
      path,
      `${path} must be an object: {"all": true}, {"ids": [...]} or company filter keys`,
    );
  }
  const { all, ids, excludeIds, exclude_ids, ...filter } = selection;
  if (all !== undefined && typeof all !== 'boolean')
    throw filterError(`${path}.all`, `${path}.all must be true or false`);
  const conditions: RawBuilder<SqlBool>[] = [];
  const filtered = await compileCompanyFilter(db, teamId, filter, path);
  if (filtered) conditions.push(filtered);
  if (all !== true && ids !== undefined && ids !== null) {
    conditions.push(sql<SqlBool>`c.uuid = any(${uuidList(ids, `${path}.ids`)}::uuid[])`);
  }
  const excluded = excludeIds ?? exclude_ids;
  if (excluded !== undefined && excluded !== null) {
    const list = uuidList(excluded, excludeIds !== undefined ? `${path}.excludeIds` : `${path}.exclude_ids`);
    if (list.length > 0) conditions.push(sql<SqlBool>`not (c.uuid = any(${list}::uuid[]))`);
  }
  if (all !== true && (ids === undefined || ids === null) && !filtered) {
    throw filterError(
      path,
      `Say which companies: ${path}.all: true (every company), ${path}.ids (company UUIDs) or company filter keys ` +
        'such as lists or tags.',
    );
  }
  return and(conditions);
}

/** The condition (alias `l` or `c`) of the records an export holds; 422 for a filter that cannot run. */
export async function compileExportWhere(
  db: Executor,
  teamId: number,
  type: ExportType,
  filter: unknown,
  skipBlacklisted: boolean,
): Promise<RawBuilder<SqlBool> | undefined> {
  if (type === 'account_export_csv') return compileCompanySelection(db, teamId, filter, 'filter');
  const where = compileSelection(await loadLeadFilterSpec(db, teamId), filter, 'filter');
  if (!skipBlacklisted) return where;
  return and([...(where ? [where] : []), sql<SqlBool>`not l.is_blacklisted`]);
}
