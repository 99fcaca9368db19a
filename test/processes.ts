// Child processes of tests: started so that a kill reaches the process that does the work, waited for by
// readiness (output or a health check, never a fixed sleep) and stopped by waiting for their exit. The
// global teardown (test/leftovers.ts) fails the run when one survives it.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * `leadflow <args>` from the sources: node itself with tsx's loader, not the `tsx` wrapper - the wrapper
 * runs the CLI in a second process that a SIGKILL of the wrapper leaves running.
 */
export function spawnLeadflow(args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, ...options });
}

/** Resolves when the child has exited (at once when it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Sends `signal`, waits for the exit, and SIGKILLs after `graceMs`. */
export async function stopChild(
  child: ChildProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitOf(child);
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

/** Resolves when the child writes `pattern` to stdout or stderr; rejects when it exits first or at the deadline. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => done(new Error(`not seen within ${timeoutMs} ms: ${pattern}\n${seen}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-10_000);
      if (pattern.test(seen)) done();
    };
    const onExit = () => done(new Error(`exited before ${pattern} was seen:\n${seen}`));
    function done(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
