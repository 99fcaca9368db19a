// Whether Chromium can start in this process: the executable exists and runs (`--version`). A seat
// created or started where it cannot says so at once (status `start_issue`, the reason naming
// LEADFLOW_CHROMIUM_PATH) instead of failing every action later.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';

const PROBE_TIMEOUT_MS = 20_000;
/** A failed probe is repeated after this long (someone may have installed Chromium meanwhile). */
const RETRY_AFTER_MS = 60_000;

function advice(executable: string): string {
  return `install Chromium (apt-get install chromium) or set LEADFLOW_CHROMIUM_PATH to its executable (now ${executable})`;
}

/** Why `executable` cannot run as Chromium, or undefined when `--version` answers. */
export async function chromiumStartProblem(executable: string): Promise<string | undefined> {
  try {
    await fs.access(executable, fs.constants.X_OK);
  } catch {
    return `Chromium cannot start: ${executable} does not exist or is not executable; ${advice(executable)}.`;
  }
  return new Promise((resolve) => {
    execFile(executable, ['--version'], { timeout: PROBE_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (!error && /chrom/i.test(stdout)) return resolve(undefined);
      const said = (stderr || error?.message || stdout).trim().split('\n')[0]?.slice(0, 200);
      resolve(
        `Chromium cannot start: ${executable} --version failed (${said || 'no output'}); ${advice(executable)}.`,
      );
    });
  });
}

/** A probe shared by a process's callers: one run at a time, a success kept, a failure retried later. */
export function chromiumProbe(executable: string, onProblem: (problem: string) => void) {
  let last: { at: number; result: Promise<string | undefined> } | undefined;
  return (): Promise<string | undefined> => {
    const now = Date.now();
    if (last) {
      const current = last;
      const stale = current.result.then(
        (problem) => problem !== undefined && now - current.at > RETRY_AFTER_MS,
      );
      return stale.then((again) => (again ? probe(now) : current.result));
    }
    return probe(now);
  };

  function probe(at: number) {
    const result = chromiumStartProblem(executable).then((problem) => {
      if (problem) onProblem(problem);
      return problem;
    });
    last = { at, result };
    return result;
  }
}
