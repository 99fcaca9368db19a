import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { InboxPage, InboxQuery } from './inbox.schemas.js';
import type { InboxService } from './inbox.service.js';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ inbox: InboxService }> = async (app, { inbox }) => {
  app.get(
    '/leads/api/inbox',
    {
      schema: {
        tags: ['Inbox'],
        operationId: 'listInbox',
        summary: 'Conversations across LinkedIn and e-mail',
        description:
          'One list of the LinkedIn conversations (one per sender profile and contact) and the e-mail threads ' +
          'with a contact: those with something unread first, then by latest activity. Each carries its latest ' +
          'message (direction and the start of its text). Read a LinkedIn thread with GET ' +
          '/flows/api/linkedin-messages?filter[linkedin_conversation_uuid]=…, an e-mail thread with GET ' +
          '/emails/api/emails/{uuid}/thread; mark read with the contact_mark_read mass action.',
        querystring: InboxQuery,
        response: { 200: InboxPage },
      },
    },
    async (request) => inbox.list(authOf(request).teamId, request.query),
  );
};
