// Which files may be attached, decided from their bytes (file-type's magic numbers, and a UTF-8 check
// for plain text): images, PDF, Office and OpenDocument files, and plain text. The client's file
// name and declared type are never trusted to say what a file is; the name only picks between types
// the content cannot tell apart (a legacy Office container is a .doc, .xls or .ppt; text is .txt or .csv).
import type { Readable } from 'node:stream';
import { fileTypeFromStream } from 'file-type';

/** Sniffed type → the MIME type we store and the extension of the stored file. */
const BINARY_TYPES: Record<string, { mime: string; ext: string }> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg' },
  'image/png': { mime: 'image/png', ext: 'png' },
  'image/gif': { mime: 'image/gif', ext: 'gif' },
  'image/webp': { mime: 'image/webp', ext: 'webp' },
  'application/pdf': { mime: 'application/pdf', ext: 'pdf' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ext: 'docx',
  },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ext: 'xlsx',
  },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ext: 'pptx',
  },
  'application/vnd.oasis.opendocument.text': { mime: 'application/vnd.oasis.opendocument.text', ext: 'odt' },
  'application/vnd.oasis.opendocument.spreadsheet': {
    mime: 'application/vnd.oasis.opendocument.spreadsheet',
    ext: 'ods',
  },
  'application/vnd.oasis.opendocument.presentation': {
    mime: 'application/vnd.oasis.opendocument.presentation',
    ext: 'odp',
  },
  'application/rtf': { mime: 'application/rtf', ext: 'rtf' },
};

/** Legacy Office files are all one container format (CFB); the extension says which program. */
const LEGACY_OFFICE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** What the upload refusal lists. */
export const ACCEPTED_TYPES_TEXT =
  'JPEG, PNG, GIF and WebP images, PDF, Word, Excel and PowerPoint (.docx/.xlsx/.pptx and .doc/.xls/.ppt), ' +
  'OpenDocument, RTF, and plain text (.txt, .csv)';

export type SniffedType = { mime: string; ext: string } | { refused: string };

function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

/** Plain text: valid UTF-8 (checked over the whole file), no control bytes, not markup. */
function sniffText(head: Buffer, validUtf8: boolean, name: string): SniffedType {
  if (!validUtf8) return { refused: 'a binary file of a type we cannot identify' };
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  // Tab, line feed, form feed and carriage return are text; other C0 controls mean binary data.
  if (/[^\P{Cc}\t\n\f\r]/u.test(text)) return { refused: 'a binary file of a type we cannot identify' };
  if (/^\s*</.test(text)) return { refused: 'HTML, XML or SVG markup' };
  return extensionOf(name) === 'csv' ? { mime: 'text/csv', ext: 'csv' } : { mime: 'text/plain', ext: 'txt' };
}

/**
 * The type of a stored file. `open` streams it from the start (file-type reads as far as it needs, into
 * ZIP directories for Office files); `head` and `validUtf8` come from the upload pass for the text check.
 */
export async function sniffAttachmentType(
  open: () => Readable,
  head: Buffer,
  validUtf8: boolean,
  name: string,
): Promise<SniffedType> {
  if (head.length === 0) return { refused: 'an empty file' };
  const stream = open();
  let detected: Awaited<ReturnType<typeof fileTypeFromStream>>;
  try {
    detected = await fileTypeFromStream(stream);
  } finally {
    stream.destroy();
  }
  if (!detected) return sniffText(head, validUtf8, name);
  const known = BINARY_TYPES[detected.mime];
  if (known) return known;
  if (detected.mime === 'application/x-cfb') {
    const ext = extensionOf(name);
    const mime = LEGACY_OFFICE[ext];
    return mime
      ? { mime, ext }
      : { refused: 'a Microsoft compound file whose name does not end in .doc, .xls or .ppt' };
  }
  return { refused: `${detected.mime} (.${detected.ext})` };
}
