// Custom field values are stored on the record (jsonb keyed by custom field uuid) and typed by the
// field's definition. These helpers validate and convert incoming values the same way everywhere:
// the custom-field-values endpoint, contact/company create and upsert, mass actions and CSV imports.
import { invalidField } from '../../lib/errors.js';
import type { CustomFieldDefinition } from './custom-fields.repository.js';

export type CustomFieldValue = string | number | boolean | null;

/** Converts `value` to the field's type (null clears); throws a 422 naming `path` when it cannot. */
export function coerceCustomFieldValue(
  field: Pick<CustomFieldDefinition, 'name' | 'type'>,
  value: unknown,
  path: string,
): CustomFieldValue {
  if (value === null || value === undefined || value === '') return null;
  const fail = (expected: string): never => {
    throw invalidField(
      path,
      `${path} (custom field "${field.name}") must be ${expected}; got ${JSON.stringify(value)}.`,
    );
  };
  switch (field.type) {
    case 'number': {
      const number = typeof value === 'string' ? Number(value.trim().replace(',', '.')) : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : fail('a number');
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      const text = String(value).trim().toLowerCase();
      if (['true', '1', 'yes', 'y'].includes(text)) return true;
      if (['false', '0', 'no', 'n'].includes(text)) return false;
      return fail('true or false');
    }
    case 'date': {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return fail('an ISO 8601 date');
      const text = value.trim();
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : new Date(text).toISOString();
    }
    default:
      if (typeof value === 'object') return fail('text');
      return String(value);
  }
}

/**
 * Resolves a client's `custom_fields` map (keys are field names or uuids) against the team's
 * definitions into uuid → typed value. Unknown keys are a 422 listing the fields that exist.
 */
export function resolveCustomFieldInput(
  definitions: CustomFieldDefinition[],
  input: Record<string, unknown>,
  path = 'custom_fields',
): Record<string, CustomFieldValue> {
  const byKey = new Map<string, CustomFieldDefinition>();
  for (const definition of definitions) {
    byKey.set(definition.uuid, definition);
    byKey.set(definition.name.toLowerCase(), definition);
  }
  const resolved: Record<string, CustomFieldValue> = {};
  for (const [key, value] of Object.entries(input)) {
    const definition = byKey.get(key.toLowerCase());
    if (!definition) {
      const known =
        definitions.map((d) => d.name).join(', ') ||
        'none yet; create them with POST /leads/api/custom-fields';
      throw invalidField(`${path}.${key}`, `Unknown custom field "${key}". Custom fields: ${known}.`);
    }
    resolved[definition.uuid] = coerceCustomFieldValue(definition, value, `${path}.${key}`);
  }
  return resolved;
}

/** Stored (uuid-keyed) values → the wire form, keyed by field name; fields without a value are left out. */
export function customFieldsByName(
  definitions: Pick<CustomFieldDefinition, 'uuid' | 'name'>[],
  stored: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (!stored) return result;
  for (const definition of definitions) {
    const value = stored[definition.uuid];
    if (value !== undefined && value !== null) result[definition.name] = value;
  }
  return result;
}
