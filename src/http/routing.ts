// Answers that come before any route runs, in our error envelope with an x-request-id like every other:
// route matching first (404 for an unknown path, 405 with Allow for a known path and another method -
// before authentication, so a wrong method never reads as 401/403), and the errors Fastify and Node raise
// outside the route lifecycle (an over-long path parameter, a malformed URL, an oversized request head).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/errors.js';
import { errorBody, sendError } from './error-handler.js';

/** Longest path parameter the router accepts (Fastify's default); longer ones answer 414. */
export const MAX_PARAM_LENGTH = 100;

type Pattern = { method: string; regex: RegExp };

function compile(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : escapeRegex(segment)))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Fastify's `frameworkErrors`: router failures get our envelope, the request id and a log line. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const path = request.url.split('?')[0] ?? '';
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError(
          'uri_too_long',
          `A path segment of ${path.slice(0, 120)}${path.length > 120 ? '...' : ''} is longer than ${MAX_PARAM_LENGTH} characters; no identifier is that long.`,
        )
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('bad_request', 'The URL is not valid: it has a malformed %-escape or character.')
        : new AppError('internal_error', `Internal error; quote request id ${request.id} when reporting it.`);
  request.log.info({ err: error, status: appError.status }, appError.message);
  return sendError(reply, appError);
}

/**
 * Node's `clientError`: the request could not be parsed (head too large, timeout, bad framing), so there
 * is no request object; answer in our envelope on the raw socket, with a request id for the log.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const id = randomUUID();
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError(
          'headers_too_large',
          'The request line and headers are too large (at most 16 KB); a URL that long is never needed.',
        )
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout', 'The request did not arrive in time.')
        : new AppError('bad_request', 'The request could not be parsed as HTTP.');
  this.log.info({ err: error, reqId: id, status: appError.status }, appError.message);
  if (socket.writable) {
    const body = JSON.stringify(errorBody(appError));
    socket.write(
      `HTTP/1.1 ${appError.status} ${appError.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Remembers every route's method and path, and answers 405 (with Allow) or 404 for what matches none. */
export function registerRouting(app: FastifyInstance): void {
  const patterns: Pattern[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const regex = compile(route.url);
    for (const method of methods) patterns.push({ method: method.toUpperCase(), regex });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))].sort();
    // A route of this method that passed the request on (a missing static file, an API path under a page
    // of the web app) is a plain 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      const usable = allowed.filter((method) => method !== 'HEAD');
      return sendError(
        reply,
        new AppError(
          'method_not_allowed',
          `${request.method} is not allowed on ${path}; use ${usable.join(' or ')}.`,
          { method: [`must be one of ${usable.join(', ')}`] },
        ),
      );
    }
    return sendError(reply, new AppError('not_found', `No route ${request.method} ${path}`));
  });
}
