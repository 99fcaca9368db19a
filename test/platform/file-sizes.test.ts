// The house rule "no source file over 400 lines", kept by the sources themselves: every file of src/,
// bench/, scripts/ and web/src/ is counted. Files still being split are listed by name; the list may only
// shrink - a new file over the limit fails, and so does a listed one that is no longer over it (strike it).
// Generated files live outside these folders (the SDK: packages/sdk).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 400;
const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'bench', 'scripts', 'web/src'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|css)$/;

/** Files over the limit today, each being split by someone. Strike a file once it is under the limit. */
const KNOWN_OVER_LIMIT: string[] = ['src/modules/linkedin-messages/linkedin-messages.routes.test.ts'];

function sourceFiles(folder: string): string[] {
  const entries = readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules'));
}

function lineCount(file: string): number {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file sizes', () => {
  const sizes = new Map(FOLDERS.flatMap(sourceFiles).map((file) => [file, lineCount(file)]));
  const over = [...sizes].filter(([, lines]) => lines > MAX_LINES).map(([file]) => file);

  it('reads the sources', () => {
    expect(sizes.size).toBeGreaterThan(500);
    expect(sizes.get('src/app.ts')).toBeGreaterThan(0);
  });

  it(`no new source file is over ${MAX_LINES} lines`, () => {
    const found = over.filter((file) => !KNOWN_OVER_LIMIT.includes(file));
    expect(found.map((file) => `${file}: ${sizes.get(file)} lines`)).toEqual([]);
  });

  it('the list of files over the limit only shrinks (strike a file once it is split)', () => {
    expect(KNOWN_OVER_LIMIT.filter((file) => !over.includes(file))).toEqual([]);
  });
});
