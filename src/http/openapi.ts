// The OpenAPI 3.1 document is generated from the route schemas (never written by hand), served at
// /openapi.json with an interactive reference at /docs. Every API route gets the shared error
// responses it can answer, the standard response headers and the bearer security requirement here, so
// no route can forget them; then everything that repeats moves into `components` (openapi-components.ts).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorReasons } from '../lib/errors.js';
import { API_PATH } from './auth.js';
import { shareComponents } from './openapi-components.js';
import { ErrorBody, MAX_ID } from './schemas.js';

const ERROR_STATUSES: Record<number, string> = {
  400: 'bad_request: malformed JSON, a bad Team-ID header or an unknown query parameter',
  401: 'auth_exception: missing or invalid API key',
  402: 'payment_required: not enough credits',
  403: 'access_denied: not a member of the team named in Team-ID',
  404: 'not_found: no such record (also for another team\u2019s records)',
  409: 'conflict: conflicts with an existing record or a concurrent change',
  413: 'payload_too_large: the body is larger than the limit',
  414: 'uri_too_long: a path parameter is longer than 100 characters',
  415: 'unsupported_media_type: send application/json',
  422: 'validation_error: error.data maps each failing field to its messages',
  429: 'rate_limited: too many requests; retry after Retry-After seconds',
  431: 'headers_too_large: the request head (URL and headers) is larger than 16 KB',
  500: 'internal_error: quote the x-request-id when reporting it',
  503: 'service_unavailable: the query took too long or the database is unreachable; retry or narrow it',
};

export const errorRef = { $ref: 'ErrorBody#' };

/** The error body of one status: ErrorBody whose `reason` is the one reason of that status. */
const statusErrorRef = (status: number) => ({ $ref: `Error${status}#` });

function statusErrorSchemas() {
  return Object.keys(ERROR_STATUSES).map((key) => {
    const status = Number(key);
    const reason = Object.entries(errorReasons).find(([, code]) => code === status)?.[0];
    const body = structuredClone(ErrorBody) as unknown as {
      $id: string;
      title: string;
      properties: { error: { properties: { reason: { enum?: string[]; anyOf?: unknown } } } };
    };
    body.$id = `Error${status}`;
    body.title = `Error ${status}`;
    const reasonSchema = body.properties.error.properties.reason;
    delete reasonSchema.anyOf;
    reasonSchema.enum = reason ? [reason] : [];
    return body;
  });
}

/** An error response a route declares beyond the ones its shape implies (see errorStatuses). */
export const errorResponse = (status: keyof typeof ERROR_STATUSES, when: string) => ({
  ...statusErrorRef(status),
  description: `${ERROR_STATUSES[status]?.split(':')[0]}: ${when}`,
});

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses an operation can answer, from its shape: every API operation can be refused by
 * authentication, Team-ID, the query check and the rate limit; path parameters can be unknown (404) or
 * over-long (414); writes can carry bodies (413, 415, 422) and collide (409 for creates, updates and
 * deletes). Routes declare the rest themselves (a 404 of a lookup, a 409 of a POST that answers 200).
 */
function errorStatuses(route: RouteOptions): number[] {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const write = methods.some((method) => WRITE_METHODS.has(method));
  const statuses = [400, 401, 403, 429, 431, 500, 503];
  if (route.url.includes(':')) statuses.push(404, 414);
  if (write || schema.body) statuses.push(413, 415);
  if (write || schema.body || schema.querystring || schema.params) statuses.push(422);
  if ('201' in response || methods.some((method) => ['PUT', 'PATCH', 'DELETE'].includes(method))) {
    statuses.push(409);
  }
  return statuses;
}

const header = (description: string, type = 'string') => ({ description, schema: { type } });
const REQUEST_ID = header('Id of this request in the service\u2019s logs: your x-request-id, or a new UUID');
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('Requests allowed per minute for your key (authenticated requests)', 'integer'),
  'RateLimit-Remaining': header('Requests left in the current window', 'integer'),
  'RateLimit-Reset': header('Seconds until the window resets', 'integer'),
};

/** Response headers, added to every operation of the generated document. */
function withResponseHeaders(document: Record<string, unknown>): Record<string, unknown> {
  const paths = (document.paths ?? {}) as Record<
    string,
    Record<string, { responses?: object; security?: unknown }>
  >;
  for (const [path, operations] of Object.entries(paths)) {
    for (const operation of Object.values(operations)) {
      const api = API_PATH.test(path);
      // A list's filter object travels in brackets (filter[status]=on, filter[tags][]=a): deepObject.
      for (const parameter of (operation as { parameters?: Array<Record<string, unknown>> }).parameters ??
        []) {
        if (parameter.in === 'query' && parameter.name === 'filter') {
          parameter.style = 'deepObject';
          parameter.explode = true;
        }
      }
      for (const [status, response] of Object.entries(operation.responses ?? {}) as Array<
        [string, Record<string, unknown>]
      >) {
        response.headers = {
          ...((response.headers as object) ?? {}),
          'x-request-id': REQUEST_ID,
          ...(api ? RATE_LIMIT_HEADERS : {}),
          ...(status === '429'
            ? { 'Retry-After': header('Seconds to wait before retrying', 'integer') }
            : {}),
        };
      }
    }
  }
  return document;
}

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(ErrorBody);
  for (const schema of statusErrorSchemas()) app.addSchema(schema);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.schema?.hide) return;
    // Any request can have too large a head: the public pages declare 431 too.
    if (!API_PATH.test(route.url)) {
      const response = (route.schema?.response ?? undefined) as Record<string, unknown> | undefined;
      if (response) response[431] ??= { ...statusErrorRef(431), description: ERROR_STATUSES[431] };
      return;
    }
    route.schema ??= {};
    const schema = route.schema;
    schema.response ??= {};
    const response = schema.response as Record<string, unknown>;
    for (const status of errorStatuses(route)) {
      response[status] ??= { ...statusErrorRef(status), description: ERROR_STATUSES[status] };
    }
    (schema as { security?: unknown }).security ??= [{ bearerAuth: [] }, { sessionCookie: [] }];
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Leadflow API',
        version,
        description:
          'Self-hosted outreach platform: contacts, companies, automations, tasks, inbox and webhooks. ' +
          'Authenticate with `Authorization: Bearer <API key>`; pick one of your teams with the optional ' +
          '`Team-ID` header (default: your first team). Errors always have the shape of the Error schema.',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'API key created with `leadflow admin`',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'lf_session',
            description:
              "The web application's session (POST /id/api/sessions); writes also need its X-CSRF-Token header",
          },
        },
      },
    },
    transformObject: (document) =>
      shareComponents(
        withResponseHeaders((document as { openapiObject: Record<string, unknown> }).openapiObject),
      ) as never,
    refResolver: {
      // Components keep their $id as name, so the document reads "ErrorBody", not "def-0".
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
    transform: ({ schema, url }) => {
      if (!API_PATH.test(url) || !schema) return { schema, url };
      const headers = { ...((schema.headers as object) ?? {}) } as Record<string, unknown>;
      const withTeam = {
        type: 'object',
        properties: {
          ...((headers.properties as object) ?? {}),
          'Team-ID': {
            type: 'integer',
            minimum: 1,
            maximum: MAX_ID,
            description:
              `Team to act in: the id of one of your teams, a positive integer up to ${MAX_ID} (other values: 400 ` +
              'or 403; 403 if you are not a member). Absent or empty: your default team, the first you joined.',
          },
        },
      };
      return { schema: { ...schema, headers: withTeam }, url };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The plugin's policy ends with upgrade-insecure-requests, which makes a browser fetch the page's own
    // scripts over https: on plain http from any host but localhost the page stays blank. The rest of the
    // policy (same-origin scripts, no objects, no framing by others) stays.
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/g, '').trim(),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
