// Request validation. Bodies are JSON and validated strictly (a string where a number belongs is a
// 422, not silently converted); query strings, path params and headers are text and get coerced.
// Ajv's errors are rewritten into sentences a person would write: "order_type must be one of asc, desc",
// "The colour field is not accepted here. Accepted fields: name, color." - never Ajv's own wording for
// unions ("must be equal to constant", "must match a schema in anyOf").

import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../lib/errors.js';
import { AJV_FORMATS } from './formats.js';
import { lazyValidator, type SchemaCompilation } from './schema-compilers.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    strict: false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    // Errors carry their schema, so messages can list accepted fields and union alternatives.
    verbose: true,
    ...options,
  });
  addFormats(ajv);
  for (const [name, format] of Object.entries(AJV_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

/** The request validators: bodies strict, text parts coerced; compiled at once or on first use. */
export function validatorCompilerFor(mode: SchemaCompilation): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    const compile = () => ajv.compile(schema as object);
    return (mode === 'eager' ? compile() : lazyValidator(compile)) as ReturnType<
      FastifySchemaCompiler<unknown>
    >;
  };
}

export const validatorCompiler = validatorCompilerFor('eager');

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

type Schema = Record<string, unknown>;

const FORMAT_NAMES: Record<string, string> = {
  uuid: 'a UUID',
  email: 'an e-mail address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  date: 'an ISO 8601 date (YYYY-MM-DD)',
  'date-time': 'an ISO 8601 date-time',
  time: 'a time of day',
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  'time-zone': 'an IANA time zone such as Europe/Berlin',
  website: 'a domain or website URL such as acme.com',
  'linkedin-profile':
    'a LinkedIn profile URL (https://www.linkedin.com/in/<nickname>), a public nickname or an ACoA… profile id',
  'linkedin-company':
    'a LinkedIn company page URL (https://www.linkedin.com/company/<slug>), a page slug or a numeric company id',
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  object: 'an object',
  array: 'a list',
};

function literal(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function orList(items: string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}

/** The literal values a schema allows, or undefined when it allows more than a small closed set. */
function literalsOf(schema: Schema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.type === 'null') return [null];
  if (schema.type === 'boolean') return [true, false];
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  if (schema.type === 'integer' && typeof minimum === 'number' && typeof maximum === 'number') {
    if (maximum - minimum <= 5) return Array.from({ length: maximum - minimum + 1 }, (_, i) => minimum + i);
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    const all = alternatives.map(literalsOf);
    return all.every(Boolean) ? all.flat() : undefined;
  }
  return undefined;
}

function literalList(values: unknown[]): string {
  if (values.length === 1) return literal(values[0]);
  if (values.length === 2 && values[0] === true && values[1] === false) return 'true or false';
  return `one of ${values.map(literal).join(', ')}`;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Whether `value` has a type the schema accepts (ignoring everything but type, const and enum). */
function typeMatches(schema: Schema, value: unknown): boolean {
  if ('const' in schema) return schema.const === value;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.some((alternative) => typeMatches(alternative, value));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : undefined;
  if (!types) return true;
  const actual = jsonType(value);
  return types.some(
    (type) =>
      type === actual ||
      (type === 'integer' && Number.isInteger(value)) ||
      (type === 'number' && actual === 'number'),
  );
}

/** What a schema accepts, in words: "a string", "a UUID", "one of asc, desc", "a whole number or null". */
function kindOf(schema: Schema): string {
  const literals = literalsOf(schema);
  if (literals) return literalList(literals);
  if (typeof schema.format === 'string' && FORMAT_NAMES[schema.format]) {
    return FORMAT_NAMES[schema.format] as string;
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 0) return orList(types.map((type) => TYPE_NAMES[String(type)] ?? String(type)));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) return orList(alternatives.map(kindOf));
  return 'a valid value';
}

/** "must be ..." for a union whose every alternative failed on type. */
function unionMessage(alternatives: Schema[]): string {
  const literals = alternatives.map(literalsOf);
  if (literals.every(Boolean)) return `must be ${literalList(literals.flat())}`;
  const kinds = flatten(alternatives).map((alternative) =>
    alternative.type === 'boolean' ? 'a boolean' : kindOf(alternative),
  );
  return `must be ${orList(kinds)}`;
}

/** Nested unions read as one list: string | (number | boolean) | null -> string, number, boolean, null. */
function flatten(alternatives: Schema[]): Schema[] {
  return alternatives.flatMap((alternative) => {
    const nested = (alternative.anyOf ?? alternative.oneOf) as Schema[] | undefined;
    return Array.isArray(nested) && !alternative.type && !literalsOf(alternative)
      ? flatten(nested)
      : [alternative];
  });
}

function fieldPath(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') segments.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(params.additionalProperty));
  return segments.join('.');
}

function acceptedFields(error: ErrorObject): string {
  const properties = Object.keys(((error.parentSchema as Schema | undefined)?.properties as object) ?? {});
  return properties.length > 0
    ? ` Accepted fields: ${properties.join(', ')}.`
    : ' This object takes no fields.';
}

function describe(error: ErrorObject, field: string): string {
  const params = error.params as Record<string, unknown>;
  const name = field || 'value';
  const schema = (error.parentSchema ?? {}) as Schema;
  switch (error.keyword) {
    case 'required':
      return `The ${name} field is required.`;
    case 'additionalProperties':
      return `The ${name} field is not accepted here.${acceptedFields(error)}`;
    case 'enum':
    case 'const':
      return `${name} ${unionMessage([schema])}.`;
    case 'format':
      return `${name} must be ${FORMAT_NAMES[String(params.format)] ?? `a valid ${String(params.format)}`}.`;
    case 'type':
      return `${name} must be ${kindOf({ type: params.type })}.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${name} must be ${params.comparison === '>' ? 'greater than' : 'at least'} ${String(params.limit)}.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${name} must be ${params.comparison === '<' ? 'less than' : 'at most'} ${String(params.limit)}.`;
    case 'minLength':
      return params.limit === 1
        ? `${name} must not be empty.`
        : `${name} must be at least ${String(params.limit)} characters long.`;
    case 'maxLength':
      return `${name} must be at most ${String(params.limit)} characters long.`;
    case 'minItems':
      return params.limit === 1
        ? `${name} must not be empty.`
        : `${name} must have at least ${String(params.limit)} items.`;
    case 'maxItems':
      return `${name} must have at most ${String(params.limit)} items.`;
    case 'not':
      // A "not" rule says in x-message what it forbids ("not both" rules).
      return typeof schema['x-message'] === 'string'
        ? `${name} ${schema['x-message']}.`
        : `${name} is not accepted in this combination.`;
    case 'minProperties':
      return `${name} needs at least ${String(params.limit)} of: ${Object.keys((schema.properties as object) ?? {}).join(', ')}.`;
    case 'pattern': {
      const about = schema.description ?? unionDescriptions.get(error);
      return `${name} must match the pattern ${String(params.pattern)}${about ? ` (${String(about)})` : ''}.`;
    }
    case 'uniqueItems':
      return `${name} must not contain the same item twice.`;
    case 'oneOf':
      return `${name} matches more than one of its alternatives; give only one.`;
    default:
      return `${name} ${error.message ?? 'is invalid'}.`;
  }
}

const UNION = new Set(['anyOf', 'oneOf']);

/** Descriptions of unions, lent to the errors of the one alternative that explains their failure. */
const unionDescriptions = new WeakMap<ErrorObject, string>();

/** Discriminated unions (`discriminator.propertyName`) whose tag value matched no alternative. */
const tagErrors = new WeakMap<ErrorObject, { field: string; values: unknown[] }>();

function tagValue(alternative: Schema, tag: string): unknown {
  return (alternative.properties as Record<string, Schema> | undefined)?.[tag]?.const;
}

function discriminatorMatches(alternative: Schema, tag: string, data: unknown): boolean {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  return tagValue(alternative, tag) === (data as Record<string, unknown>)[tag];
}

/**
 * Ajv reports a failed union as one error per alternative plus a summary. When the value has the type of
 * exactly one alternative (an object given for `object | null`), that alternative's errors say what is
 * wrong; otherwise one sentence lists what the union accepts.
 */
function explain(errors: ErrorObject[]): Array<{ error: ErrorObject; message?: string; field?: string }> {
  const consumed = new Set<ErrorObject>();
  const summaries = new Map<ErrorObject, string>();
  const unions = errors
    .filter((e) => UNION.has(e.keyword))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const union of unions) {
    if (consumed.has(union)) continue;
    const prefix = `${union.schemaPath}/`;
    const inner = errors.filter((e) => e !== union && e.schemaPath.startsWith(prefix));
    if (inner.length === 0) continue; // oneOf matched twice: described as such
    consumed.add(union);
    const alternatives = (Array.isArray(union.schema) ? union.schema : []) as Schema[];
    const branchOf = (e: ErrorObject) => e.schemaPath.slice(prefix.length).split('/')[0];
    const parent = (union.parentSchema ?? {}) as Schema;
    const tag = (parent.discriminator as { propertyName?: string } | undefined)?.propertyName;
    const data = union.data as Record<string, unknown> | undefined;
    const close = alternatives
      .map((alternative, index) =>
        (tag ? discriminatorMatches(alternative, tag, data) : typeMatches(alternative, union.data))
          ? String(index)
          : undefined,
      )
      .filter((index) => index !== undefined);
    if (tag && close.length === 0 && data && typeof data === 'object') {
      // No alternative has this tag: the tag is what is wrong.
      for (const e of inner) consumed.add(e);
      tagErrors.set(union, { field: tag, values: alternatives.map((a) => tagValue(a, tag)) });
    } else if (typeof parent['x-message'] === 'string' && close.length !== 1) {
      for (const e of inner) consumed.add(e);
      summaries.set(union, parent['x-message']);
    } else if (close.length === 1) {
      const description = (union.parentSchema as Schema | undefined)?.description;
      for (const e of inner) {
        if (branchOf(e) !== close[0]) consumed.add(e);
        else if (typeof description === 'string') unionDescriptions.set(e, description);
      }
    } else {
      for (const e of inner) consumed.add(e);
      summaries.set(union, unionMessage(alternatives));
    }
  }
  const out: Array<{ error: ErrorObject; message?: string; field?: string }> = [];
  // "Needs at least one of" summaries (x-message) come last: a wrong value explains more.
  const late: typeof out = [];
  for (const error of errors) {
    const tagError = tagErrors.get(error);
    if (tagError) {
      const prefix = fieldPath(error);
      const values = tagError.values.filter((value) => value !== undefined);
      out.push({
        error,
        field: prefix ? `${prefix}.${tagError.field}` : tagError.field,
        message: `must be ${literalList(values)}`,
      });
      continue;
    }
    const summary = summaries.get(error);
    const parent = (error.parentSchema ?? {}) as Schema;
    if (summary && typeof parent['x-message'] === 'string') {
      // A rule about several fields (x-fields) is reported under each of them.
      const fields = Array.isArray(parent['x-fields']) ? (parent['x-fields'] as string[]) : [];
      const prefix = fieldPath(error);
      if (fields.length === 0) late.push({ error, message: summary });
      for (const name of fields) {
        late.push({ error, message: summary, field: prefix ? `${prefix}.${name}` : name });
      }
    } else if (summary) out.push({ error, message: summary });
    // An if/then rule is explained by the errors of its `then`.
    else if (error.keyword === 'if') continue;
    else if (!consumed.has(error) && !UNION.has(error.keyword)) out.push({ error });
    else if (error.keyword === 'oneOf' && !consumed.has(error)) out.push({ error });
  }
  return [...out, ...late];
}

/** Turns Ajv errors into our 422 body: a readable message and field path → messages. */
export function validationFailure(errors: ErrorObject[], part: string | undefined): AppError {
  const data: Record<string, string[]> = {};
  const partName = PART_NAMES[part ?? 'body'] ?? 'body';
  for (const { error, message: summary, field: tagField } of explain(errors)) {
    const field = tagField ?? fieldPath(error);
    // A summary that starts with a colon reads as "field: ..." ("leads.1: a contact needs ...").
    const message = summary
      ? `${field || partName}${summary.startsWith(':') ? '' : ' '}${summary}.`
      : describe(error, field || partName);
    const key = field || partName;
    const messages = data[key] ?? [];
    if (!messages.includes(message)) messages.push(message);
    data[key] = messages;
  }
  const first = Object.values(data)[0]?.[0] ?? 'The request is invalid.';
  const where = part && part !== 'body' ? ` (in the ${partName})` : '';
  return new AppError('validation_error', where ? `${first.replace(/\.$/, '')}${where}.` : first, data);
}

/**
 * Compiles `schema` with the body validator's settings, for parts of a body whose shape depends on a
 * sibling (a flow node's payload by its type) and is therefore checked after the route schema.
 */
export function compileBodyValidator(schema: object) {
  return bodyAjv.compile(schema);
}
