// The kinds of contact fields: each builder gives a field's defaults everywhere it goes (response and
// request schema, filter, import, webhook, export), so a catalog line names only what differs.
import { Type } from 'typebox';
import { INT32_MAX, Nullable } from '../../http/schemas.js';
import type { FieldSpec } from '../../lib/field-catalog.js';

// Nullable values are written as JSON type lists rather than anyOf unions: the serializer then
// checks a type instead of trying schema branches, which matters at 1000 contacts per response.
export const str = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], description });
export const int = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description });
export const uuidOrNull = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid', description });
export const dateOrNull = (description: string) =>
  Type.Unsafe<Date | string | null>({ type: ['string', 'null'], format: 'date-time', description });
export const arrayOrNull = <T>(items: object, description: string) =>
  Type.Unsafe<T[] | null>({ type: ['array', 'null'], items, description });
export const enumOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description: `${description}: ${values.join(', ')}` });
export const enumOrNull = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T | null>({
    type: ['string', 'null'],
    enum: [...values, null],
    description: `${description}: ${values.join(', ')} or null`,
  });

export const LooseObject = Type.Record(Type.String(), Type.Unknown());
type Loose = Record<string, unknown>;

/** Optional nullable text of a request body. */
export const textInput = (description: string, maxLength = 2000) =>
  Type.Optional(Nullable(Type.String({ maxLength, description })));

type Extra = Partial<FieldSpec> & {
  /** Description in request bodies when it differs from the record's. */
  in?: string;
  /** Other names a CSV import mapping accepts for the field. */
  aliases?: readonly string[];
};

function withExtra(base: FieldSpec, { in: _in, aliases, ...rest }: Extra): FieldSpec {
  const field = { ...base, ...rest };
  if (aliases && field.import) field.import = { ...field.import, aliases };
  return field;
}

/** A plain text column clients write: the common case. */
export const text = (description: string, extra: Extra & { maxLength?: number } = {}): FieldSpec => {
  const { maxLength, ...rest } = extra;
  return withExtra(
    {
      owner: 'client',
      sql: 'text',
      schema: str(description),
      input: textInput(extra.in ?? description, maxLength),
      read: 'text',
      filter: { type: 'string' },
      import: { kind: 'text' },
    },
    rest,
  );
};

/** A non-negative int4 count clients write. */
export const count = (description: string, extra: Extra = {}): FieldSpec =>
  withExtra(
    {
      owner: 'client',
      sql: 'integer',
      schema: int(description),
      input: Type.Optional(
        Nullable(Type.Integer({ minimum: 0, maximum: INT32_MAX, description: extra.in ?? description })),
      ),
      read: 'value',
      filter: { type: 'integer' },
      import: { kind: 'integer' },
    },
    extra,
  );

/** A 0/1 flag (true/false accepted on input). */
export const flag = (description: string, extra: Extra = {}): FieldSpec =>
  withExtra(
    {
      owner: 'client',
      sql: 'smallint',
      schema: int(description),
      input: Type.Optional(
        Nullable(
          Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Boolean()], {
            description: extra.in ?? description,
          }),
        ),
      ),
      read: 'flag',
      filter: { type: 'integer' },
      import: { kind: 'flag' },
    },
    extra,
  );

/** A list of short texts (a text[] column). */
export const texts = (
  description: string,
  limits: { maxLength: number; maxItems: number },
  extra: Extra = {},
): FieldSpec =>
  withExtra(
    {
      owner: 'client',
      sql: 'text[]',
      schema: arrayOrNull<string>({ type: 'string' }, description),
      input: Type.Optional(
        Nullable(
          Type.Array(Type.String({ maxLength: limits.maxLength }), {
            maxItems: limits.maxItems,
            description: extra.in ?? description,
          }),
        ),
      ),
      read: 'list',
      filter: { type: 'string', array: true },
      import: { kind: 'list' },
    },
    extra,
  );

/** A list of objects as LinkedIn shows them (a jsonb column); neither filtered nor imported. */
export const objects = (description: string, maxItems: number, extra: Extra = {}): FieldSpec =>
  withExtra(
    {
      owner: 'client',
      sql: 'jsonb',
      schema: arrayOrNull<Loose>(LooseObject, description),
      input: Type.Optional(Nullable(Type.Array(LooseObject, { maxItems, description }))),
      read: 'value',
    },
    extra,
  );

/** A uuid column only the server writes (filterable; in payloads unless the entry says otherwise). */
export const uuid = (description: string) => ({
  owner: 'server' as const,
  sql: 'uuid' as const,
  filter: { type: 'uuid' as const },
  schema: uuidOrNull(description),
});

export function notInPayloads() {
  return { webhook: false, export: false };
}

/** LinkedIn profile data that only the record itself shows. */
export function fromProfileOnly() {
  return { ...notInPayloads(), profile: true };
}
