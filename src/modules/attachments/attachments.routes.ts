import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type PathAlias, withAliases } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorRef } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { AppError } from '../../lib/errors.js';
import type { UploadPart } from '../files/uploads.js';
import { ACCEPTED_TYPES_TEXT } from './attachment-types.js';
import { attachmentFilterFields } from './attachments.repository.js';
import { Attachment, AttachmentPage, AttachmentsQuery, AttachmentUploadForm } from './attachments.schemas.js';
import type { AttachmentsService } from './attachments.service.js';

const tags = ['Attachments'];
// Multipart framing around the file: boundaries and the small payload field.
const MULTIPART_OVERHEAD = 64 * 1024;

/** The hosted MCP server lists, reads, deletes and uploads attachments under /leads/api/attachments. */
const ALIASES: PathAlias[] = [
  { path: '/flows/api/attachments', alias: '/leads/api/attachments', operationSuffix: 'Leads' },
];

export const attachmentsRoutes: FastifyPluginAsyncTypebox<{ attachments: AttachmentsService }> = async (
  instance,
  { attachments },
) => {
  const app = withAliases(instance, ALIASES);
  await app.register(multipart, {
    limits: { fileSize: attachments.maxBytes, files: 2, fields: 10, fieldSize: 16 * 1024, parts: 12 },
    throwFileSizeLimit: false,
  });

  app.post(
    '/flows/api/attachments',
    {
      onRequest: async (request) => {
        const length = Number(request.headers['content-length']);
        if (length > attachments.maxBytes + MULTIPART_OVERHEAD) {
          throw new AppError(
            'payload_too_large',
            `The attachment is larger than the limit of ${attachments.maxBytes} bytes (LEADFLOW_ATTACHMENT_MAX_BYTES).`,
            { attachment: [`must be at most ${attachments.maxBytes} bytes`] },
          );
        }
      },
      schema: {
        tags,
        operationId: 'uploadAttachment',
        summary: 'Upload an attachment',
        description:
          'multipart/form-data with the file in the field "attachment" (or "file") and an optional "payload" ' +
          `JSON part {name, size, type}. Accepted: ${ACCEPTED_TYPES_TEXT}, recognised from the content, not the ` +
          'name. Over LEADFLOW_ATTACHMENT_MAX_BYTES (default 20 MB): 413. A refused type: 415. Send it with ' +
          'POST /flows/api/linkedin-messages or an e-mail as attachments: [{"uuid": ...}].',
        consumes: ['multipart/form-data'],
        body: AttachmentUploadForm,
        response: {
          201: Attachment,
          413: { ...errorRef, description: 'payload_too_large: the file is larger than the limit' },
          415: { ...errorRef, description: 'unsupported_media_type: the file is of a refused type' },
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError(
          'unsupported_media_type',
          'Upload the file as multipart/form-data in the field "attachment".',
          { attachment: ['send multipart/form-data'] },
        );
      }
      const { teamId, userId } = authOf(request);
      const created = await attachments.upload(
        { teamId, userId },
        request.parts() as AsyncIterable<UploadPart>,
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/flows/api/attachments',
    {
      config: { filterFields: Object.keys(attachmentFilterFields) },
      schema: {
        tags,
        operationId: 'listAttachments',
        summary: 'List attachments',
        description: 'Newest first by default; filter by q (name), uuid, type (MIME), user_id, created_at.',
        querystring: AttachmentsQuery,
        response: { 200: AttachmentPage },
      },
    },
    async (request) => attachments.list(authOf(request).teamId, request.query),
  );

  app.get(
    '/flows/api/attachments/:uuid',
    {
      schema: {
        tags,
        operationId: 'getAttachment',
        summary: 'Get an attachment',
        params: UuidParams,
        response: { 200: Attachment },
      },
    },
    async (request) => attachments.get(authOf(request).teamId, request.params.uuid),
  );

  app.delete(
    '/flows/api/attachments/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteAttachment',
        summary: 'Delete an attachment',
        description:
          'Removes the record and the stored file. Messages already sent with it keep what was sent.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await attachments.remove(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
