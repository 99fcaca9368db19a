// A record's field catalog: one entry per field of a record type (a stored column, a field computed from
// columns, or an input-only alias), saying everywhere the field goes - response and request schemas,
// filter, CSV export and import, webhook payloads, template variables. The consumers derive their lists
// from it, so a plain new column is a migration, the table type and one catalog line.
import { type RawBuilder, sql } from 'kysely';
import type { TSchema } from 'typebox';
import type { FilterField } from './filter.js';

/** PostgreSQL type of a stored column (the column list of jsonb_to_recordset, casts). */
export type SqlType =
  | 'text'
  | 'bigint'
  | 'integer'
  | 'smallint'
  | 'numeric'
  | 'boolean'
  | 'uuid'
  | 'text[]'
  | 'uuid[]'
  | 'jsonb'
  | 'timestamptz';

/** How a CSV cell is read: text as is, or converted (and rejected per row when it cannot be). */
export type ValueKind = 'text' | 'integer' | 'number' | 'flag' | 'list' | 'enum' | 'tags' | 'custom';

/** How the input normaliser reads a client value: trimmed text, 0/1 flag, trimmed list, or as given. */
export type ReadKind = 'text' | 'flag' | 'list' | 'value' | 'special';

export type CatalogField = {
  key: string;
  /**
   * client: a stored column clients write (create, upsert, update, import); server: a stored column only
   * the server writes; computed: in the record, built from columns; input: accepted on input only.
   */
  owner: 'client' | 'server' | 'computed' | 'input';
  /** Type of the stored column (client and server fields). */
  sql?: SqlType;
  /** Schema in the record as the API answers it; absent: not in the record. */
  schema?: TSchema;
  /** Schema in create/upsert/update bodies; absent: clients cannot send it. */
  input?: TSchema;
  /** How the input normaliser reads the value (client fields). */
  read?: ReadKind;
  /** Filter field; a field without `column` or `compile` filters its own column. Absent: not filterable. */
  filter?: FilterField;
  /** SQL of a computed field over the record's alias (webhook payloads and exports). */
  expression?: RawBuilder<unknown>;
  /** In webhook payload objects. */
  webhook: boolean;
  /** A column of CSV exports. */
  export: boolean;
  /** A target of CSV import mappings; aliases are other target names for it. */
  import?: { kind: ValueKind; values?: readonly string[]; aliases?: readonly string[] };
  /** A message template variable: [description, example]. */
  template?: readonly [string, string];
  /** Value of sample webhook payloads (default null). */
  sample?: unknown;
  /** A deduplication key, in the order of the keys. */
  identifier?: boolean;
  /** Filled from the LinkedIn profile by enrichment (when empty). */
  profile?: boolean;
};

export type FieldSpec = Omit<CatalogField, 'key' | 'webhook' | 'export'> &
  Partial<Pick<CatalogField, 'webhook' | 'export'>>;

/** The catalog of a record type over a SQL alias: keys become entries, filters get their columns. */
export function defineCatalog(alias: string, specs: Record<string, FieldSpec>): CatalogField[] {
  return Object.entries(specs).map(([key, spec]) => ({
    key,
    ...spec,
    webhook: spec.webhook ?? spec.schema !== undefined,
    export: spec.export ?? spec.schema !== undefined,
    ...(spec.filter && !spec.filter.column && !spec.filter.compile
      ? { filter: { ...spec.filter, column: `${alias}.${key}` } }
      : {}),
  }));
}

/** Stored columns of a catalog (client and server fields). */
export const storedFields = (catalog: readonly CatalogField[]) =>
  catalog.filter((field) => field.owner === 'client' || field.owner === 'server');

/** Where fields not named by a wire order go in it. */
export const NEW_FIELDS = '*';

/**
 * Items in a frozen wire order (the key order clients already see in a payload, header or list): the
 * named keys in that order, and keys the order does not name - fields added since - in their given
 * order at the `*` mark. A named key without an item is a mistake in the order and throws at load.
 */
export function inWireOrder<T>(
  order: string,
  items: ReadonlyArray<readonly [string, T]>,
): Array<[string, T]> {
  const names = order.split(/\s+/).filter(Boolean);
  const byKey = new Map(items);
  const unnamed = items.filter(([key]) => !names.includes(key));
  const result: Array<[string, T]> = [];
  for (const name of names) {
    if (name === NEW_FIELDS) {
      result.push(...unnamed.map(([key, item]): [string, T] => [key, item]));
      continue;
    }
    if (!byKey.has(name)) throw new Error(`Wire order names "${name}", which is not a field here`);
    result.push([name, byKey.get(name) as T]);
  }
  if (!names.includes(NEW_FIELDS) && unnamed.length > 0) throw new Error('Wire order without a * mark');
  return result;
}

/** Timestamps as JavaScript's toISOString() writes them, so every date in a payload or file looks alike. */
export const isoText = (column: string) =>
  sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A field's value in a webhook payload (json via row_to_json): the column, or its SQL when computed. */
export function payloadExpression(field: CatalogField, alias: string): RawBuilder<unknown> {
  if (field.expression) return field.expression;
  const column = `${alias}.${field.key}`;
  return field.sql === 'timestamptz' ? isoText(column) : sql.ref(column);
}

/** A field's value in a CSV export: text (lists joined by ", ", dates in ISO 8601). */
export function exportExpression(field: CatalogField, alias: string): RawBuilder<unknown> {
  if (field.expression) return field.expression;
  const column = `${alias}.${field.key}`;
  switch (field.sql) {
    case 'text':
      return sql.ref(column);
    case 'timestamptz':
      return isoText(column);
    case 'text[]':
      return sql`array_to_string(${sql.ref(column)}, ', ')`;
    default:
      return sql`${sql.ref(column)}::text`;
  }
}
