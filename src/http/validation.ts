// Request validation. Bodies are JSON and validated strictly (a string where a number belongs is a
// 422, not silently converted); query strings, path params and headers are text and get coerced.

import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../lib/errors.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    strict: false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

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

function describe(error: ErrorObject, field: string): string {
  const params = error.params as Record<string, unknown>;
  const name = field || 'value';
  switch (error.keyword) {
    case 'required':
      return `The ${name} field is required.`;
    case 'additionalProperties':
      return `The ${name} field is not accepted here.`;
    case 'enum':
      return `${name} must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`;
    case 'format':
      return `${name} must be a valid ${String(params.format)}.`;
    case 'type':
      return `${name} must be of type ${String(params.type)}.`;
    default:
      return `${name} ${error.message ?? 'is invalid'}.`;
  }
}

/** Turns Ajv errors into our 422 body: a readable message and field path → messages. */
export function validationFailure(errors: ErrorObject[], part: string | undefined): AppError {
  const data: Record<string, string[]> = {};
  // anyOf/oneOf wrap their branch failures; report the branch errors, not the summary twice.
  const relevant = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  for (const error of relevant.length > 0 ? relevant : errors) {
    const field = fieldPath(error);
    const message = describe(error, field);
    const key = field || PART_NAMES[part ?? 'body'] || 'body';
    const messages = data[key] ?? [];
    if (!messages.includes(message)) messages.push(message);
    data[key] = messages;
  }
  const first = Object.values(data)[0]?.[0] ?? 'The request is invalid.';
  const where = part && part !== 'body' ? ` (in the ${PART_NAMES[part] ?? part})` : '';
  return new AppError('validation_error', `${first}${where}`, data);
}
