// The soak in short (npm run soak runs it for as long as asked): one minute on an embedded PostgreSQL,
// two API and two worker processes under a fixed mixed load, a kill -9 every 10-20 s and one database
// restart. One minute, not the two, to keep CI within its time; the 30-minute runs are in the
// README. The soak's own checks (no lost write, nothing sent twice, webhooks delivered and signed, no
// stuck enrollment, counters equal recounts, no client error left after retries) must all hold.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

it('holds every invariant through a minute of load, crashes and a database restart', async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve) => {
      execFile(
        path.join(root, 'node_modules/.bin/tsx'),
        ['bench/soak.ts', '--minutes', '1', '--rate', '6'],
        { cwd: root, timeout: 600_000, maxBuffer: 10_000_000 },
        (error, out, err) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
      );
    },
  );
  expect(stdout, stderr.slice(-4000)).toContain('ok   no lost write');
  for (const line of stdout.split('\n').filter((l) => /^(ok|FAIL) /.test(l))) expect(line).toMatch(/^ok /);
  expect(stdout).toMatch(/1 database restart/);
  expect(code, stdout).toBe(0);
}, 660_000);
