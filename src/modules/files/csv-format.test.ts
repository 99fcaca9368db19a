import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  binaryContent,
  cleanCell,
  csvRecord,
  detectEncoding,
  neutralizeCell,
  sniffDelimiter,
  uniqueHeaders,
} from './csv-format.js';

describe('detectEncoding', () => {
  it('recognises byte order marks, BOM-less UTF-16 and Windows-1252', () => {
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), true)).toEqual({
      encoding: 'utf-8',
      bom: true,
    });
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0x00]), false)).toEqual({
      encoding: 'utf-16le',
      bom: true,
    });
    expect(detectEncoding(Buffer.from([0xfe, 0xff, 0x00, 0x61]), false)).toEqual({
      encoding: 'utf-16be',
      bom: true,
    });
    expect(detectEncoding(Buffer.from('name,email\n', 'utf16le'), false)).toEqual({
      encoding: 'utf-16le',
      bom: false,
    });
    expect(detectEncoding(Buffer.from('name,email\n', 'utf16le').swap16(), false)).toEqual({
      encoding: 'utf-16be',
      bom: false,
    });
    expect(detectEncoding(Buffer.from('Müller', 'utf8'), true)).toEqual({ encoding: 'utf-8', bom: false });
    expect(detectEncoding(Buffer.from('M\xfcller', 'latin1'), false)).toEqual({
      encoding: 'windows-1252',
      bom: false,
    });
  });
});

describe('binaryContent', () => {
  it('names known binary formats and control bytes, and lets text and UTF-16 through', () => {
    expect(binaryContent(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]), 'utf-8')).toContain('Excel workbook');
    expect(binaryContent(Buffer.from('%PDF-1.7'), 'utf-8')).toContain('PDF');
    expect(binaryContent(Buffer.from('a,b\u0000c'), 'utf-8')).toContain('NUL');
    expect(binaryContent(Buffer.from('a,b\nc,d\n'), 'utf-8')).toBeUndefined();
    expect(binaryContent(Buffer.from('a,b\n', 'utf16le'), 'utf-16le')).toBeUndefined();
  });
});

describe('sniffDelimiter', () => {
  it('picks the delimiter that splits rows into consistent columns', () => {
    expect(sniffDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(sniffDelimiter('Name;Firma;Ort\nJürgen;"Müller, Söhne";Köln\nAnna;X;Y\n')).toBe(';');
    expect(sniffDelimiter('a\tb\tc\n1\t2\t3\n')).toBe('\t');
    expect(sniffDelimiter('a|b\n1|2\n')).toBe('|');
    // Commas inside quoted cells do not win over the real delimiter.
    expect(sniffDelimiter('name;about\nJane;"a, b, c, d"\nJohn;"e, f, g"\n')).toBe(';');
    expect(sniffDelimiter('email\njane@x.io\n')).toBe(',');
  });
});

describe('uniqueHeaders', () => {
  it('numbers repeats and names blanks', () => {
    expect(uniqueHeaders([' Email ', 'email', '', 'Email', 'Column 3'])).toEqual([
      'Email',
      'email (2)',
      'Column 3',
      'Email (3)',
      'Column 3 (2)',
    ]);
  });
});

describe('formula cells', () => {
  it('are neutralised on export and restored on import', () => {
    for (const value of ['=1+2', '+49 30 123', '-5', '@SUM(A1)', '\tx', '\rx']) {
      const exported = neutralizeCell(value);
      expect(exported).toBe(`'${value}`);
      expect(cleanCell(exported)).toBe(value.trim());
    }
    expect(neutralizeCell('plain')).toBe('plain');
    expect(cleanCell("'quoted")).toBe("'quoted");
    expect(cleanCell('   ')).toBeNull();
  });

  it('csvRecord writes RFC 4180 records that parse back to the values', () => {
    const values = ['a', null, 'with, comma', 'with "quotes"', 'two\nlines', '=evil()', '', 'ünïcode'];
    const line = csvRecord(values);
    expect(line.endsWith('\r\n')).toBe(true);
    expect(parse(line)[0]).toEqual([
      'a',
      '',
      'with, comma',
      'with "quotes"',
      'two\nlines',
      "'=evil()",
      '',
      'ünïcode',
    ]);
  });
});
