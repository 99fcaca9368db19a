// The JSON Schema of a filter object (spec 2.1) from its FilterSpec (lib/filter.ts), so a document states
// the keys a filter takes and each key's values: a value, a list (any of), null / "is_null" /
// "is_not_null", or an object of operators ({">=": v, "<": w}). Fields that compile their value
// themselves take what their type says, without operators.
import { Type } from 'typebox';
import type { FilterField, FilterSpec } from '../lib/filter.js';
import { STORABLE_DATE_PATTERN, STORABLE_DATE_TIME_PATTERN } from '../lib/timestamps.js';

const NULL_WORDS = {
  enum: ['is_null', 'is_not_null'],
  description: 'is_null / is_not_null: no value / any value',
};

function scalar(field: FilterField): Record<string, unknown> {
  switch (field.type) {
    case 'enum':
      return { enum: [...(field.values ?? [])] };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'integer':
      return { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'datetime':
      return {
        anyOf: [
          { type: 'string', format: 'date', pattern: STORABLE_DATE_PATTERN },
          { type: 'string', format: 'date-time', pattern: STORABLE_DATE_TIME_PATTERN },
        ],
      };
    default:
      return { type: 'string', maxLength: 1000 };
  }
}

function valueSchema(field: FilterField): Record<string, unknown> {
  const one = scalar(field);
  const list = { type: 'array', items: one, maxItems: 1000, description: 'Any of these values' };
  const description = field.description;
  if (field.compile) {
    return {
      anyOf: field.type === 'datetime' ? [one] : [{ type: 'null' }, NULL_WORDS, one, list],
      ...(description ? { description } : {}),
    };
  }
  const oneOrList = { anyOf: [one, list] };
  // Order comparisons are for ordered scalars: not for ids, flags or list columns (lib/filter.ts).
  const ordered = !field.array && field.type !== 'uuid' && field.type !== 'boolean';
  const comparisons = ['<', '<=', '>', '>=', 'from', 'to'].map((op) => [op, one]);
  const operators = {
    type: 'object',
    properties: {
      '=': oneOrList,
      '!=': oneOrList,
      '<>': oneOrList,
      ...(ordered ? Object.fromEntries(comparisons) : {}),
    },
    additionalProperties: false,
    minProperties: 1,
    description: 'Operators, combined with AND',
  };
  return {
    anyOf: [{ type: 'null' }, NULL_WORDS, one, list, operators],
    ...(description ? { description } : {}),
  };
}

/** A closed filter object: one optional key per field of `spec`, each with its values. */
export function FilterObject(spec: FilterSpec, description: string) {
  return Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(spec.fields).map(([key, field]) => [key, valueSchema(field)]),
    ),
    additionalProperties: false,
    description,
  });
}
