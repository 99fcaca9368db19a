// Schema pieces every module uses: identifiers, the error body, the list envelope and list parameters.
import {
  type Static,
  type TNumberOptions,
  type TProperties,
  type TSchema,
  type TStringOptions,
  Type,
} from 'typebox';
import { type ErrorReason, errorReasons } from '../lib/errors.js';
import { INT32_MAX, MAX_ID, MAX_LIMIT, MAX_OFFSET, type SortSpec } from '../lib/pagination.js';
import { STORABLE_DATE_PATTERN, STORABLE_DATE_TIME_PATTERN } from '../lib/timestamps.js';

export { INT32_MAX, MAX_ID };

/** An integer stored in an `integer` column: bounded so a larger one is a 422, never a database error. */
export const Int32 = (options: TNumberOptions = {}) =>
  Type.Integer({ minimum: -INT32_MAX - 1, maximum: INT32_MAX, ...options });

/** A numeric record id (users, teams, API keys: `bigint` columns), within what JSON numbers hold exactly. */
export const Id = (options: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The e-mail rule of lib/normalize.ts (something@host.tld, no spaces; surrounding blanks are trimmed and a
 * blank value means none), as a pattern, so the document states exactly what is refused.
 */
export const EMAIL_PATTERN = '^\\s*(?:[^\\s@]+@[^\\s@]+\\.[^\\s@]+)?\\s*$';

/** An e-mail address as the service reads it (see EMAIL_PATTERN). */
export const EmailText = (options: TStringOptions = {}) =>
  Type.String({ maxLength: 320, pattern: EMAIL_PATTERN, ...options });

/**
 * Holds a LinkedIn profile id "ACoA…" (alone or in a profile URL or URN), or is blank (none). The service
 * parses the whole reference (lib/linkedin.ts); this states the part a client must get right.
 */
export const LN_ID_PATTERN = '^\\s*$|ACoA[A-Za-z0-9_-]{4,}';
/** The same for a Sales Navigator id "ACwA…". */
export const SN_ID_PATTERN = '^\\s*$|ACwA[A-Za-z0-9_-]{4,}';

/** An IANA time zone name, checked like the service does (http/formats.ts). */
export const TimeZone = (options: TStringOptions = {}) =>
  Type.String({ maxLength: 64, format: 'time-zone', ...options });

/** A domain or website URL the domain normaliser can read (http/formats.ts). */
export const Website = (options: TStringOptions = {}) =>
  Type.String({ maxLength: 2048, format: 'website', ...options });

/** An ISO 8601 date (YYYY-MM-DD, a whole day) or date-time. */
export const DateOrDateTime = (description?: string) =>
  Type.Union(
    [
      Type.String({ format: 'date', pattern: STORABLE_DATE_PATTERN }),
      Type.String({ format: 'date-time', pattern: STORABLE_DATE_TIME_PATTERN }),
    ],
    {
      ...(description ? { description } : {}),
    },
  );

/** ISO 8601 timestamp on the wire; handlers may return a Date (the serializer formats it). */
export const DateTime = (description?: string) =>
  Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    pattern: STORABLE_DATE_TIME_PATTERN,
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
  `Filter object (spec 2.1). Keys: ${fields.join(', ')}. Each key takes a value, a list (any of), null or ` +
  '"is_null" / "is_not_null", or operators {"=", "!=", "<", "<=", ">", ">=", "from", "to"} (AND). GET form ' +
  '(deepObject): filter[field]=v, filter[field][]=a&filter[field][]=b, filter[field][>=]=v; a JSON string ' +
  '(filter={"field":"v"}) is accepted too, and a flat ?field=v filters like filter[field]=v.';

/** Query string of a GET list: paging, sorting and the filter in bracket form. */
export const ListQuery = (sort: SortSpec, filterFields: string[] = [], extra: Record<string, TSchema> = {}) =>
  Type.Object({
    ...pageFields(sort),
    ...(filterFields.length > 0
      ? {
          filter: Type.Optional(
            Type.Record(Type.String(), Type.Unknown(), { description: filterDescription(filterFields) }),
          ),
        }
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

/**
 * An answer of a public page that is not JSON: an HTML page (`text/html`) or an image (`image/gif`), so
 * the document states the media type a browser or mail client gets.
 */
export const PageAnswer = (description: string, media: 'text/html' | 'image/gif' = 'text/html') =>
  Type.Unsafe<string | Buffer>({
    description,
    content: {
      [media]: { schema: { type: 'string', ...(media === 'text/html' ? {} : { format: 'binary' }) } },
    },
  });

/** Selection keys every "which records" object understands besides the resource's filter keys. */
const SELECTION_KEYS = ['ids', 'all', 'excludeIds', 'exclude_ids'];

/**
 * Which records a count, export or mass action is about (leads/leads.selection.ts and
 * files/export-selection.ts read it): `ids`, `all`, `excludeIds` and the resource's filter keys, combined
 * with AND. At least one of ids, all: true or a filter key is required (the anyOf), so an empty object
 * never acts on the whole team by accident. `extraKeys` are further selection keys that narrow on their
 * own (contacts: `leadFilter`).
 */
/**
 * The alternatives of a selection object that says which records: ids, all: true, one of `extraKeys`,
 * or a key that is none of the selection keys (a filter key).
 */
export function narrowingAlternatives(extraKeys: string[] = []) {
  return [
    { required: ['ids'], properties: { ids: { type: 'array', description: 'ids given' } } },
    { required: ['all'], properties: { all: { const: true, description: 'all: true' } } },
    ...extraKeys.map((key) => ({
      required: [key],
      properties: { [key]: { not: { type: 'null' }, description: `${key} given` } },
    })),
    { not: { propertyNames: { enum: [...SELECTION_KEYS, ...extraKeys] } } },
  ];
}

export function Selection(what: string, filterKeys: readonly string[], extraKeys: string[] = []) {
  const uuids = (description: string) =>
    Type.Optional(Nullable(Type.Array(Uuid(), { maxItems: 100_000, description })));
  const narrowing = narrowingAlternatives(extraKeys);
  return Type.Unsafe<Record<string, unknown>>({
    ...Type.Object(
      {
        ids: uuids(`These ${what} (ignored with all: true)`),
        all: Type.Optional(
          Type.Boolean({ description: `true: every ${what.replace(/s$/, '')} of the team` }),
        ),
        excludeIds: uuids(`${what} to leave out`),
        exclude_ids: uuids('Alias of excludeIds'),
        ...Object.fromEntries(
          extraKeys.map((key) => [
            key,
            Type.Optional(
              Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'A filter object' })),
            ),
          ]),
        ),
      },
      {
        additionalProperties: Type.Unknown({ description: 'A filter key and its value' }),
        description:
          `Which ${what}: {"ids": [...]}, {"all": true} (optionally with "excludeIds": [...]) and/or filter keys ` +
          `(${filterKeys.join(', ')}), combined with AND. At least one of ids, all: true or a filter key is required.`,
      },
    ),
    anyOf: narrowing,
    'x-message': `needs ids, all: true or a filter key (${filterKeys.slice(0, 3).join(', ')}, ...) to say which ${what}`,
  });
}

/**
 * A body whose `type` decides the shape of the rest (a mass action and its payload): one closed object
 * per type, as `oneOf` with an OpenAPI discriminator, so generated clients and validators see each type's
 * own payload. A wrong `type` is answered with the list of types; a wrong payload with that type's errors.
 */
export function TypedBody<T extends Record<string, unknown>>(
  variants: Record<string, TProperties>,
  options: { description?: string } = {},
) {
  const branches = Object.entries(variants).map(([type, properties]) =>
    Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false, title: type }),
  );
  return Type.Unsafe<T>({
    oneOf: branches,
    discriminator: { propertyName: 'type' },
    ...(options.description ? { description: options.description } : {}),
  });
}

/** A value the service counts as given: not null and, for text, not blank. */
const GIVEN = { not: { type: 'null' }, pattern: '\\S', description: 'Given: not null, not blank' };
const given = (keys: string[], counts: Record<string, object> = {}) => ({
  required: keys,
  properties: Object.fromEntries(keys.map((key) => [key, { ...GIVEN, ...counts[key] }])),
});

/**
 * Options of an object that needs at least one of some fields (or groups of fields given together):
 * `Type.Object(properties, { additionalProperties: false, ...atLeastOne([['email'], ['name', 'company_name']]) })`.
 * A blank or null value does not count, as in the services.
 */
export function atLeastOne(
  alternatives: string[][],
  message?: string,
  /** What a field's value must be to count, beyond given (a website counts when it names a domain). */
  counts: Record<string, object> = {},
) {
  const words = alternatives.map((group) => group.join(' with '));
  const list = `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
  return {
    anyOf: alternatives.map((keys) => given(keys, counts)),
    'x-message': `needs ${message ?? `at least one of ${list}`}`,
  };
}

/**
 * Options of an object that needs at least one of `keys` present, whatever its value (null counts, as
 * in services that check `=== undefined`): `Type.Object(properties, { ...anyPresent(['name', 'color']) })`.
 */
export function anyPresent(
  keys: string[],
  message = `needs at least one of ${keys.join(', ')}`,
  /** The field the error is reported under (default the first key). */
  field = keys[0] as string,
) {
  return { anyOf: keys.map((key) => ({ required: [key] })), 'x-message': message, 'x-fields': [field] };
}

/** Options of an object whose fields `a` and `b` are given together or not at all. */
export function together(a: string, b: string) {
  const none = {
    anyOf: [{ type: 'null' }, { type: 'string', pattern: '^\\s*$' }],
    description: 'Not given: absent, null or blank',
  };
  return {
    allOf: [
      {
        anyOf: [given([a, b]), { properties: { [a]: none, [b]: none } }],
        'x-message': `needs ${a} and ${b} together (or neither)`,
        'x-fields': [a, b],
      },
    ],
  };
}
