// Rules every route's request schemas obey, checked when the route is registered rather than left to each
// module's habits: a route that breaks one stops the app from starting (and so fails every test), which
// is how modules added later are held to them too.
//  - Closed bodies: every object a body schema describes says `additionalProperties: false`, or is a
//    declared open map (a `Type.Record`, i.e. `patternProperties`, or an `additionalProperties` schema).
//    Routes without a body schema take no body: a non-empty one is refused like an unknown field.
//  - Documented bodies: every body schema carries an example (`withExample` in http/schemas.ts), which
//    the OpenAPI document shows and test/platform/openapi.test.ts validates against the schema.
//  - Bounded integers: every integer of a body, query, path or header schema declares `minimum` and
//    `maximum`, so a number past a column's range is a 422 from the validator, never a database error.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/errors.js';

type Schema = Record<string, unknown>;

const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const CHILD_SCHEMAS = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties'] as const;
const CHILD_MAPS = ['properties', 'patternProperties', 'dependentSchemas'] as const;

/** Calls `visit` on every subschema of `schema` with a readable path ("body.leads[].name"). */
function walk(schema: unknown, path: string, visit: (node: Schema, path: string) => void): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as Schema;
  visit(node, path);
  for (const key of CHILD_LISTS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [index, child] of list.entries()) walk(child, `${path}.${key}[${index}]`, visit);
  }
  for (const key of CHILD_SCHEMAS) {
    if (key in node) walk(node[key], key === 'items' ? `${path}[]` : `${path}.${key}`, visit);
  }
  for (const key of CHILD_MAPS) {
    const map = node[key];
    if (!map || typeof map !== 'object') continue;
    for (const [name, child] of Object.entries(map)) {
      walk(child, key === 'properties' ? `${path}.${name}` : `${path}{${name}}`, visit);
    }
  }
}

function isObjectSchema(schema: Schema): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in schema;
}

function hasType(schema: Schema, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/** Where in `schema` an object is left open; [] when every object is closed or a declared map. */
export function openObjects(schema: unknown, path = 'body'): string[] {
  const problems: string[] = [];
  walk(schema, path, (node, at) => {
    if ('$ref' in node) problems.push(`${at} is a $ref; inline the schema so the rule can check it`);
    // A branch without a type under anyOf/oneOf/not only constrains the object it belongs to ("at least
    // one of ids or all"); it declares no object of its own.
    const constraintOnly =
      !('type' in node) && /(\.(anyOf|oneOf|allOf)\[\d+\]|\.(not|if|then|else))$/.test(at);
    if (isObjectSchema(node) && !constraintOnly) {
      const extra = node.additionalProperties;
      const declaredMap = 'patternProperties' in node || (typeof extra === 'object' && extra !== null);
      if (extra !== false && !declaredMap) {
        problems.push(
          `${at} is an open object: give it additionalProperties: false (or make it a Type.Record)`,
        );
      }
    }
    const declaresObject = (part: Schema) => isObjectSchema(part) && 'type' in part;
    if (Array.isArray(node.allOf) && node.allOf.some((part) => declaresObject(part as Schema))) {
      problems.push(`${at} combines objects with allOf, which no closed object survives; write one object`);
    }
  });
  return problems;
}

/** Where in `schema` an integer lacks a minimum or a maximum. */
export function unboundedIntegers(schema: unknown, path: string): string[] {
  const problems: string[] = [];
  walk(schema, path, (node, at) => {
    if (!hasType(node, 'integer')) return;
    const low = 'minimum' in node || 'exclusiveMinimum' in node;
    const high = 'maximum' in node || 'exclusiveMaximum' in node;
    if (!low || !high) {
      problems.push(
        `${at} is an integer without ${low ? 'a maximum' : 'a minimum'} (see Int32/Id in http/schemas.ts)`,
      );
    }
  });
  return problems;
}

/** The body schemas of a route: one, or one per media type (`{content: {type: {schema}}}`). */
function bodySchemas(body: unknown): unknown[] {
  if (!body || typeof body !== 'object') return [];
  const content = (body as { content?: Record<string, { schema?: unknown }> }).content;
  if (content && typeof content === 'object') return Object.values(content).map((entry) => entry.schema);
  return [body];
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function methodsOf(route: RouteOptions): string[] {
  return (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
}

function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null) return true;
  if (typeof body === 'string') return body.trim() === '';
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}

function refuseBody(request: FastifyRequest): void {
  const body = request.body;
  if (isEmptyBody(body) || request.isMultipart?.()) return;
  const keys = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body as object) : [];
  const data =
    keys.length > 0
      ? Object.fromEntries(keys.map((key) => [key, ['is not accepted: this operation takes no body']]))
      : { body: ['this operation takes no body'] };
  const what = keys.length > 0 ? `The ${keys[0]} field is not accepted here` : 'A body is not accepted here';
  throw new AppError('validation_error', `${what}: this operation takes no body.`, data);
}

export function registerSchemaRules(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const bodies = bodySchemas(schema.body);
    const problems = [
      ...bodies.flatMap((body) => openObjects(body)),
      ...bodies
        .filter((body) => !Array.isArray((body as { examples?: unknown })?.examples))
        .map(() => 'body has no example: add one with withExample(schema, {...})'),
      ...bodies.flatMap((body) => unboundedIntegers(body, 'body')),
      ...unboundedIntegers(schema.querystring, 'query'),
      ...unboundedIntegers(schema.params, 'path'),
      ...unboundedIntegers(schema.headers, 'header'),
    ];
    if (problems.length > 0) {
      throw new Error(
        `${methodsOf(route).join('|')} ${route.url}: request schemas break the rules of src/http/schema-rules.ts.\n  ${problems.join('\n  ')}`,
      );
    }
  });
  // A write route without a body schema: its handler reads no body, so any content is a client mistake
  // (and would otherwise be dropped without a word).
  app.addHook('preValidation', async (request) => {
    if (!WRITE_METHODS.has(request.method) || request.routeOptions.schema?.body !== undefined) return;
    if (!request.routeOptions.url || request.is404) return;
    refuseBody(request);
  });
}
