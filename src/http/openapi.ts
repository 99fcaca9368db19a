// The OpenAPI 3.1 document is generated from the route schemas (never written by hand), served at
// /openapi.json with an interactive reference at /docs. Every API route gets the shared error
// responses and the bearer security requirement here, so no route can forget them.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { API_PATH } from './auth.js';
import { ErrorBody } from './schemas.js';

const ERROR_STATUSES: Record<number, string> = {
  400: 'Malformed request, bad header or unknown query parameter',
  401: 'Missing or invalid API key',
  403: 'Not a member of the team named in Team-ID',
  404: 'Not found (also for another team\u2019s records)',
  409: 'Conflicts with an existing record',
  422: 'Validation failed; error.data maps each field to its messages',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error',
};

export const errorRef = { $ref: 'ErrorBody#' };

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(ErrorBody);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!API_PATH.test(route.url) || route.schema?.hide) return;
    route.schema ??= {};
    const schema = route.schema;
    schema.response ??= {};
    const response = schema.response as Record<string, unknown>;
    for (const [status, description] of Object.entries(ERROR_STATUSES)) {
      response[status] ??= { ...errorRef, description };
    }
    (schema as { security?: unknown }).security ??= [{ bearerAuth: [] }];
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
        },
      },
    },
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
          'Team-ID': { type: 'integer', description: 'Team to act in; default is your first team' },
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
