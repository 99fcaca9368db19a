// `tags` and `tags_all` in contact and company filters: the record carries its tag uuids in a uuid[]
// column served by a (team_id, tags) GIN index. A tag is named by its uuid or, as when a record is
// created, by its name (case-insensitive; a name the team has no tag of matches nothing).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type FilterField, filterError } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';

/** The two tag keys of a filter over `column` (e.g. `l.tags`); `noun` names the record in descriptions. */
const PLURAL = { contact: 'contacts', company: 'companies' } as const;

type TagSet = { uuids: string[]; names: string[] };

function tagSet(value: unknown, path: string, teamId: number | undefined): TagSet {
  const values = Array.isArray(value) ? value : [value];
  const set: TagSet = { uuids: [], names: [] };
  values.forEach((item, index) => {
    const at = Array.isArray(value) ? `${path}.${index}` : path;
    if (isUuid(item)) set.uuids.push(item.toLowerCase());
    else if (teamId !== undefined && typeof item === 'string' && item.trim() !== '')
      set.names.push(item.trim().toLowerCase());
    else throw filterError(at, `${path} takes tag UUIDs or tag names (got ${JSON.stringify(item)})`);
  });
  set.names = [...new Set(set.names)];
  return set;
}

/** The uuids of a set as an uuid[] expression: names looked up in the team's tags once per statement. */
function uuidArray({ uuids, names }: TagSet, teamId: number | undefined): RawBuilder<unknown> {
  if (names.length === 0) return sql`${uuids}::uuid[]`;
  return sql`(${uuids}::uuid[] || array(select t.uuid from tags t
    where t.team_id = ${teamId} and lower(t.name) = any(${names}::text[])))`;
}

export function tagFilterFields(
  column: string,
  noun: keyof typeof PLURAL,
  /** The team whose tag names the filter may use (without it, only uuids are accepted). */
  teamId?: number,
): { tags: FilterField; tags_all: FilterField } {
  const ref = sql.ref(column);
  const any = (value: unknown, path: string, negate: boolean): RawBuilder<SqlBool> => {
    const set = uuidArray(tagSet(value, path, teamId), teamId);
    // The positive form stays `column && array` for the (team_id, tags) GIN index.
    return negate ? sql<SqlBool>`not (coalesce(${ref}, '{}') && ${set})` : sql<SqlBool>`${ref} && ${set}`;
  };
  const compileTags = (value: unknown, path: string): RawBuilder<SqlBool> => {
    if (value === null || value === 'is_null') return sql<SqlBool>`coalesce(cardinality(${ref}), 0) = 0`;
    if (value === 'is_not_null') return sql<SqlBool>`cardinality(${ref}) > 0`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) throw filterError(path, `${path} needs at least one operator`);
      const conditions = entries.map(([op, operand]) => {
        if (op === '=') return compileTags(operand, `${path}.${op}`);
        if (op === '!=' || op === '<>') return sql<SqlBool>`not (${compileTags(operand, `${path}.${op}`)})`;
        throw filterError(`${path}.${op}`, `${path}: tags take =, != or a list (got "${op}")`);
      });
      return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
    }
    return any(value, path, false);
  };
  const hasAll = (value: unknown, path: string): RawBuilder<SqlBool> => {
    const set = tagSet(Array.isArray(value) ? value : [value], path, teamId);
    const contains = sql<SqlBool>`${ref} @> ${uuidArray(set, teamId)}`;
    if (set.names.length === 0) return contains;
    // Every name must name a tag of the team: an unknown one is a tag no record has.
    return sql<SqlBool>`(${contains} and (select count(*) from tags t
      where t.team_id = ${teamId} and lower(t.name) = any(${set.names}::text[])) = ${set.names.length})`;
  };
  const by = 'Tag UUIDs or tag names (case-insensitive)';
  return {
    tags: {
      type: 'uuid',
      array: true,
      column,
      description: `${by}: a list matches ${PLURAL[noun]} with any of them; "is_null" ${PLURAL[noun]} without tags`,
      compile: (value, { path }) => compileTags(value, path),
    },
    tags_all: {
      type: 'uuid',
      description: `${by} the ${noun} has all of`,
      compile: (value, { path }) => hasAll(value, path),
    },
  };
}
