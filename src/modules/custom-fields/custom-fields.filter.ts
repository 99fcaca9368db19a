// `custom_fields` in contact and company filters: an object keyed by field name (or uuid), each value
// any filter value of the shared language, compared with the field's type:
//   {"custom_fields": {"industry": ["SaaS", "Fintech"], "seats": {">=": 50}, "renewal": "is_null"}}
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { and, compileValue, type FieldType, type FilterField, filterError } from '../../lib/filter.js';
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
    // Equality on text uses jsonb containment, which the GIN (jsonb_path_ops) index serves.
    if (
      definition.type === 'string' &&
      (typeof fieldValue === 'string' || typeof fieldValue === 'number') &&
      fieldValue !== 'is_null' &&
      fieldValue !== 'is_not_null'
    ) {
      return sql<SqlBool>`${sql.ref(column)} @> ${JSON.stringify({ [definition.uuid]: String(fieldValue) })}::jsonb`;
    }
    const extracted = sql`(${sql.ref(column)} ->> ${definition.uuid})::${sql.raw(cast)}`;
    return compileValue({ type }, extracted, fieldValue, `${path}.${key}`);
  });
  return and(conditions) ?? sql<SqlBool>`true`;
}
