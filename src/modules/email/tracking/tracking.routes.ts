// Public endpoints the recipients' mail clients reach (no API key: the sealed token says which e-mail):
//   GET  /emails/t/o/{token}.gif   open pixel (a 1x1 GIF)
//   GET  /emails/t/c/{token}       click redirect (302 to the original link)
//   GET  /emails/t/u/{token}       unsubscribe page: asks, does nothing (scanners follow links)
//   POST /emails/t/u/{token}       one-click unsubscribe (RFC 8058 List-Unsubscribe-Post), also the page's button
// A token that is not one of ours (forged, truncated, of another key or kind) is a 404 and changes nothing.
// HEAD requests (link checkers, prefetchers) are answered without recording anything.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageAnswer, withExample } from '../../../http/schemas.js';
import type { TrackingService } from './tracking.service.js';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

// A wildcard, not a :param: tokens (a sealed link inside) are longer than the router's parameter limit.
const TokenParams = Type.Object({
  '*': Type.String({ minLength: 1, maxLength: 8192, description: 'Sealed tracking token' }),
});

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:32em;margin:4em auto"><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const UnsubscribeBody = withExample(
  Type.Object(
    {
      'List-Unsubscribe': Type.Optional(
        Type.String({
          maxLength: 64,
          description: 'One-Click (RFC 8058); the page\u2019s button sends it too',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  { 'List-Unsubscribe': 'One-Click' },
);

/** Form fields of an RFC 8058 POST: application/x-www-form-urlencoded or multipart/form-data. */
function formFields(contentType: string, body: string): Record<string, string> {
  if (/multipart\/form-data/i.test(contentType)) {
    const fields: Record<string, string> = {};
    const pattern =
      /content-disposition:\s*form-data;\s*name="([^"]+)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/gi;
    for (const match of body.matchAll(pattern)) fields[match[1] as string] = match[2] as string;
    return fields;
  }
  return Object.fromEntries(new URLSearchParams(body));
}

export const trackingRoutes: FastifyPluginAsyncTypebox<{ tracking: TrackingService }> = async (
  app,
  { tracking },
) => {
  const tags = ['E-mail tracking'];
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 16_384 }, (request, body, done) => {
      done(null, formFields(request.headers['content-type'] ?? '', String(body)));
    });
  }

  app.get(
    '/emails/t/o/*',
    {
      schema: {
        tags,
        operationId: 'trackEmailOpen',
        summary: 'Open pixel (public; in e-mails of flows with email_track_opens)',
        params: TokenParams,
        response: {
          200: PageAnswer('A 1x1 GIF', 'image/gif'),
          404: PageAnswer('Not one of our tokens (the same GIF)', 'image/gif'),
        },
      },
    },
    async (request, reply) => {
      const token = request.params['*'].replace(/\.gif$/i, '');
      const known = request.method === 'HEAD' ? true : await tracking.open(token);
      return reply
        .code(known ? 200 : 404)
        .header('cache-control', 'no-store, max-age=0')
        .type('image/gif')
        .send(PIXEL);
    },
  );

  app.get(
    '/emails/t/c/*',
    {
      schema: {
        tags,
        operationId: 'trackEmailClick',
        summary: 'Click redirect (public; links of flows with email_track_clicks)',
        params: TokenParams,
        response: {
          302: Type.Null({ description: 'To the original link' }),
          404: PageAnswer('Not one of our tokens'),
        },
      },
    },
    async (request, reply) => {
      const url = request.method === 'HEAD' ? undefined : await tracking.click(request.params['*']);
      if (!url) {
        reply.type('text/html; charset=utf-8');
        return reply.code(404).send(page('Link not found', '<p>This link is not valid.</p>'));
      }
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  app.get(
    '/emails/t/u/*',
    {
      schema: {
        tags,
        operationId: 'unsubscribePage',
        summary: 'Unsubscribe page (public): asks to confirm',
        params: TokenParams,
        response: {
          200: PageAnswer('An HTML page with the confirm button'),
          404: PageAnswer('Not one of our tokens'),
        },
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      const target = await tracking.unsubscribeTarget(request.params['*']);
      if (!target) return reply.code(404).send(page('Link not found', '<p>This link is not valid.</p>'));
      return page(
        'Unsubscribe',
        `<p>Stop e-mails to ${escapeHtml(target.address)}?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  app.post(
    '/emails/t/u/*',
    {
      schema: {
        tags,
        operationId: 'unsubscribeOneClick',
        summary: 'One-click unsubscribe (public, RFC 8058)',
        description:
          'Mail clients POST List-Unsubscribe=One-Click here (the List-Unsubscribe-Post header of e-mails of flows with ' +
          'email_unsubscribe_link). The recipient\u2019s address is blacklisted, the contact\u2019s email_status becomes ' +
          'unsubscribed, its planned e-mail steps are skipped and contact_unsubscribed_email fires. Repeating it changes nothing.',
        params: TokenParams,
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
        body: UnsubscribeBody,
        response: {
          200: PageAnswer('An HTML page: unsubscribed'),
          404: PageAnswer('Not one of our tokens'),
        },
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      if (!(await tracking.unsubscribe(request.params['*']))) {
        return reply.code(404).send(page('Link not found', '<p>This link is not valid.</p>'));
      }
      return page('Unsubscribed', '<p>You will not get e-mails from us any more.</p>');
    },
  );
};
