// The public login link (no API key: the key in the path is the credential):
//   GET /cloud-browser/public/{key}     the live view page (404 unknown or revoked key, 410 expired)
//   GET /cloud-browser/public/{key}/ws  its WebSocket: frames out, input events in (key checked again)
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageAnswer } from '../../../http/schemas.js';
import { liveViewCsp, liveViewPage, messagePage } from './live-view.page.js';
import type { LiveView } from './live-view.service.js';

const KeyParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 100, description: 'The login link\u2019s key (lb_ak_...)' }),
});

const HTML = 'text/html; charset=utf-8';

export const liveViewRoutes: FastifyPluginAsyncTypebox<{ liveView: LiveView }> = async (
  app,
  { liveView },
) => {
  const tags = ['LinkedIn seats'];

  app.get(
    '/cloud-browser/public/:key',
    {
      // The key is in the URL: the per-request info logs (which carry the URL) would write it down.
      logLevel: 'warn',
      schema: {
        tags,
        operationId: 'openLinkedinBrowserLoginPage',
        summary: 'Public login page of a seat (the link of generate-external-access-key)',
        description:
          'No API key: the key in the path opens a live view of the seat\u2019s own Chromium on LinkedIn\u2019s login ' +
          'page (mouse, keyboard and paste; LinkedIn only; one viewer at a time). When the login succeeds the seat ' +
          'records linkedin_account_uuid and turns running. An unknown or revoked key answers 404, an expired one 410.',
        params: KeyParams,
        response: {
          200: PageAnswer('The live view page (HTML)'),
          404: PageAnswer('Not a valid login link (HTML)'),
          410: PageAnswer('The login link has expired (HTML)'),
        },
      },
    },
    async (request, reply) => {
      reply
        .type(HTML)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff');
      const check = await liveView.checkKey(request.params.key);
      if (!check.ok) return reply.code(check.status).send(messagePage(check.title, check.message));
      const nonce = randomBytes(16).toString('base64');
      return reply.header('content-security-policy', liveViewCsp(nonce)).send(liveViewPage(nonce));
    },
  );

  app.get(
    '/cloud-browser/public/:key/ws',
    { websocket: true, logLevel: 'warn', schema: { hide: true, params: KeyParams } },
    (socket, request) => {
      const handle = liveView.connect(request.params.key, {
        send(message, sent) {
          if (socket.readyState !== socket.OPEN) return;
          socket.send(JSON.stringify(message), () => sent?.());
        },
        close(code, reason) {
          if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
            socket.close(code, reason);
        },
      });
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        if (!isBinary) handle.input(Buffer.isBuffer(data) ? data.toString('utf8') : '');
      });
      socket.on('close', () => handle.disconnect());
      socket.on('error', () => handle.disconnect());
    },
  );
};
