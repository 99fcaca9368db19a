// Answers that come before any route runs, in our error envelope with an x-request-id like every other:
// route matching first (404 for an unknown path, 405 with Allow for a known path and another method -
// before authentication, so a wrong method never reads as 401/403), and the errors Fastify and Node raise
// outside the route lifecycle (an over-long path parameter, a malformed URL, an oversized request head).
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/errors.js';
import { errorBody, sendError } from './error-handler.js';
import { createRouteTable, methodNotAllowedMessage } from './route-table.js';

/** Longest path parameter the router accepts (Fastify's default); longer ones answer 414. */
export const MAX_PARAM_LENGTH = 100;

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
 * What an oversized head was made of, from the bytes Node read: the request line or the headers. Node
 * hands over the chunk it was parsing, so a head that arrived in several chunks may not show its request
 * line: the answer then names neither.
 */
function headerOverflowError(received: Buffer | undefined): AppError {
  const limit = `the request line and headers may be ${Math.round(maxHeaderSize / 1024)} KB together`;
  const start = received?.subarray(0, 64).toString('latin1') ?? '';
  if (!received || !/^[A-Z]+ \S/.test(start)) {
    return new AppError('headers_too_large', `The request head is too large: ${limit}.`);
  }
  const lineEnd = received.indexOf('\r\n');
  // No line end within the bytes read, or a line taking half the limit: the URL is what is long.
  if (lineEnd < 0 || lineEnd > maxHeaderSize / 2) {
    return new AppError(
      'headers_too_large',
      `The URL is too long: ${limit}; a URL that long is never needed (send a filter in a POST body).`,
    );
  }
  return new AppError(
    'headers_too_large',
    `The request headers are too large: ${limit}, and the request line is only ${lineEnd} bytes, so a ` +
      'header (a cookie, a token) is oversized.',
  );
}

/**
 * Node's `clientError`: the request could not be parsed (head too large, timeout, bad framing), so there
 * is no request object; answer in our envelope on the raw socket, with a request id for the log. The log
 * line holds the error code and sizes only: the error's `rawPacket` is the request head itself, bearer
 * token included, and the logger's redaction does not see into it.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const id = randomUUID();
  const received = (error as { rawPacket?: unknown }).rawPacket;
  const packet = Buffer.isBuffer(received) ? received : undefined;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? headerOverflowError(packet)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout', 'The request did not arrive in time.')
        : new AppError('bad_request', 'The request could not be parsed as HTTP.');
  this.log.info(
    { code: error.code, reqId: id, status: appError.status, bytesReceived: packet?.length },
    appError.message,
  );
  if (socket.writable) {
    const body = JSON.stringify(errorBody(appError));
    socket.write(
      `HTTP/1.1 ${appError.status} ${appError.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Remembers every route's method and path, and answers 405 (with Allow) or 404 for what matches none -
 * including a request the router gave to a parameter route although its segment is a literal another
 * route owns (GET /leads/api/leads/search is the search path with the wrong method, not a contact id).
 */
export function registerRouting(app: FastifyInstance): void {
  const table = createRouteTable();
  app.addHook('onRoute', (route: RouteOptions) => {
    // The web app's catch-alls (GET /flows/*) serve pages, not API paths: they allow nothing there.
    if ((route.config as { webCatchAll?: boolean } | undefined)?.webCatchAll) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const summary = (route.schema as { summary?: string } | undefined)?.summary;
    for (const method of methods) table.add({ method: method.toUpperCase(), url: route.url, summary });
  });

  const answerUnrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const routes = table.routesAt(path);
    // A route of this very method that passed the request on (a missing static file, an API path under a
    // page of the web app) makes a plain 404, not a 405.
    if (routes.length === 0 || routes.some((route) => route.method === request.method)) {
      return sendError(reply, new AppError('not_found', `No route ${request.method} ${path}`));
    }
    const allowed = [...new Set(routes.map((route) => route.method))].sort();
    const usable = allowed.filter((method) => method !== 'HEAD');
    reply.header('allow', allowed.join(', '));
    return sendError(
      reply,
      new AppError('method_not_allowed', methodNotAllowedMessage(table, request.method, path, routes), {
        method: [`must be one of ${usable.join(', ')}`],
      }),
    );
  };

  // Before anything reads the request (authentication, the body parser: an unrouted QUERY with a body
  // must not be a 400 about its Content-Type).
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    const path = request.url.split('?')[0] ?? '/';
    if (request.is404 || (url?.includes(':') && table.shadowsParameter(url, path))) {
      reply.header('x-request-id', request.id);
      return answerUnrouted(request, reply);
    }
    done();
  });
  app.setNotFoundHandler(answerUnrouted);
}
