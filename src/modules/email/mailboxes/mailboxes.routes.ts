import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../../http/auth.js';
import { NoContent, PageAnswer, UuidParams } from '../../../http/schemas.js';
import { AppError } from '../../../lib/errors.js';
import { mailboxErrorFilterFields, mailboxFilterFields } from './mailboxes.repository.js';
import {
  CreateMailboxBody,
  DeleteMailboxBody,
  Mailbox,
  MailboxErrorPage,
  MailboxErrorsQuery,
  MailboxesQuery,
  MailboxPage,
  OAuthStart,
  OAuthStartParams,
  OAuthStartQuery,
  UpdateMailboxBody,
} from './mailboxes.schemas.js';
import type { MailboxesService } from './mailboxes.service.js';

const CONNECTION_NOTE =
  'The SMTP and IMAP logins are checked at once: a mailbox that cannot log in is stored with status error and ' +
  'the reason in GET /emails/api/mailbox-errors (never a 5xx). Passwords are stored encrypted and never returned.';

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The callback's answer, with a link back to the web application's mailboxes. */
function page(title: string, text: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/senders/mailboxes">Back to the mailboxes</a></p></body></html>`;
}

export const mailboxesRoutes: FastifyPluginAsyncTypebox<{ mailboxes: MailboxesService }> = async (
  app,
  { mailboxes },
) => {
  const tags = ['Mailboxes'];

  app.get(
    '/emails/api/mailboxes',
    {
      config: { filterFields: Object.keys(mailboxFilterFields) },
      schema: {
        tags,
        operationId: 'listMailboxes',
        summary: 'List mailboxes',
        description: 'filter[q] searches the address and the sender name.',
        querystring: MailboxesQuery,
        response: { 200: MailboxPage },
      },
    },
    async (request) => mailboxes.listMailboxes(authOf(request).teamId, request.query),
  );

  app.post(
    '/emails/api/mailboxes',
    {
      schema: {
        tags,
        operationId: 'createMailbox',
        summary: 'Connect an SMTP/IMAP mailbox',
        description: CONNECTION_NOTE,
        body: CreateMailboxBody,
        response: { 201: Mailbox },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await mailboxes.createMailbox(authOf(request), request.body)),
  );

  app.get(
    '/emails/api/mailboxes/:uuid',
    {
      schema: {
        tags,
        operationId: 'getMailbox',
        summary: 'Get a mailbox',
        params: UuidParams,
        response: { 200: Mailbox },
      },
    },
    async (request) => mailboxes.getMailbox(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/emails/api/mailboxes/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateMailbox',
        summary: 'Update a mailbox',
        description: `Only the fields sent change. Changed connection settings are checked at once. ${CONNECTION_NOTE}`,
        params: UuidParams,
        body: UpdateMailboxBody,
        response: { 200: Mailbox },
      },
    },
    async (request) => mailboxes.updateMailbox(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.put(
    '/emails/api/mailboxes/:uuid/activate',
    {
      schema: {
        tags,
        operationId: 'activateMailbox',
        summary: 'Activate a mailbox (check its logins, then send and sync)',
        description:
          'Answers the mailbox: status active when both logins work, error otherwise (the reason is in mailbox-errors). ' +
          'E-mail steps parked for want of a mailbox resume.',
        params: UuidParams,
        response: { 200: Mailbox },
      },
    },
    async (request) => mailboxes.activateMailbox(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/emails/api/mailboxes/:uuid/deactivate',
    {
      schema: {
        tags,
        operationId: 'deactivateMailbox',
        summary: 'Deactivate a mailbox (no sending, no syncing)',
        params: UuidParams,
        response: { 200: Mailbox },
      },
    },
    async (request) => mailboxes.deactivateMailbox(authOf(request).teamId, request.params.uuid),
  );

  app.delete(
    '/emails/api/mailboxes/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteMailbox',
        summary: 'Delete a mailbox',
        description:
          'Its e-mails stay. With automation_reassign_mailboxes true, the mailbox automation_mailbox_to_reassign is ' +
          'moved to this mailbox\u2019s sender profile, so its flows\u2019 e-mail steps (and follow-ups of open threads) go ' +
          'out from there; otherwise they wait until the sender profile has a mailbox again.',
        params: UuidParams,
        body: DeleteMailboxBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await mailboxes.deleteMailbox(authOf(request).teamId, request.params.uuid, request.body ?? null);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/emails/api/mailbox-errors',
    {
      config: { filterFields: Object.keys(mailboxErrorFilterFields) },
      schema: {
        tags,
        operationId: 'listMailboxErrors',
        summary: 'Send, sync and login errors of mailboxes',
        querystring: MailboxErrorsQuery,
        response: { 200: MailboxErrorPage },
      },
    },
    async (request) => mailboxes.listMailboxErrors(authOf(request).teamId, request.query),
  );

  app.get(
    '/emails/api/mailboxes/oauth/:provider/start',
    {
      schema: {
        tags,
        operationId: 'startMailboxOAuth',
        summary: 'Connect a Gmail or Outlook mailbox (OAuth2)',
        description:
          'Answers the provider\u2019s consent URL. After consent the provider sends the browser to redirect_uri, where ' +
          'Leadflow stores the tokens (encrypted) and connects the mailbox to the sender profile. Needs ' +
          'LEADFLOW_GMAIL_CLIENT_ID/SECRET or LEADFLOW_OUTLOOK_CLIENT_ID/SECRET.',
        params: OAuthStartParams,
        querystring: OAuthStartQuery,
        response: { 200: OAuthStart },
      },
    },
    async (request) => mailboxes.startOAuth(authOf(request), request.params.provider, request.query),
  );

  // Public: the provider's redirect carries no API key; the sealed state says who asked.
  app.get(
    '/emails/oauth/:provider/callback',
    {
      schema: {
        tags,
        operationId: 'finishMailboxOAuth',
        summary: 'OAuth2 redirect target (opened by the browser, no API key)',
        params: OAuthStartParams,
        querystring: Type.Object(
          Object.fromEntries(
            [
              'code',
              'state',
              'error',
              'error_description',
              'scope',
              'authuser',
              'prompt',
              'hd',
              'session_state',
              'iss',
              'client_info',
            ].map((key) => [
              key,
              Type.Optional(Type.String({ maxLength: 8192, description: 'Sent by the provider' })),
            ]),
          ),
        ),
        response: {
          200: PageAnswer('An HTML page saying the mailbox is connected'),
          400: PageAnswer('An HTML page saying why the mailbox was not connected'),
          422: PageAnswer('An HTML page: this provider is not configured here'),
        },
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      try {
        const mailbox = await mailboxes.finishOAuth(request.params.provider, request.query);
        const state =
          mailbox.status === 'active'
            ? 'is connected'
            : 'was stored but cannot log in yet (see mailbox errors)';
        return page('Mailbox connected', `${mailbox.email} ${state}. You can close this window.`);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return reply
          .code(error.status === 422 ? 422 : 400)
          .send(page('Mailbox not connected', error.message));
      }
    },
  );
};
