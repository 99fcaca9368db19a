// `custom_fields` in contact and company filters: an object keyed by field name (or uuid), each value
// any filter value of the shared language, compared with the field's type:
//   {"custom_fields": {"industry": ["SaaS", "Fintech"], "seats": {">=": 50}, "renewal": "is_null"}}
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  and,
  coerceScalar,
  compileValue,
  type FieldType,
  type FilterField,
  filterError,
} from '../../lib/filter.js';
import type { CustomFieldDefinition } from './custom-fields.repository.js';

const FILTER_TYPES: Record<CustomFieldDefinition['type'], { type: FieldType; cast: string }> = {
  string: { type: 'string', cast: 'text' },
  number: { type: 'number', cast: 'numeric' },
  boolean: { type: 'boolean', cast: 'boolean' },
  date: { type: 'datetime', cast: 'timestamptz' },
};

/** A FilterField for `custom_fields` over the jsonb column `column` (e.g. `l.custom_fields`). */
export function customFieldsFilterField(definitions: CustomFieldDefinition[], column: string): FilterField {
  return {
    type: 'string',
    description: 'Object keyed by custom field name; each value is a filter value',
    compile: (value, { path }) => compileCustomFields(definitions, column, value, path),
  };
}

function compileCustomFields(
  definitions: CustomFieldDefinition[],
  column: string,
  value: unknown,
  path: string,
): RawBuilder<SqlBool> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw filterError(path, `${path} must be an object keyed by custom field name`);
  }
  const conditions = Object.entries(value as Record<string, unknown>).map(([key, fieldValue]) => {
    const wanted = key.toLowerCase();
    const definition = definitions.find((d) => d.uuid === wanted || d.name.toLowerCase() === wanted);
    if (!definition) {
      throw filterError(
        `${path}.${key}`,
        `Unknown custom field "${key}". Custom fields: ${definitions.map((d) => d.name).join(', ') || 'none'}`,
      );
    }
    const { type, cast } = FILTER_TYPES[definition.type];
    const fieldPath = `${path}.${key}`;
    const indexed = indexedCondition(definition, column, type, fieldValue, fieldPath);
    if (indexed) return indexed;
    const extracted = sql`(${sql.ref(column)} ->> ${definition.uuid})::${sql.raw(cast)}`;
    return compileValue({ type }, extracted, fieldValue, fieldPath);
  });
  return and(conditions) ?? sql<SqlBool>`true`;
}

/**
 * The forms the GIN indexes can serve: equality (one value or a list) on text, number and boolean
 * fields as jsonb containment (jsonb_path_ops index), and "is set" as a key test on the record-keys
 * index (migration 0130). Other forms (ranges, dates, negations) compare the extracted value.
 */
function indexedCondition(
  definition: CustomFieldDefinition,
  column: string,
  type: FieldType,
  value: unknown,
  path: string,
): RawBuilder<SqlBool> | undefined {
  const ref = sql.ref(column);
  if (value === 'is_not_null') {
    return sql<SqlBool>`(${ref} <> '{}'::jsonb and leadflow_jsonb_keys(${ref}) @> array[${definition.uuid}::text]
      and ${ref} ->> ${definition.uuid} is not null)`;
  }
  if (definition.type === 'date' || value === null || value === 'is_null') return undefined;
  const contains = (item: unknown, itemPath: string) => {
    const typed = coerceScalar({ type }, item, itemPath);
    return sql<SqlBool>`${ref} @> ${JSON.stringify({ [definition.uuid]: typed })}::jsonb`;
  };
  if (Array.isArray(value) && value.length > 0) {
    return sql<SqlBool>`(${sql.join(
      value.map((item, index) => contains(item, `${path}.${index}`)),
      sql` or `,
    )})`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return contains(value, path);
  }
  return undefined;
}
