import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { senderFilterFields } from './senders.repository.js';
import {
  CreateSenderProfileBody,
  SenderProfile,
  SenderProfilePage,
  SenderProfilesQuery,
  UpdateSenderProfileBody,
} from './senders.schemas.js';
import type { SendersService } from './senders.service.js';

export const sendersRoutes: FastifyPluginAsyncTypebox<{ senders: SendersService }> = async (
  app,
  { senders },
) => {
  const tags = ['Sender profiles'];

  app.get(
    '/flows/api/sender-profiles',
    {
      config: { filterFields: Object.keys(senderFilterFields) },
      schema: {
        tags,
        operationId: 'listSenderProfiles',
        summary: 'List sender profiles',
        description:
          'filter[q] searches first name, last name and label; filter[status] is enabled or disabled.',
        querystring: SenderProfilesQuery,
        response: { 200: SenderProfilePage },
      },
    },
    async (request) => senders.listSenderProfiles(authOf(request).teamId, request.query),
  );

  app.post(
    '/flows/api/sender-profiles',
    {
      schema: {
        tags,
        operationId: 'createSenderProfile',
        summary: 'Create a sender profile',
        description:
          'A person\u2019s outreach identity (step 1 of connecting a LinkedIn account; the browser seat and ' +
          'the mailbox are bound to it later). first_name is required; assignee_user_id defaults to you.',
        body: CreateSenderProfileBody,
        response: { 201: SenderProfile },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await senders.createSenderProfile(authOf(request), request.body)),
  );

  app.get(
    '/flows/api/sender-profiles/:uuid',
    {
      schema: {
        tags,
        operationId: 'getSenderProfile',
        summary: 'Get a sender profile',
        params: UuidParams,
        response: { 200: SenderProfile },
      },
    },
    async (request) => senders.getSenderProfile(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/flows/api/sender-profiles/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateSenderProfile',
        summary: 'Update a sender profile',
        description:
          'Only the fields sent change; limits and weekly_limits merge key by key (null: back to the default).',
        params: UuidParams,
        body: UpdateSenderProfileBody,
        response: { 200: SenderProfile },
      },
    },
    async (request) => senders.updateSenderProfile(authOf(request), request.params.uuid, request.body),
  );

  app.delete(
    '/flows/api/sender-profiles/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteSenderProfile',
        summary: 'Delete a sender profile',
        description:
          'The profile leaves every contact source (saved flow versions still name it; it is ignored). ' +
          'Each contact in progress with it gets another sender of its contact source by the source\u2019s ' +
          'rotation right away, or, when the source has no other enabled sender, is paused with reason ' +
          'no_sender. Its planned actions that never started are dropped (the step is planned again with ' +
          'the new sender); done tasks and to-dos keep the profile\u2019s uuid as history.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await senders.deleteSenderProfile(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  for (const [action, status] of [
    ['enable', 'enabled'],
    ['disable', 'disabled'],
  ] as const) {
    app.put(
      `/flows/api/sender-profiles/:uuid/${action}`,
      {
        schema: {
          tags,
          operationId: `${action}SenderProfile`,
          summary: `${action === 'enable' ? 'Enable' : 'Disable'} a sender profile`,
          description:
            action === 'enable'
              ? 'Automations use the profile again; contacts paused because it was disabled resume.'
              : 'Automation steps of the profile wait (their contacts pause with reason sender_disabled) until it is enabled again.',
          params: UuidParams,
          response: { 200: SenderProfile },
        },
      },
      async (request) => senders.setStatus(authOf(request).teamId, request.params.uuid, status),
    );
  }
};
