// The migration list is the folder: every file is listed once under its own name, in file-name order (the
// order they run in), so a migration added without its line - or a line out of order after a renumbering
// in a merge - fails here instead of being skipped on some installations.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { migrations } from './index.js';

it('lists every migration file of the folder once, in file-name order', () => {
  const folder = fileURLToPath(new URL('.', import.meta.url));
  const files = readdirSync(folder)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.ts$/.test(file))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  expect(files.length).toBeGreaterThan(30);
  expect(Object.keys(migrations)).toEqual(files);
  for (const [name, migration] of Object.entries(migrations)) {
    expect(typeof migration.up, name).toBe('function');
  }
});
