// What a CSV file from a spreadsheet really looks like: its character encoding (UTF-8 with or without
// BOM, UTF-16 from "Unicode text" exports, Windows-1252 from older Excel), its delimiter (comma,
// semicolon in European locales, tab, pipe), header names that repeat or are blank, and cells that a
// spreadsheet would run as formulas. Pure functions and stream factories; no I/O.

import { pipeline, type Readable, type Transform } from 'node:stream';
import { type Parser, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';

export const CSV_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

export type CsvFormat = { encoding: CsvEncoding; bom: boolean; delimiter: string };

/** Bytes of the file start looked at to detect the encoding and the delimiter. */
export const HEAD_BYTES = 64 * 1024;
/** More columns than this is not a contact list but a misread file. */
export const MAX_COLUMNS = 1000;

/** The encoding of a file from its first bytes and whether the whole file is valid UTF-8. */
export function detectEncoding(head: Buffer, validUtf8: boolean): { encoding: CsvEncoding; bom: boolean } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: true };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: true };
  // UTF-16 without a BOM: ASCII text leaves every other byte zero.
  let evenZeros = 0;
  let oddZeros = 0;
  const length = Math.min(head.length, 4096) & ~1;
  for (let i = 0; i < length; i += 2) {
    if (head[i] === 0) evenZeros++;
    if (head[i + 1] === 0) oddZeros++;
  }
  const pairs = length / 2;
  if (pairs >= 2 && oddZeros > pairs * 0.3 && evenZeros < pairs * 0.05)
    return { encoding: 'utf-16le', bom: false };
  if (pairs >= 2 && evenZeros > pairs * 0.3 && oddZeros < pairs * 0.05)
    return { encoding: 'utf-16be', bom: false };
  // Not valid UTF-8: the legacy single-byte encoding spreadsheets write on Windows.
  return { encoding: validUtf8 ? 'utf-8' : 'windows-1252', bom: false };
}

const SIGNATURES: Array<[number[], string]> = [
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive or an Excel workbook (.xlsx); save it as CSV'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Excel workbook (.xls); save it as CSV'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

/** Why the file start is not text (a known binary format, or control bytes), or undefined. */
export function binaryContent(head: Buffer, encoding: CsvEncoding): string | undefined {
  for (const [signature, description] of SIGNATURES) {
    if (signature.every((byte, index) => head[index] === byte)) return description;
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return undefined;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return 'binary data (it contains NUL bytes)';
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  }
  return control > head.length * 0.01 ? 'binary data' : undefined;
}

/** Decodes the file's bytes to text, dropping a byte order mark. */
export function decoder(encoding: CsvEncoding): Transform {
  return iconv.decodeStream(encoding, { stripBOM: true }) as unknown as Transform;
}

export function decodeHead(head: Buffer, encoding: CsvEncoding): string {
  return iconv.decode(head, encoding, { stripBOM: true });
}

const PARSE_OPTIONS = {
  relax_quotes: true,
  relax_column_count: true,
  // Empty lines come through as records so row numbers match what a spreadsheet shows.
  skip_empty_lines: false,
  max_record_size: 1024 * 1024,
} as const;

/** A streaming parser: text in, one array of cells per record out. */
export function csvParser(delimiter: string): Parser {
  return parse({ ...PARSE_OPTIONS, delimiter });
}

/**
 * The records of a stored file, read through its encoding. An error anywhere (the file is gone, a
 * read fails, the CSV is malformed) ends the iteration with that error, and stopping the iteration
 * early closes the file.
 */
export function readRecords(
  source: Readable,
  format: Pick<CsvFormat, 'encoding' | 'delimiter'>,
): AsyncIterable<string[]> {
  const records = csvParser(format.delimiter);
  pipeline(source, decoder(format.encoding), records, () => {});
  return records;
}

/**
 * The delimiter that splits the start of the file into the most consistent columns: every candidate
 * parses the first records, and the one whose records most often have the header's column count wins
 * (ties: more columns, then the order comma, semicolon, tab, pipe). One column: comma.
 */
export function sniffDelimiter(text: string): string {
  // Drop a line cut off at the end of the sample.
  const cut = text.length >= HEAD_BYTES / 4 ? text.slice(0, Math.max(text.lastIndexOf('\n'), 0)) : text;
  let best = { delimiter: ',', score: 0 };
  for (const delimiter of CSV_DELIMITERS) {
    let records: string[][];
    try {
      records = (parseSync(cut, { ...PARSE_OPTIONS, delimiter, to_line: 100 }) as string[][]).filter(
        (record) => !isEmptyRecord(record),
      );
    } catch {
      continue;
    }
    const width = records[0]?.length ?? 0;
    if (width < 2) continue;
    const consistent = records.filter((record) => record.length === width).length / records.length;
    const score = consistent * 10_000 + Math.min(width, 9_999);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/**
 * Header names a mapping can pick unambiguously: trimmed, blank ones named "Column N" (1-based
 * position), repeats numbered "Email (2)", "Email (3)".
 */
export function uniqueHeaders(cells: string[]): string[] {
  const seen = new Set<string>();
  return cells.map((cell, index) => {
    const base = cell.replace(/\s+/g, ' ').trim() || `Column ${index + 1}`;
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

export function isEmptyRecord(cells: string[]): boolean {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
}

// Spreadsheets run a cell as a formula when it starts with one of these (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as imported: trimmed, null when blank. A leading apostrophe in front of a formula character
 * is the escape our exports (and spreadsheets) put there; it is removed so an export re-imports as
 * the same values.
 */
export function cleanCell(value: string | undefined): string | null {
  if (value === undefined) return null;
  let text = value.trim();
  if (text.length > 1 && text.charCodeAt(0) === 39 && FORMULA_START.test(text.slice(1)))
    text = text.slice(1).trim();
  return text === '' ? null : text;
}

/** A cell as exported: values a spreadsheet would run as a formula get a leading apostrophe. */
export function neutralizeCell(value: string): string {
  return value.length > 0 && FORMULA_START.test(value) ? `'${value}` : value;
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV record (RFC 4180, comma, CRLF) of text cells, formula cells neutralised; null is an empty
 * cell. Exports format a million rows with it: csv-stringify's per-field options cost about four times
 * as much for the same output, which would halve the export rate.
 */
export function csvRecord(values: ReadonlyArray<string | null | undefined>): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    const value = values[i];
    if (value === null || value === undefined || value === '') continue;
    const cell = neutralizeCell(value);
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
  }
  return `${line}\r\n`;
}
