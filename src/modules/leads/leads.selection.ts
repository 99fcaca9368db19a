// Which contacts a count or a mass action is about. Clients say it in several ways, all accepted:
//   {"ids": [...]}                                  these contacts
//   {"all": true, "excludeIds": [...]}              every contact of the team but those
//   {"all": false, "ids": [...], "excludeIds": []}  (what the hosted web app sends)
//   {"list_uuid": "...", "tags": [...]}             a search filter
//   {"all": true, "leadFilter": {...}}              the GetSales count form
// Keys combine with AND. Search, count, metrics, exports and mass actions all read this one language,
// so `all: true` means every contact everywhere. Nothing to go on (no ids, no filter, all not true) is a
// 422 where the selection acts or counts (so an empty body never acts on the whole team by accident);
// search and metrics read it as every contact, as an absent filter.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { and, compileFilter, type FilterSpec, filterError } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';

function uuidList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw filterError(path, `${path} must be an array of contact UUIDs`);
  if (value.length > 100_000) throw filterError(path, `${path} takes at most 100000 UUIDs; use a filter`);
  return value.map((item, index) => {
    if (!isUuid(item)) throw filterError(`${path}.${index}`, `${path}.${index} must be a UUID`);
    return item.toLowerCase();
  });
}

export function isSelectionObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compiles a selection into a condition on alias `l` (undefined: every contact of the team). */
export function compileSelection(
  spec: FilterSpec,
  selection: unknown,
  path = 'filter',
  options: { emptyMeansAll?: boolean } = {},
): RawBuilder<SqlBool> | undefined {
  if (options.emptyMeansAll && (selection === undefined || selection === null)) return undefined;
  if (!isSelectionObject(selection)) {
    throw filterError(path, `${path} must be an object: {"ids": [...]}, {"all": true} or filter keys`);
  }
  const { all, ids, excludeIds, exclude_ids, leadFilter, ...filter } = selection;
  if (all !== undefined && typeof all !== 'boolean')
    throw filterError(`${path}.all`, `${path}.all must be true or false`);
  const conditions: RawBuilder<SqlBool>[] = [];
  const filtered = compileFilter(spec, filter, path);
  if (filtered) conditions.push(filtered);
  if (leadFilter !== undefined && leadFilter !== null) {
    const compiled = compileFilter(spec, leadFilter, `${path}.leadFilter`);
    if (compiled) conditions.push(compiled);
  }
  // With all: true the ids are ignored (the hosted service's rule); otherwise they narrow.
  if (all !== true && ids !== undefined && ids !== null) {
    conditions.push(sql<SqlBool>`l.uuid = any(${uuidList(ids, `${path}.ids`)}::uuid[])`);
  }
  const excluded = excludeIds ?? exclude_ids;
  const excludedPath = excludeIds !== undefined ? `${path}.excludeIds` : `${path}.exclude_ids`;
  if (excluded !== undefined && excluded !== null) {
    const list = uuidList(excluded, excludedPath);
    if (list.length > 0) conditions.push(sql<SqlBool>`not (l.uuid = any(${list}::uuid[]))`);
  }
  const narrowed = all === true || (ids !== undefined && ids !== null) || filtered || leadFilter;
  if (!narrowed && !options.emptyMeansAll) {
    throw filterError(
      path,
      `Say which contacts: ${path}.ids (contact UUIDs), ${path}.all: true (every contact) or contact ` +
        'filter keys such as list_uuid or tags.',
    );
  }
  return and(conditions);
}
