// Receiving an uploaded CSV: the multipart file part is streamed straight into the file store (never
// buffered whole), its first bytes kept and its UTF-8 validity checked on the way; then one streaming
// pass over the stored file reads the header, counts the rows and keeps a few sample rows.
import { type Readable, Transform } from 'node:stream';
import { AppError, invalidField } from '../../lib/errors.js';
import {
  binaryContent,
  type CsvFormat,
  decodeHead,
  detectEncoding,
  HEAD_BYTES,
  isEmptyRecord,
  MAX_COLUMNS,
  readRecords,
  sniffDelimiter,
  uniqueHeaders,
} from './csv-format.js';
import type { FileStore } from './storage.js';

export type UploadPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable & { truncated?: boolean } }
  | { type: 'field'; fieldname: string; value: unknown };

export type StoredUpload = {
  fileName: string;
  sizeBytes: number;
  /** Text fields of the form (e.g. `type`). */
  fields: Record<string, string>;
  head: Buffer;
  validUtf8: boolean;
};

export type InspectedCsv = {
  format: CsvFormat;
  headers: string[];
  rowsCount: number;
  sampleRows: Record<string, string>[];
};

const SAMPLE_ROWS = 5;

export function tooLarge(maxBytes: number): AppError {
  const mb = maxBytes / (1024 * 1024);
  const size = mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${maxBytes} bytes`;
  return new AppError(
    'payload_too_large',
    `The file is larger than the upload limit of ${size} (LEADFLOW_UPLOAD_MAX_BYTES); split it into smaller files.`,
    { file: [`must be at most ${maxBytes} bytes`] },
  );
}

/** Passes bytes through, keeping the first HEAD_BYTES and checking the whole stream is valid UTF-8. */
export function inspector() {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const chunks: Buffer[] = [];
  let kept = 0;
  let validUtf8 = true;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (kept < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - kept);
        chunks.push(part);
        kept += part.length;
      }
      if (validUtf8) {
        try {
          utf8.decode(chunk, { stream: true });
        } catch {
          validUtf8 = false;
        }
      }
      done(null, chunk);
    },
    flush(done) {
      if (validUtf8) {
        try {
          utf8.decode();
        } catch {
          validUtf8 = false;
        }
      }
      done();
    },
  });
  return { stream, result: () => ({ head: Buffer.concat(chunks), validUtf8 }) };
}

/**
 * Stores the `file` part of a multipart request under `key`. The other parts may be the text fields
 * named in `textFields` (any other is refused like an unknown body field); a second file, or no file at
 * all, is a 422. Over `maxBytes` the stored part is removed and the request fails with 413.
 */
export async function storeUpload(
  store: FileStore,
  key: string,
  parts: AsyncIterable<UploadPart>,
  maxBytes: number,
  textFields: readonly string[],
): Promise<StoredUpload> {
  const fields: Record<string, string> = {};
  let stored: Omit<StoredUpload, 'fields'> | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!textFields.includes(part.fieldname)) {
          throw invalidField(
            part.fieldname,
            `The ${part.fieldname} field is not accepted here. Accepted fields: file, ${textFields.join(', ')}.`,
          );
        }
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || stored) {
        part.file.resume();
        throw invalidField(
          part.fieldname,
          stored
            ? 'Send one file per upload, in the multipart field "file".'
            : `Send the CSV in the multipart field "file" (got a file in "${part.fieldname}").`,
        );
      }
      const check = inspector();
      // A client that aborts mid-upload errors the part; end the store's write with it.
      part.file.on('error', (error) => check.stream.destroy(error));
      const sizeBytes = await store.write(key, part.file.pipe(check.stream));
      if (part.file.truncated) throw tooLarge(maxBytes);
      stored = { fileName: part.filename || 'upload.csv', sizeBytes, ...check.result() };
    }
  } catch (error) {
    await store.delete(key);
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    throw error;
  }
  if (!stored) {
    throw invalidField('file', 'Send the CSV as multipart/form-data in the field "file".');
  }
  return { ...stored, fields };
}

function notCsv(message: string): AppError {
  return new AppError('validation_error', `The file is not a CSV we can read: ${message}`, {
    file: [message],
  });
}

/** The format of a stored upload and, from one streaming pass, its header, row count and samples. */
export async function inspectUpload(
  store: FileStore,
  key: string,
  upload: StoredUpload,
): Promise<InspectedCsv> {
  if (upload.sizeBytes === 0) throw notCsv('it is empty.');
  const { encoding, bom } = detectEncoding(upload.head, upload.validUtf8);
  const binary = binaryContent(upload.head, encoding);
  if (binary) throw notCsv(`it looks like ${binary}.`);
  const text = decodeHead(upload.head, encoding);
  if (/^\s*(\{|\[\s*[{"[\]]|<)/.test(text)) throw notCsv('it looks like JSON, XML or HTML.');
  const format: CsvFormat = { encoding, bom, delimiter: sniffDelimiter(text) };

  let headers: string[] | undefined;
  let rowsCount = 0;
  const sampleRows: Record<string, string>[] = [];
  try {
    for await (const record of readRecords(store.read(key), format)) {
      if (isEmptyRecord(record)) continue;
      if (!headers) {
        if (record.length > MAX_COLUMNS) {
          throw notCsv(`its first row has ${record.length} columns (at most ${MAX_COLUMNS} are read).`);
        }
        headers = uniqueHeaders(record);
        continue;
      }
      rowsCount++;
      if (sampleRows.length < SAMPLE_ROWS) {
        sampleRows.push(Object.fromEntries(headers.map((header, index) => [header, record[index] ?? ''])));
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const parseError = error as { code?: string; message?: string; lines?: number };
    if (parseError.code?.startsWith('CSV_')) {
      throw notCsv(`${parseError.message ?? parseError.code}.`);
    }
    throw error;
  }
  if (!headers) throw notCsv('it has no header row (the file holds only empty lines).');
  return { format, headers, rowsCount, sampleRows };
}
