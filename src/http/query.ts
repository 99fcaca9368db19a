// Query strings. The bracket form (`filter[status][]=a`) is parsed with `qs`. Every route declares its
// query parameters; an unknown one is a 400 that names it - except that a flat parameter naming a
// filterable field (`?status=closed`) filters exactly like `filter[status]=closed`, where the hosted
// service silently ignores it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import { AppError } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Filterable field names of a list route: they are accepted as flat query parameters. */
    filterFields?: readonly string[];
  }
}

/** Stands for a parameter without a name (`?=0`), which qs drops, so it is refused like any unknown one. */
const NAMELESS = '';

export function parseQueryString(raw: string): Record<string, unknown> {
  const parsed = qs.parse(raw, { arrayLimit: 1000, parameterLimit: 2000, depth: 4, allowPrototypes: false });
  const nameless = raw.split('&').find((part) => part.startsWith('='));
  if (nameless !== undefined) parsed[NAMELESS] = nameless.slice(1);
  return parsed;
}

function knownQueryKeys(request: FastifyRequest): Set<string> {
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, unknown> }
    | undefined;
  return new Set(Object.keys(schema?.properties ?? {}));
}

/** `filter` may arrive as a JSON string (`?filter={"object":"lead"}`) as well as in bracket form. */
function parseFilterParam(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new AppError(
      'validation_error',
      'filter must be a JSON object or use the filter[field]=value form.',
      {
        filter: ['must be a JSON object or bracket form'],
      },
    );
  }
}

export function registerQueryHandling(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (request.is404 || !query || typeof query !== 'object') return;
    const keys = Object.keys(query);
    if (keys.length === 0) return;
    const known = knownQueryKeys(request);
    const filterFields = request.routeOptions.config.filterFields ?? [];
    let flatFilter: Record<string, unknown> | undefined;
    for (const key of keys) {
      if (known.has(key)) continue;
      if (known.has('filter') && filterFields.includes(key)) {
        flatFilter ??= {};
        flatFilter[key] = query[key];
        delete query[key];
        continue;
      }
      const accepted = [...known].filter((k) => k !== 'filter');
      if (key === NAMELESS) {
        throw new AppError(
          'bad_request',
          `A query parameter has no name ("=${String(query[key])}"). Accepted parameters: ${accepted.length > 0 ? accepted.join(', ') : 'none'}.`,
          { query: ['a parameter without a name is not accepted'] },
        );
      }
      const hint =
        filterFields.length > 0
          ? ` Filter with filter[field]=value; filterable fields: ${filterFields.join(', ')}.`
          : '';
      throw new AppError(
        'bad_request',
        `Unknown query parameter "${key}". Accepted parameters: ${accepted.length > 0 ? accepted.join(', ') : 'none'}.${hint}`,
        { [key]: ['unknown query parameter'] },
      );
    }
    if (known.has('filter')) {
      const filter = parseFilterParam(query.filter);
      if (flatFilter) {
        if (
          filter !== undefined &&
          (typeof filter !== 'object' || filter === null || Array.isArray(filter))
        ) {
          throw new AppError('validation_error', 'filter must be an object.', {
            filter: ['must be an object'],
          });
        }
        // An explicit filter[field] wins over the flat spelling of the same field.
        query.filter = { ...flatFilter, ...((filter as Record<string, unknown>) ?? {}) };
      } else if (filter !== undefined) {
        query.filter = filter;
      } else {
        delete query.filter;
      }
    }
  });
}
