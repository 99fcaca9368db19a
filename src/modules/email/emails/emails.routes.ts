import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { NoContent, UuidParams } from '../../../http/schemas.js';
import { emailBodyFilterFields, emailFilterFields } from './emails.repository.js';
import {
  Email,
  EmailBodiesQuery,
  EmailBody,
  EmailBodyPage,
  EmailPage,
  EmailsQuery,
  LatestByLeads,
  LatestByLeadsBody,
  LlmThread,
  LlmThreadBody,
  SendEmailBody,
  SentEmail,
  Thread,
} from './emails.schemas.js';
import type { EmailsService } from './emails.service.js';

export const emailsRoutes: FastifyPluginAsyncTypebox<{ emails: EmailsService }> = async (app, { emails }) => {
  const tags = ['E-mails'];

  app.get(
    '/emails/api/emails',
    {
      config: { filterFields: Object.keys(emailFilterFields) },
      schema: {
        tags,
        operationId: 'listEmails',
        summary: 'List e-mails sent and received',
        description:
          'Bracket filters: lead_uuid, mailbox_uuid, sender_profile_uuid, flow_uuid, flow_node_id, thread_uuid, type (inbox|outbox), ' +
          'status, from_email, to_email, folder, sent_at (operators, {from,to}, "2026-03-15" or "2026-03-01,2026-03-31"), created_at, updated_at. ' +
          'The paging fields are repeated under pagination.',
        querystring: EmailsQuery,
        response: { 200: EmailPage },
      },
    },
    async (request) => emails.listEmails(authOf(request).teamId, request.query),
  );

  app.post(
    '/emails/api/emails/send-email',
    {
      schema: {
        tags,
        operationId: 'sendEmail',
        summary: 'Send an e-mail through a connected mailbox',
        description:
          'Two body shapes: {sender_profile_uuid, from_email?, to_email, to_name?, subject, body, cc?, bcc?, attachments?, lead_uuid?} ' +
          'or {mailbox_uuid, to: [{to_email, to_name}], subject, body, cc?, bcc?, lead_uuid?, in_reply_to_email_uuid?, thread_uuid?}. ' +
          'A reply (in_reply_to_email_uuid or thread_uuid) joins that thread (In-Reply-To, References, "Re:" subject) and may leave out ' +
          'the recipient and the subject. The mailbox must be active; manual sends do not count against automation_daily_limit. ' +
          'The e-mail is stored with its Message-ID before it is handed to SMTP; a refusal by the server answers 201 with status error ' +
          '(or bounced) and the reason in error. The response carries the e-mail and its body twice: as email/email_body and as ' +
          'emailDomain/emailBodyDomain.',
        body: SendEmailBody,
        response: { 201: SentEmail },
      },
    },
    async (request, reply) => reply.code(201).send(await emails.sendEmail(authOf(request), request.body)),
  );

  app.post(
    '/emails/api/emails/latest-by-leads',
    {
      schema: {
        tags,
        operationId: 'latestEmailsByLeads',
        summary: 'The latest e-mail of each contact',
        body: LatestByLeadsBody,
        response: { 200: LatestByLeads },
      },
    },
    async (request) => emails.latestByLeads(authOf(request).teamId, request.body.lead_uuids),
  );

  app.post(
    '/emails/api/emails/llm-thread',
    {
      schema: {
        tags,
        operationId: 'emailLlmThread',
        summary: 'A contact\u2019s e-mail conversation as plain text for an LLM prompt',
        description:
          'The e-mails between the sender profile\u2019s mailboxes and the contact (sent, received, bounced; not delivery reports), ' +
          'the latest `limit` of them oldest first, each with From, Date and Subject lines and its own text: quoted history is cut.',
        body: LlmThreadBody,
        response: { 200: LlmThread },
      },
    },
    async (request) => emails.llmThread(authOf(request).teamId, request.body),
  );

  app.get(
    '/emails/api/emails/:uuid',
    {
      schema: {
        tags,
        operationId: 'getEmail',
        summary: 'Get an e-mail',
        params: UuidParams,
        response: { 200: Email },
      },
    },
    async (request) => emails.getEmail(authOf(request).teamId, request.params.uuid),
  );

  app.delete(
    '/emails/api/emails/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteEmail',
        summary: 'Delete an e-mail record',
        description: 'Deletes Leadflow\u2019s record and its body; the message stays in the mailbox.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await emails.deleteEmail(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/emails/api/emails/:uuid/thread',
    {
      schema: {
        tags,
        operationId: 'getEmailThread',
        summary: 'The thread of an e-mail, oldest first, with bodies',
        params: UuidParams,
        response: { 200: Thread },
      },
    },
    async (request) => emails.thread(authOf(request).teamId, request.params.uuid),
  );

  app.get(
    '/emails/api/email-bodies',
    {
      config: { filterFields: Object.keys(emailBodyFilterFields) },
      schema: {
        tags,
        operationId: 'listEmailBodies',
        summary: 'List e-mail bodies',
        description: 'search (or filter[q]) matches the subject.',
        querystring: EmailBodiesQuery,
        response: { 200: EmailBodyPage },
      },
    },
    async (request) => emails.listEmailBodies(authOf(request).teamId, request.query),
  );

  app.get(
    '/emails/api/email-bodies/:uuid',
    {
      schema: {
        tags,
        operationId: 'getEmailBody',
        summary: 'Get an e-mail body (HTML, subject, attachments)',
        params: UuidParams,
        response: { 200: EmailBody },
      },
    },
    async (request) => emails.getEmailBody(authOf(request).teamId, request.params.uuid),
  );
};
