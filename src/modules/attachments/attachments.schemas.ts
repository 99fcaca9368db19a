import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid } from '../../http/schemas.js';
import { ACCEPTED_TYPES_TEXT } from './attachment-types.js';
import { attachmentFilterFields, attachmentSort } from './attachments.repository.js';

/** The smallest text a PDF sniffer recognises: the example's size must match the bytes sent. */
const EXAMPLE_PDF = '%PDF-1.7\n%%EOF\n';

export const Attachment = Type.Object(
  {
    uuid: Uuid('Referenced as attachments: [{uuid}] when sending a LinkedIn message or an e-mail'),
    team_id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'Who uploaded it' })),
    payload: Type.Object({
      name: Type.String({ description: 'File name shown to recipients' }),
      path: Type.String({ description: 'Where the file is stored (opaque)' }),
      size: Type.String({ description: 'Size in bytes, as a string (as the hosted service sends it)' }),
      type: Type.String({ description: 'MIME type sniffed from the content' }),
    }),
    body: Type.Null({ description: 'Always null (kept for compatibility)' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'Attachment' },
);

export const AttachmentPage = Envelope(Attachment);
export const AttachmentsQuery = ListQuery(attachmentSort, Object.keys(attachmentFilterFields));

// The multipart body is read by the handler as a stream; this schema only documents it (no `type`).
export const AttachmentUploadForm = {
  content: {
    'multipart/form-data': {
      schema: {
        properties: {
          attachment: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: `The file (the field may also be named "file"). Accepted: ${ACCEPTED_TYPES_TEXT}.`,
          },
          payload: {
            type: 'string',
            contentMediaType: 'application/json',
            description:
              'Optional JSON object {name, size, type}: name replaces the uploaded file name; size, when given, ' +
              'must equal the bytes received (a truncated upload is refused); type is informational - the stored ' +
              'type is sniffed from the content. The fields may also be sent as payload[name], payload[size], payload[type].',
          },
        },
        required: ['attachment'],
        additionalProperties: false,
        examples: [
          {
            attachment: EXAMPLE_PDF,
            payload: JSON.stringify({
              name: 'brochure.pdf',
              size: String(Buffer.byteLength(EXAMPLE_PDF)),
              type: 'application/pdf',
            }),
          },
        ],
      },
    },
  },
};
