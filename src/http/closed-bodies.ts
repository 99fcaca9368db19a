// Closed request bodies, as a rule of the route table rather than a habit of each module: every object a
// body schema describes must say `additionalProperties: false`, or be declared as an open map (a
// `Type.Record`, i.e. `patternProperties`, or an `additionalProperties` schema for the values). A route
// that breaks the rule fails at registration, so the app does not start and every test fails until it is
// fixed. Routes without a body schema take no body: a non-empty one is refused like an unknown field.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/errors.js';

type Schema = Record<string, unknown>;

const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const CHILD_SCHEMAS = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties'] as const;
const CHILD_MAPS = ['properties', 'patternProperties', 'dependentSchemas'] as const;

function isObjectSchema(schema: Schema): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in schema;
}

/** Where in `schema` an object is left open; [] when every object is closed or a declared map. */
export function openObjects(schema: unknown, path = 'body'): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const node = schema as Schema;
  const problems: string[] = [];
  if ('$ref' in node) problems.push(`${path} is a $ref; inline the schema so the rule can check it`);
  if (isObjectSchema(node)) {
    const extra = node.additionalProperties;
    const declaredMap = 'patternProperties' in node || (typeof extra === 'object' && extra !== null);
    if (extra !== false && !declaredMap) {
      problems.push(
        `${path} is an open object: give it additionalProperties: false (or make it a Type.Record)`,
      );
    }
  }
  if (Array.isArray(node.allOf) && node.allOf.some((part) => isObjectSchema(part as Schema))) {
    problems.push(`${path} combines objects with allOf, which no closed object survives; write one object`);
  }
  for (const key of CHILD_LISTS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [index, child] of list.entries()) {
      problems.push(...openObjects(child, `${path}.${key}[${index}]`));
    }
  }
  for (const key of CHILD_SCHEMAS) {
    if (key in node)
      problems.push(...openObjects(node[key], key === 'items' ? `${path}[]` : `${path}.${key}`));
  }
  for (const key of CHILD_MAPS) {
    const map = node[key];
    if (map && typeof map === 'object') {
      for (const [name, child] of Object.entries(map)) {
        problems.push(...openObjects(child, key === 'properties' ? `${path}.${name}` : `${path}{${name}}`));
      }
    }
  }
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

export function registerClosedBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as { body?: unknown; hide?: boolean } | undefined;
    const problems = bodySchemas(schema?.body).flatMap((body) => openObjects(body));
    if (problems.length > 0) {
      throw new Error(
        `${methodsOf(route).join('|')} ${route.url}: request bodies must be closed.\n  ${problems.join('\n  ')}`,
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
