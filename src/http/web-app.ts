// The web application (web/, built into dist/web by `npm run build`) served beside the API: hashed assets
// with a year's cache (precompressed .br/.gz sent as they are), index.html with no-cache and a strict
// Content-Security-Policy for the app's own paths (WEB_SECTIONS). Every other unknown path stays a 404.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATH } from './auth.js';
import { WEB_SECTIONS } from './web-sections.js';

/** dist/web of this checkout, from src/http (tsx, tests) and dist/http (built) alike. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** No inline or foreign script; styles inline because the component library sets CSS variables. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const NOT_BUILT =
  '<!doctype html><title>Leadflow</title><p>The web application is not built: run <code>npm run build</code>.</p>';

export async function registerWebApp(app: FastifyInstance, options: { dir?: string } = {}): Promise<void> {
  const dir = options.dir ?? DEFAULT_WEB_DIR;
  const indexFile = path.join(dir, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  const assets = path.join(dir, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      decorateReply: false,
      preCompressed: true,
      immutable: true,
      maxAge: 365 * 86_400_000,
      index: false,
      schemaHide: true,
    });
  }
  const favicon = path.join(dir, 'favicon.svg');
  if (existsSync(favicon)) {
    const icon = readFileSync(favicon);
    app.get('/favicon.svg', { schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(icon),
    );
  }

  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    // /flows/api/... is the API's even where /flows/* is a page of the app.
    if (API_PATH.test(request.url)) return reply.callNotFound();
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', APP_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8');
    return index ? reply.send(index) : reply.code(503).send(NOT_BUILT);
  };
  // publicRoute: an API-looking path under a page (/contacts/api/x) reaches sendIndex, which answers 404.
  const hidden = { schema: { hide: true }, config: { publicRoute: true } };
  app.get('/', hidden, sendIndex);
  // The catch-alls stay out of the 405 table: /flows/* is the app's, /flows/api/... the API's.
  const catchAll = { schema: { hide: true }, config: { publicRoute: true, webCatchAll: true } };
  for (const section of WEB_SECTIONS) {
    app.get(`/${section}`, hidden, sendIndex);
    app.get(`/${section}/*`, catchAll, sendIndex);
  }
}
