// Paths the hosted service also answers for an operation we document under its public path (api-facts
// 1.22: `/integrations/c1/api/webhooks`, `/leads/api/attachments`, `POST /leads/api/companies/enrich`...).
// A route plugin wraps its instance with `withAliases`: every route registered through the wrapper whose
// path is (or lies below) an alias's `path` is registered a second time at the alias path, from the same
// definition - the same schema, handler and config - with its own operationId and a description saying
// whose alias it is. Nothing is copied by hand, so an alias cannot drift from its operation.
import type { FastifyInstance, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';

export type PathAlias = {
  /** The documented path, or a path prefix: every route at or below it gets the alias. */
  path: string;
  /** What replaces `path` in the alias. */
  alias: string;
  /** Only routes of this method (default: every method). */
  method?: HTTPMethods;
  /** The alias answers this method instead of the route's own. */
  aliasMethod?: HTTPMethods;
  /** Appended to the operationId of each aliased operation (operationIds are unique in the document). */
  operationSuffix: string;
};

type Schema = { operationId?: string; summary?: string; description?: string; response?: object };

const SHORTHANDS = ['get', 'post', 'put', 'delete', 'patch'] as const;

function aliasPath(url: string, alias: PathAlias): string | undefined {
  if (url === alias.path) return alias.alias;
  if (url.startsWith(`${alias.path}/`)) return alias.alias + url.slice(alias.path.length);
  return undefined;
}

/** The alias routes of `route` (none when no alias matches it). */
export function aliasRoutes(route: RouteOptions, aliases: readonly PathAlias[]): RouteOptions[] {
  const method = String(route.method).toUpperCase();
  return aliases.flatMap((alias) => {
    if (alias.method && alias.method !== method) return [];
    const url = aliasPath(route.url, alias);
    if (url === undefined) return [];
    const schema = (route.schema ?? {}) as Schema;
    const aliasMethod = alias.aliasMethod ?? (method as HTTPMethods);
    const of = `${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`;
    return [
      {
        ...route,
        method: aliasMethod,
        url,
        schema: {
          ...schema,
          ...(schema.operationId ? { operationId: `${schema.operationId}${alias.operationSuffix}` } : {}),
          description:
            `Alias of ${of}, the path the hosted service also answers: the same operation. ` +
            (schema.description ?? ''),
          // The documented route's error responses are added to its own object; the alias gets its own.
          ...(schema.response ? { response: { ...schema.response } } : {}),
        },
      } as RouteOptions,
    ];
  });
}

/**
 * `app` whose route methods (route, get, post, put, delete, patch) also register each route's aliases.
 * Use the result in place of `app` in a route plugin.
 */
export function withAliases<T extends FastifyInstance>(app: T, aliases: readonly PathAlias[]): T {
  const register = (route: RouteOptions) => {
    app.route(route);
    for (const alias of aliasRoutes(route, aliases)) app.route(alias);
  };
  return new Proxy(app, {
    get(target, property, receiver) {
      if (property === 'route') {
        return (route: RouteOptions) => {
          register(route);
          return receiver;
        };
      }
      if ((SHORTHANDS as readonly (string | symbol)[]).includes(property)) {
        return (
          url: string,
          options: Omit<RouteOptions, 'url' | 'method'>,
          handler?: RouteOptions['handler'],
        ) => {
          register({
            ...options,
            method: String(property).toUpperCase() as HTTPMethods,
            url,
            handler: handler ?? options.handler,
          } as RouteOptions);
          return receiver;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type BodyFormRoute = {
  /** The path of the query-string form (GET). */
  url: string;
  /** The path of the body form (POST): the same parameters as a JSON body. */
  bodyUrl: string;
  /** The form the operation is documented by; the other is its alias. */
  primary: 'GET' | 'POST';
  config?: RouteOptions['config'];
  schema: Schema & { tags?: string[]; response: object };
  querystring: object;
  body: object;
};

/**
 * A read operation offered in both forms clients use: GET with its parameters in the query string and
 * POST with them as a JSON body (`POST /flows/api/tasks/list`, `GET /flows/api/tasks/group-counts`). One
 * definition, one handler (which gets the parameters of either form); the secondary form is documented
 * as an alias of the primary one.
 */
export function withBodyForm(
  app: FastifyInstance,
  route: BodyFormRoute,
  handler: (params: unknown, request: FastifyRequest) => Promise<unknown>,
): void {
  const { schema, querystring, body } = route;
  const forms = {
    GET: { url: route.url, part: { querystring }, suffix: 'ByQuery', read: (r: FastifyRequest) => r.query },
    POST: { url: route.bodyUrl, part: { body }, suffix: 'ByBody', read: (r: FastifyRequest) => r.body },
  };
  const primary = forms[route.primary];
  const secondaryMethod = route.primary === 'GET' ? 'POST' : 'GET';
  const secondary = forms[secondaryMethod];
  const of = `${route.primary} ${primary.url}`;
  app.route({
    method: route.primary,
    url: primary.url,
    ...(route.config ? { config: route.config } : {}),
    schema: { ...schema, ...primary.part, response: { ...schema.response } },
    handler: (request) => handler(primary.read(request) ?? {}, request),
  });
  app.route({
    method: secondaryMethod,
    url: secondary.url,
    ...(route.config ? { config: route.config } : {}),
    schema: {
      ...schema,
      ...secondary.part,
      operationId: `${schema.operationId}${secondary.suffix}`,
      description:
        `Alias of ${of}, the ${secondaryMethod === 'POST' ? 'parameters in a JSON body' : 'parameters in the query string'}: ` +
        `the same operation. ${schema.description ?? ''}`,
      response: { ...schema.response },
    },
    handler: (request) => handler(secondary.read(request) ?? {}, request),
  });
}
