import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { conversationFilterFields, messageFilterFields } from './linkedin-messages.repository.js';
import {
  LinkedInConversationPage,
  LinkedInConversationsQuery,
  LinkedInMessage,
  LinkedInMessageGroupCounts,
  LinkedInMessageGroupCountsBody,
  LinkedInMessagePage,
  LinkedInMessagesQuery,
  SendLinkedInMessageBody,
} from './linkedin-messages.schemas.js';
import type { LinkedInMessagesService } from './linkedin-messages.service.js';

export const linkedInMessagesRoutes: FastifyPluginAsyncTypebox<{
  linkedinMessages: LinkedInMessagesService;
}> = async (app, { linkedinMessages }) => {
  const tags = ['LinkedIn messages'];

  app.get(
    '/flows/api/linkedin-messages',
    {
      config: { filterFields: Object.keys(messageFilterFields) },
      schema: {
        tags,
        operationId: 'listLinkedInMessages',
        summary: 'List LinkedIn messages sent, queued and received',
        description:
          'Bracket filters: q (text or subject contains), uuid, lead_uuid, sender_profile_uuid, linkedin_account_uuid, ' +
          'linkedin_conversation_uuid, task_pipeline_uuid, template_uuid, message_hash, user_id, type (inbox|outbox), ' +
          'status (new|in_progress|done|failed), linkedin_type, automation (auto|manual|synced), sent_at, created_at, updated_at.',
        querystring: LinkedInMessagesQuery,
        response: { 200: LinkedInMessagePage },
      },
    },
    async (request) => linkedinMessages.listMessages(authOf(request).teamId, request.query),
  );

  app.post(
    '/flows/api/linkedin-messages',
    {
      schema: {
        tags,
        operationId: 'queueLinkedInMessage',
        summary: 'Queue a LinkedIn message to a contact',
        description:
          'Stored with status new and sent by a worker through the sender profile\u2019s seat, inside the sender\u2019s schedule ' +
          'and within its limits (shared with its flows): in_progress while it is sent, then done (sent_at) or failed (fail_reason). ' +
          'text is required unless template_uuid composes it for the contact; an InMail may have a subject; attachments must be uploaded first.',
        body: SendLinkedInMessageBody,
        response: { 201: LinkedInMessage },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await linkedinMessages.queueMessage(authOf(request), request.body)),
  );

  app.put(
    '/flows/api/linkedin-messages/:uuid/retry',
    {
      schema: {
        tags,
        operationId: 'retryLinkedInMessage',
        summary: 'Queue a failed LinkedIn message again',
        description:
          'A failed message goes back to status new (fail_reason cleared) and is sent like a freshly queued one, ' +
          'inside the sender\u2019s schedule and limits. Only failed messages can be retried (422 otherwise). ' +
          'A message failed with unknown_outcome may already have gone out and is never retried (422).',
        params: UuidParams,
        response: { 200: LinkedInMessage },
      },
    },
    async (request) => linkedinMessages.retryMessage(authOf(request).teamId, request.params.uuid),
  );

  app.post(
    '/flows/api/linkedin-messages/group-counts',
    {
      schema: {
        tags,
        operationId: 'linkedInMessageGroupCounts',
        summary: 'Count LinkedIn messages by group',
        description:
          'Number of messages per value of group_field (status, type, sender_profile_uuid, linkedin_account_uuid) ' +
          'among those matching filter (type, status, sender_profile_uuid, linkedin_account_uuid, lead_uuid, sent_at).',
        body: LinkedInMessageGroupCountsBody,
        response: { 200: LinkedInMessageGroupCounts },
      },
    },
    async (request) => linkedinMessages.groupCounts(authOf(request).teamId, request.body),
  );

  app.delete(
    '/flows/api/linkedin-messages/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteLinkedInMessage',
        summary: 'Delete a LinkedIn message record',
        description:
          'Deletes Leadflow\u2019s record; a queued message not yet taken is not sent. A sent message stays on LinkedIn.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await linkedinMessages.deleteMessage(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/flows/api/linkedin-conversations',
    {
      config: { filterFields: Object.keys(conversationFilterFields) },
      schema: {
        tags,
        operationId: 'listLinkedInConversations',
        summary: 'List LinkedIn conversations (one per sender profile and contact)',
        description:
          'Bracket filters: uuid, lead_uuid, sender_profile_uuid, linkedin_account_uuid, last_activity_at, created_at, updated_at. ' +
          'Any other parameter is refused (400 naming it; filter[flow_uuid] is a 422).',
        querystring: LinkedInConversationsQuery,
        response: { 200: LinkedInConversationPage },
      },
    },
    async (request) => linkedinMessages.listConversations(authOf(request).teamId, request.query),
  );
};
