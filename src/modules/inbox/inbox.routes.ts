import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { ConversationReadBody, ConversationReadState, InboxPage, InboxQuery } from './inbox.schemas.js';
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

  app.put(
    '/leads/api/inbox/read',
    {
      schema: {
        tags: ['Inbox'],
        operationId: 'setInboxConversationRead',
        summary: 'Mark one conversation read or unread',
        description:
          'read: true marks everything the contact sent in the conversation read (the web app does it when a ' +
          'conversation is opened); read: false makes its latest message from the contact unread again (409 ' +
          'when the contact sent nothing in it). A conversation of another team is a 404. The contact_mark_read ' +
          'mass action marks all of a contact\u2019s conversations at once.',
        body: ConversationReadBody,
        response: {
          200: ConversationReadState,
          404: errorResponse(404, 'no such conversation in the team'),
          409: errorResponse(409, 'the contact sent nothing in it'),
        },
      },
    },
    async (request) => inbox.setRead(authOf(request).teamId, request.body),
  );
};
