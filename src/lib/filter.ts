// The filter language of spec 2.1, compiled to SQL. One implementation for every list and search:
// each resource declares its filterable fields and their types; client values only ever reach SQL as
// parameters, and column names only ever come from those declarations.
//
//   scalar            field = value
//   array             field IN (values)          (empty array matches nothing)
//   "is_null"         field IS NULL              ("is_not_null" the reverse)
//   {op: value}       = != <> < <= > >=          ({"!=": [..]} is NOT IN, {"=": [..]} is IN)
//   {from, to}        date range real clients send; a date-only `to` includes that whole day
//
// Values arrive as JSON (POST bodies) or as strings (GET `filter[f]=v`), so scalars are coerced to
// the field's type and a value that cannot be is a 422 naming the key.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { AppError } from './errors.js';
import { isUuid } from './ids.js';
import { isStorableTimestamp } from './timestamps.js';

export type FieldType = 'string' | 'uuid' | 'integer' | 'number' | 'boolean' | 'datetime' | 'enum';

export type FilterContext = { path: string };

export type FilterField = {
  type: FieldType;
  /** SQL column (optionally qualified, `l.first_name`); defaults to the key. */
  column?: string;
  /** Accepted values of an `enum` field. */
  values?: readonly string[];
  /** The column is an array of `type`: a scalar means "contains", an array "has any of". */
  array?: boolean;
  /** Applied to string values before comparing (e.g. lower-casing e-mails). */
  normalize?: (value: string) => string;
  /** Compiles the whole value itself (free text, custom fields, tag sets...). */
  compile?: (value: unknown, context: FilterContext) => RawBuilder<SqlBool>;
  description?: string;
};

export type FilterSpec = {
  /** Used in messages: "contact filter". */
  name: string;
  fields: Record<string, FilterField>;
};

const OPERATORS = ['=', '!=', '<>', '<', '<=', '>', '>=', 'from', 'to'] as const;
type Operator = (typeof OPERATORS)[number];

const SQL_TYPES: Record<FieldType, string> = {
  string: 'text',
  enum: 'text',
  uuid: 'uuid',
  integer: 'bigint',
  number: 'numeric',
  boolean: 'boolean',
  datetime: 'timestamptz',
};

export function filterError(path: string, message: string): AppError {
  return new AppError('validation_error', message, { [path]: [message] });
}

/** Returns the conditions of `filter` joined with AND, or undefined when it has none. */
export function compileFilter(
  spec: FilterSpec,
  filter: unknown,
  path = 'filter',
): RawBuilder<SqlBool> | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    throw filterError(path, `${path} must be an object of field: value pairs`);
  }
  const conditions: RawBuilder<SqlBool>[] = [];
  for (const [key, value] of Object.entries(filter)) {
    const field = spec.fields[key];
    const keyPath = `${path}.${key}`;
    if (!field) {
      throw filterError(
        keyPath,
        `Unknown ${spec.name} key "${key}". Accepted keys: ${Object.keys(spec.fields).sort().join(', ')}`,
      );
    }
    if (value === undefined) continue;
    conditions.push(
      field.compile ? field.compile(value, { path: keyPath }) : compileField(field, value, keyPath),
    );
  }
  return and(conditions);
}

export function and(conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> | undefined {
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1) return conditions[0];
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/** Compiles one field's value against an arbitrary SQL expression (used by custom fields too). */
export function compileField(field: FilterField, value: unknown, path: string): RawBuilder<SqlBool> {
  const column = sql.ref(field.column ?? path.slice(path.lastIndexOf('.') + 1));
  return compileValue(field, column, value, path);
}

export function compileValue(
  field: FilterField,
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  value: unknown,
  path: string,
): RawBuilder<SqlBool> {
  if (value === null || value === 'is_null') {
    return field.array
      ? sql<SqlBool>`coalesce(cardinality(${column}), 0) = 0`
      : sql<SqlBool>`${column} is null`;
  }
  if (value === 'is_not_null') {
    return field.array ? sql<SqlBool>`cardinality(${column}) > 0` : sql<SqlBool>`${column} is not null`;
  }
  if (Array.isArray(value)) return compileComparison(field, column, '=', value, path);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) throw filterError(path, `${path} needs at least one operator`);
    return and(
      entries.map(([op, operand]) => {
        if (!(OPERATORS as readonly string[]).includes(op)) {
          throw filterError(
            `${path}.${op}`,
            `Unknown operator "${op}" in ${path}. Accepted operators: ${OPERATORS.join(', ')}`,
          );
        }
        return compileComparison(field, column, op as Operator, operand, `${path}.${op}`);
      }),
    ) as RawBuilder<SqlBool>;
  }
  return compileComparison(field, column, '=', value, path);
}

function compileComparison(
  field: FilterField,
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  op: Operator,
  operand: unknown,
  path: string,
): RawBuilder<SqlBool> {
  const sqlType = SQL_TYPES[field.type];
  const negate = op === '!=' || op === '<>';
  if (Array.isArray(operand)) {
    if (op !== '=' && !negate) throw filterError(path, `${path}: operator "${op}" does not take a list`);
    const values = operand.map((item, index) => coerceScalar(field, item, `${path}.${index}`));
    const list = sql`${values}::${sql.raw(sqlType)}[]`;
    if (field.array) {
      return negate
        ? sql<SqlBool>`not (coalesce(${column}, '{}') && ${list})`
        : sql<SqlBool>`${column} && ${list}`;
    }
    if (values.length === 0) return negate ? sql<SqlBool>`true` : sql<SqlBool>`false`;
    return negate
      ? sql<SqlBool>`(${column} is null or not (${column} = any(${list})))`
      : sql<SqlBool>`${column} = any(${list})`;
  }
  if (operand === null || operand === 'is_null' || operand === 'is_not_null') {
    const isNull = operand !== 'is_not_null';
    if (op !== '=' && !negate) throw filterError(path, `${path}: operator "${op}" cannot compare with null`);
    return compileValue(field, column, isNull !== negate ? 'is_null' : 'is_not_null', path);
  }
  const value = coerceScalar(field, operand, path);
  const typed = sql`${value}::${sql.raw(sqlType)}`;
  if (field.array) {
    if (op === '=') return sql<SqlBool>`${column} @> array[${typed}]`;
    if (negate) return sql<SqlBool>`not (coalesce(${column}, '{}') @> array[${typed}])`;
    throw filterError(path, `${path}: operator "${op}" does not apply to a list field`);
  }
  if ((field.type === 'boolean' || field.type === 'uuid') && !['=', '!=', '<>'].includes(op)) {
    throw filterError(path, `${path}: a ${field.type} field only takes =, != or a list`);
  }
  if (negate) return sql<SqlBool>`${column} is distinct from ${typed}`;
  if (field.type === 'datetime' && typeof value === 'string' && isDateOnly(value)) {
    // A bare date means the whole day: `to`/`<=` include it, `>` starts after it.
    const nextDay = sql`(${value}::date + 1)::timestamptz`;
    if (op === 'to' || op === '<=') return sql<SqlBool>`${column} < ${nextDay}`;
    if (op === '>') return sql<SqlBool>`${column} >= ${nextDay}`;
    if (op === '=') return sql<SqlBool>`(${column} >= ${typed} and ${column} < ${nextDay})`;
  }
  const sqlOp = op === 'from' ? '>=' : op === 'to' ? '<=' : op;
  return sql<SqlBool>`${column} ${sql.raw(sqlOp)} ${typed}`;
}

const lowerCase = (value: string) => value.trim().toLowerCase();

/**
 * A text field compared case-insensitively, on `lower(column)` (so `(team_id, lower(column))` indexes
 * serve it): equality, lists, operators and null checks as for any field.
 */
export function caseInsensitiveField(column: string, description: string): FilterField {
  const field: FilterField = { type: 'string', normalize: lowerCase, description };
  return {
    ...field,
    compile: (value, { path }) => compileValue(field, sql`lower(${sql.ref(column)})`, value, path),
  };
}

/** `column ILIKE %value%` for free-text filters (`q`); LIKE wildcards in the value match literally. */
export function textContains(
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  value: unknown,
  path: string,
) {
  if (typeof value !== 'string' && typeof value !== 'number')
    throw filterError(path, `${path} must be a string`);
  const pattern = `%${String(value)
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, '\\$&')}%`;
  return sql<SqlBool>`${column} ilike ${pattern}`;
}

function isDateOnly(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Coerces one scalar to the field's type, or throws a 422 that names the key and the expected type. */
export function coerceScalar(field: FilterField, value: unknown, path: string): string | number | boolean {
  const fail = (expected: string): never => {
    throw filterError(path, `${path} must be ${expected} (got ${JSON.stringify(value)})`);
  };
  if (value !== null && typeof value === 'object') fail('a single value');
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string' && typeof value !== 'number') return fail('a string');
      const text = String(value);
      return field.normalize ? field.normalize(text) : text;
    }
    case 'enum': {
      const text = String(value);
      if (!field.values?.includes(text)) return fail(`one of: ${field.values?.join(', ')}`);
      return text;
    }
    case 'uuid':
      return isUuid(value) ? value.toLowerCase() : fail('a UUID');
    case 'integer': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isSafeInteger(number) ? number : fail('an integer');
    }
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : fail('a number');
    }
    case 'boolean': {
      if (value === true || value === 'true' || value === 1 || value === '1') return true;
      if (value === false || value === 'false' || value === 0 || value === '0') return false;
      return fail('true or false');
    }
    case 'datetime': {
      if (
        typeof value !== 'string' ||
        !DATE_PATTERN.test(value) ||
        Number.isNaN(Date.parse(value)) ||
        !isStorableTimestamp(value)
      ) {
        return fail('an ISO 8601 date or date-time');
      }
      return value;
    }
  }
}
