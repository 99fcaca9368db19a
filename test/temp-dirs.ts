// Temporary directories of a test file, removed after its last test (test/file-setup.ts) - whether or not
// the file remembered to. They live under the run's own temp dir (test/leftovers.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const made = new Set<string>();

/** A new directory `<tmp>/<prefix>XXXXXX`, removed when the test file ends. */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all([...made].map((dir) => rm(dir, { recursive: true, force: true })));
  made.clear();
}
