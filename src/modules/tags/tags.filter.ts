// `tags` and `tags_all` in contact and company filters: the record carries its tag uuids in a uuid[]
// column served by a (team_id, tags) GIN index.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type FilterField, filterError } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';

/** The two tag keys of a filter over `column` (e.g. `l.tags`); `noun` names the record in descriptions. */
const PLURAL = { contact: 'contacts', company: 'companies' } as const;

export function tagFilterFields(
  column: string,
  noun: keyof typeof PLURAL,
): { tags: FilterField; tags_all: FilterField } {
  const hasAll = (value: unknown, path: string): RawBuilder<SqlBool> => {
    const values = Array.isArray(value) ? value : [value];
    const uuids = values.map((item, index) => {
      if (!isUuid(item)) {
        throw filterError(
          `${path}.${index}`,
          `${path} takes a list of tag UUIDs (the ${noun} has all of them)`,
        );
      }
      return item.toLowerCase();
    });
    return sql<SqlBool>`${sql.ref(column)} @> ${uuids}::uuid[]`;
  };
  return {
    tags: {
      type: 'uuid',
      array: true,
      column,
      description: `Tag UUIDs: a list matches ${PLURAL[noun]} with any of them; "is_null" ${PLURAL[noun]} without tags`,
    },
    tags_all: {
      type: 'uuid',
      description: `Tag UUIDs the ${noun} has all of`,
      compile: (value, { path }) => hasAll(value, path),
    },
  };
}
