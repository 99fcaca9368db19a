// Nothing a test run starts may outlive it. The global setup gives the run a tag and a temp dir of its own:
// - LEADFLOW_TEST_RUN=<id> in the environment, which every process the tests start inherits (engine
//   workers, Dovecot - told to keep it -, Chromium, redis-server, a `leadflow serve` and its PostgreSQL);
// - TMPDIR pointing at /tmp/leadflow-run-<id>-XXXXXX, where every os.tmpdir() directory of the tests lands.
// At the end the teardown waits a little for stragglers, then kills what is still tagged, removes the dir
// and fails the run naming each process and each entry left behind. Concurrent runs have their own tags.
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const RUN_TAG = 'LEADFLOW_TEST_RUN';
const GRACE_MS = 15_000;

export type RunTracking = { dir: string; check(): Promise<void> };

type Tagged = { pid: number; ppid: number; command: string };

/** Processes whose environment carries `tag=runId` (Linux /proc; elsewhere none are found). */
export function taggedProcesses(runId: string): Tagged[] {
  const needle = `${RUN_TAG}=${runId}`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: Tagged[] = [];
  for (const name of pids) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
      if (!environ.includes(needle)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      // state and ppid follow the parenthesised command name.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue; // exited, waiting for its parent to reap it
      const command = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid, ppid: Number(ppid), command: command.slice(0, 200) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Tags this run (call after the run's own PostgreSQL has started) and moves its temp dir. */
export async function trackRun(runId: string): Promise<RunTracking> {
  const systemTmp = os.tmpdir();
  const dir = await fs.mkdtemp(path.join(systemTmp, `leadflow-run-${runId}-`));
  // Traversable by the users Dovecot and PostgreSQL switch to when the tests run as root.
  await fs.chmod(dir, 0o755);
  // tsx keeps its compile cache in <tmp>/tsx-<uid>: the run's processes keep sharing the usual one.
  const tsxCache = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
  await fs.mkdir(path.join(systemTmp, tsxCache), { recursive: true });
  await fs.symlink(path.join(systemTmp, tsxCache), path.join(dir, tsxCache));
  const expected = new Set([tsxCache]);
  process.env[RUN_TAG] = runId;
  process.env.TMPDIR = dir;

  async function leftovers() {
    // Vitest's own workers are this process's children; a test's process whose parent died is not.
    const processes = taggedProcesses(runId).filter((p) => p.ppid !== process.pid);
    const entries = (await fs.readdir(dir).catch(() => [])).filter((name) => !expected.has(name));
    return { processes, entries };
  }

  return {
    dir,
    async check() {
      const deadline = Date.now() + GRACE_MS;
      let left = await leftovers();
      while ((left.processes.length > 0 || left.entries.length > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        left = await leftovers();
      }
      for (const p of left.processes) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {}
      }
      await fs.rm(dir, { recursive: true, force: true });
      if (left.processes.length === 0 && left.entries.length === 0) return;
      const lines = [
        'The test run left things behind (now removed; the test that started them must stop them):',
        ...left.processes.map((p) => `  process ${p.pid}: ${p.command}`),
        ...left.entries.map((name) => `  temp entry: ${path.join(dir, name)}`),
      ];
      // Vitest logs a teardown's error but keeps the exit code: set it.
      process.exitCode = 1;
      throw new Error(lines.join('\n'));
    },
  };
}
