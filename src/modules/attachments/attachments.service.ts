// Attachments: a file uploaded once (multipart), its type sniffed from its bytes, kept in the file
// store, and referenced by uuid from LinkedIn messages and e-mails (`requireAttachments`).
import type { Database, Executor } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import type { FileStore } from '../files/storage.js';
import { inspector, type UploadPart } from '../files/uploads.js';
import { ACCEPTED_TYPES_TEXT, sniffAttachmentType } from './attachment-types.js';
import * as repo from './attachments.repository.js';

type Actor = { teamId: number; userId: number | null };

const FILE_FIELDS = ['attachment', 'file'];
const PAYLOAD_KEYS = ['name', 'size', 'type'] as const;
type DeclaredPayload = Partial<Record<(typeof PAYLOAD_KEYS)[number], unknown>>;

export function presentAttachment(row: {
  uuid: string;
  team_id: number;
  user_id: number | null;
  name: string;
  storage_key: string;
  size_bytes: number;
  mime_type: string;
  created_at: Date;
  updated_at: Date;
}) {
  return {
    uuid: row.uuid,
    team_id: row.team_id,
    user_id: row.user_id,
    payload: { name: row.name, path: row.storage_key, size: String(row.size_bytes), type: row.mime_type },
    body: null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function tooLarge(maxBytes: number): AppError {
  const mb = maxBytes / (1024 * 1024);
  const size = mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${maxBytes} bytes`;
  return new AppError(
    'payload_too_large',
    `The attachment is larger than the limit of ${size} (LEADFLOW_ATTACHMENT_MAX_BYTES).`,
    { attachment: [`must be at most ${maxBytes} bytes`] },
  );
}

/**
 * The `payload` part: a JSON object, or bracket fields payload[name]... merged into `into`. A part sent
 * with Content-Type application/json arrives parsed (the multipart parser reads it), a plain one as text.
 */
function readPayloadField(fieldname: string, value: unknown, into: DeclaredPayload) {
  if (fieldname === 'payload') {
    let parsed: unknown = value;
    try {
      if (typeof value === 'string') parsed = JSON.parse(value);
    } catch {
      throw invalidField('payload', 'payload must be a JSON object {"name", "size", "type"}.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidField('payload', 'payload must be a JSON object {"name", "size", "type"}.');
    }
    for (const [key, v] of Object.entries(parsed)) setPayloadKey(key, v, into);
    return;
  }
  const key = /^payload\[([^\]]*)\]$/.exec(fieldname)?.[1];
  if (key === undefined) {
    throw invalidField(
      fieldname,
      `The ${fieldname} field is not accepted here. Accepted fields: attachment (or file), payload.`,
    );
  }
  setPayloadKey(key, value, into);
}

function setPayloadKey(key: string, value: unknown, into: DeclaredPayload) {
  if (!(PAYLOAD_KEYS as readonly string[]).includes(key)) {
    throw invalidField(
      `payload.${key}`,
      `payload.${key} is not accepted. Accepted payload fields: ${PAYLOAD_KEYS.join(', ')}.`,
    );
  }
  into[key as (typeof PAYLOAD_KEYS)[number]] = value;
}

function declaredName(payload: DeclaredPayload): string | undefined {
  if (payload.name === undefined || payload.name === null) return undefined;
  if (typeof payload.name !== 'string' || payload.name.trim() === '' || payload.name.length > 255) {
    throw invalidField('payload.name', 'payload.name must be a file name of 1 to 255 characters.');
  }
  return payload.name;
}

function declaredSize(payload: DeclaredPayload): number | undefined {
  if (payload.size === undefined || payload.size === null || payload.size === '') return undefined;
  const size = typeof payload.size === 'string' ? Number(payload.size.trim()) : payload.size;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw invalidField('payload.size', 'payload.size must be the file size in bytes (a whole number).');
  }
  return size;
}

/** A display name without directories or control characters (browsers send "C:\fakepath\x.pdf"). */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/\p{Cc}/gu, '').trim();
  return (cleaned || 'attachment').slice(0, 255);
}

export function createAttachmentsService(deps: { db: Database; store: FileStore; maxBytes: number }) {
  const { db, store, maxBytes } = deps;

  async function requireAttachment(teamId: number, uuid: string) {
    const row = await repo.selectAttachment(db, teamId, uuid);
    if (!row) throw notFound('Attachment');
    return row;
  }

  return {
    maxBytes,

    /**
     * Streams the file part into the store, then sniffs its type; a refused type or a size over the
     * limit removes the stored bytes and nothing is recorded.
     */
    async upload(actor: Actor, parts: AsyncIterable<UploadPart>) {
      const uuid = newId();
      const key = `attachments/${actor.teamId}/${uuid}`;
      const payload: DeclaredPayload = {};
      let stored: { filename: string; size: number; head: Buffer; validUtf8: boolean } | undefined;
      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            readPayloadField(part.fieldname, part.value, payload);
            continue;
          }
          if (!FILE_FIELDS.includes(part.fieldname) || stored) {
            part.file.resume();
            throw invalidField(
              part.fieldname,
              stored
                ? 'Send one file per upload, in the multipart field "attachment".'
                : `Send the file in the multipart field "attachment" (got a file in "${part.fieldname}").`,
            );
          }
          const check = inspector();
          part.file.on('error', (error) => check.stream.destroy(error));
          const size = await store.write(key, part.file.pipe(check.stream));
          if (part.file.truncated) throw tooLarge(maxBytes);
          stored = { filename: part.filename, size, ...check.result() };
        }
        if (!stored) {
          throw invalidField('attachment', 'Send the file as multipart/form-data in the field "attachment".');
        }
        const name = cleanName(declaredName(payload) ?? stored.filename ?? '');
        const size = declaredSize(payload);
        if (size !== undefined && size !== stored.size) {
          throw invalidField(
            'payload.size',
            `payload.size says ${size} bytes but ${stored.size} bytes arrived; the upload was incomplete or the size is wrong.`,
          );
        }
        const type = await sniffAttachmentType(() => store.read(key), stored.head, stored.validUtf8, name);
        if ('refused' in type) {
          throw new AppError(
            'unsupported_media_type',
            `This file cannot be attached: it is ${type.refused}. Accepted: ${ACCEPTED_TYPES_TEXT}.`,
            { attachment: [`refused type: ${type.refused}`] },
          );
        }
        const row = await repo.insertAttachment(db, {
          team_id: actor.teamId,
          uuid,
          user_id: actor.userId,
          name,
          storage_key: key,
          size_bytes: stored.size,
          mime_type: type.mime,
        });
        return presentAttachment(row);
      } catch (error) {
        await store.delete(key);
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
        if ((error as { code?: string }).code === 'FST_INVALID_JSON_FIELD_ERROR') {
          // The parser reads a part declared application/json; the only such part here is payload.
          throw invalidField('payload', 'payload must be a JSON object {"name", "size", "type"}.');
        }
        throw error;
      }
    },

    async get(teamId: number, uuid: string) {
      return presentAttachment(await requireAttachment(teamId, uuid));
    },

    async list(teamId: number, query: PageParams & { filter?: unknown }) {
      const page = resolvePage(query, repo.attachmentSort);
      const { rows, total } = await repo.selectAttachments(db, teamId, query.filter, page);
      return envelope(rows.map(presentAttachment), total, page);
    },

    /** Removes the record, then the bytes (a crash in between leaves an orphan file, never a dangling record). */
    async remove(teamId: number, uuid: string) {
      const deleted = await repo.deleteAttachment(db, teamId, uuid);
      if (!deleted) throw notFound('Attachment');
      await store.delete(deleted.storage_key);
    },

    /** The stored bytes of an attachment (for channels that send it). */
    open(storageKey: string) {
      return store.read(storageKey);
    },
  };
}

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;

/**
 * The attachments `refs` name, all of this team's; an unknown one is a 422 naming
 * `<field>[i].uuid`. Channels (LinkedIn messages, e-mails) call this when a send is queued.
 */
export async function requireAttachments(
  db: Executor,
  teamId: number,
  refs: ReadonlyArray<{ uuid: string }>,
  field = 'attachments',
) {
  const rows = await repo.selectAttachmentsByUuids(
    db,
    teamId,
    refs.map((ref) => ref.uuid),
  );
  const known = new Map(rows.map((row) => [row.uuid, row]));
  const missing = refs.findIndex((ref) => !known.has(ref.uuid));
  if (missing >= 0) {
    throw invalidField(
      `${field}[${missing}].uuid`,
      `${field}[${missing}].uuid: no attachment of yours has this UUID; upload it with POST /flows/api/attachments first.`,
    );
  }
  return refs.map((ref) => known.get(ref.uuid)!);
}
