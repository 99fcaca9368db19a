// Schema pieces every module uses: identifiers, the error body, the list envelope and list parameters.
import { type Static, type TNumberOptions, type TSchema, Type } from 'typebox';
import { type ErrorReason, errorReasons } from '../lib/errors.js';
import { INT32_MAX, MAX_ID, MAX_LIMIT, MAX_OFFSET, type SortSpec } from '../lib/pagination.js';

export { INT32_MAX, MAX_ID };

/** An integer stored in an `integer` column: bounded so a larger one is a 422, never a database error. */
export const Int32 = (options: TNumberOptions = {}) =>
  Type.Integer({ minimum: -INT32_MAX - 1, maximum: INT32_MAX, ...options });

/** A numeric record id (users, teams, API keys: `bigint` columns), within what JSON numbers hold exactly. */
export const Id = (options: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** ISO 8601 timestamp on the wire; handlers may return a Date (the serializer formats it). */
export const DateTime = (description?: string) =>
  Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    ...(description ? { description } : {}),
  });

export const UuidParams = Type.Object({ uuid: Uuid('UUID of the record') });

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      reason: Type.Enum(Object.keys(errorReasons) as ErrorReason[], {
        description: 'Why the request failed; one reason per HTTP status',
      }),
      message: Type.String(),
      data: Type.Record(Type.String(), Type.Unknown(), {
        description: 'For validation errors: field path → list of messages',
      }),
    }),
    message: Type.String(),
    code: Type.Integer({ description: 'HTTP status code' }),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

export const Envelope = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item, { description: 'The records of this page' }),
    limit: Type.Integer({ description: `Page size used (default 20, at most ${MAX_LIMIT})` }),
    offset: Type.Integer({ description: 'Records skipped before this page' }),
    total: Type.Integer({ description: 'Records matching the filter' }),
    has_more: Type.Boolean({ description: 'Whether records follow this page' }),
  });

/** Paging and sorting parameters of a list; order_field is the list's own sort fields (SortSpec). */
const pageFields = (sort: SortSpec) => ({
  limit: Type.Optional(
    Int32({
      minimum: 1,
      default: 20,
      description: `Page size; values above ${MAX_LIMIT} are clamped to ${MAX_LIMIT}`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Records to skip' }),
  ),
  order_field: Type.Optional(
    Type.Enum(Object.keys(sort.fields), {
      description: `Field to sort by (default ${sort.default ?? 'created_at'})`,
    }),
  ),
  order_type: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc'), Type.Literal(0), Type.Literal(1)], {
      description:
        'Sort direction (default desc unless the list says otherwise); 0/1 are accepted as asc/desc',
    }),
  ),
});

const filterDescription = (fields: string[]) =>
  `Filter object (spec 2.1). Keys: ${fields.join(', ')}. GET form: filter[field]=v, filter[field][]=a, ` +
  'filter[field][>=]=v; a JSON string is accepted too, and a flat ?field=v filters like filter[field]=v.';

/** Query string of a GET list: paging, sorting and the filter in bracket form. */
export const ListQuery = (sort: SortSpec, filterFields: string[] = [], extra: Record<string, TSchema> = {}) =>
  Type.Object({
    ...pageFields(sort),
    ...(filterFields.length > 0
      ? { filter: Type.Optional(Type.Unknown({ description: filterDescription(filterFields) })) }
      : {}),
    ...extra,
  });

/** Body of a POST search/list: the same parameters as JSON. */
export const SearchBody = (
  sort: SortSpec,
  filterFields: string[] = [],
  extra: Record<string, TSchema> = {},
) =>
  Type.Object(
    {
      ...pageFields(sort),
      filter: Type.Optional(
        Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
          description: filterDescription(filterFields),
        }),
      ),
      disable_aggregation: Type.Optional(
        Type.Boolean({ description: 'Accepted for compatibility; has no effect' }),
      ),
      ...extra,
    },
    {
      additionalProperties: false,
      examples: [{ limit: 20, offset: 0, order_field: Object.keys(sort.fields)[0], order_type: 'desc' }],
    },
  );

/**
 * Sets the example the OpenAPI document shows for a request body (typed, so it matches the schema).
 * Every body needs one: src/http/schema-rules.ts refuses a route whose body has none.
 */
export function withExample<T extends TSchema>(schema: T, example: Static<T>): T {
  (schema as { examples?: unknown[] }).examples = [example];
  return schema;
}

export const NoContent = Type.Null({ description: 'No content' });
