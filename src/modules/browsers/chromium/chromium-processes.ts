// The Chromium processes seats run in. A process hosts up to `seatsPerProcess` seats, each in its own
// browser context: Chromium gives every context its own cookie jar, local storage, IndexedDB, cache,
// service workers and network context (so its own proxy, set per context), and never puts two contexts'
// pages in one renderer process. What the seats of a process share is the browser, GPU and network
// service processes (and the browser's version, so its fingerprint - as seats on one machine always
// did). Sharing them is what makes a seat cheap: benchmarks (`npm run bench -- linkedin-options`) put
// the browser and its helper processes at well over half of a lone seat's memory. A process starts for
// the first context that finds no room and closes with its last context; a crash closes its contexts
// (each seat's owner sees its context close).
import type { Logger } from 'pino';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { LAUNCH_IDENTITY } from './seat-identity.js';

/** Every seat process's command line: no GPU, no /dev/shm (containers), muted; no automation markers. */
export const BROWSER_ARGS = [
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--no-first-run',
  '--mute-audio',
  ...LAUNCH_IDENTITY.args,
];

export type BrowserProcesses = {
  /** A new context in a process with room for it (one is started when none has). */
  newContext(options: BrowserContextOptions): Promise<BrowserContext>;
  /** How many Chromium processes are running (or starting). */
  count(): number;
  /** Closes every process (and so every context). */
  closeAll(): Promise<void>;
};

type Process = { browser: Promise<Browser>; contexts: number };

export function createBrowserProcesses(options: {
  executablePath: string;
  seatsPerProcess: number;
  logger?: Logger;
}): BrowserProcesses {
  const running = new Set<Process>();
  /** Processes on their way out (closeAll waits for them: Chromium removes its temporary files last). */
  const exiting = new Set<Promise<void>>();

  async function launch(): Promise<Browser> {
    // Loaded on the first launch: most processes never start a browser, and the module is heavy to load.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      ignoreDefaultArgs: LAUNCH_IDENTITY.ignoreDefaultArgs,
      args: BROWSER_ARGS,
    });
    options.logger?.info({ processes: running.size }, 'seat browser process started');
    return browser;
  }

  function end(proc: Process): Promise<void> {
    const exit = proc.browser.then((browser) => browser.close()).catch(() => {});
    exiting.add(exit);
    void exit.finally(() => exiting.delete(exit));
    return exit;
  }

  function forget(proc: Process) {
    if (running.delete(proc)) void end(proc);
  }

  function withRoom(): Process {
    for (const proc of running) if (proc.contexts < options.seatsPerProcess) return proc;
    const proc: Process = { browser: launch(), contexts: 0 };
    running.add(proc);
    proc.browser.then(
      (browser) => browser.on('disconnected', () => running.delete(proc)),
      () => running.delete(proc),
    );
    return proc;
  }

  return {
    async newContext(contextOptions) {
      const proc = withRoom();
      proc.contexts += 1;
      let context: BrowserContext;
      try {
        context = await (await proc.browser).newContext(contextOptions);
      } catch (error) {
        proc.contexts -= 1;
        if (proc.contexts === 0) forget(proc);
        throw error;
      }
      context.on('close', () => {
        proc.contexts -= 1;
        // The last seat of the process left: the process goes too (the next seat starts a new one).
        if (proc.contexts === 0) forget(proc);
      });
      return context;
    },
    count: () => running.size,
    async closeAll() {
      const all = [...running];
      running.clear();
      await Promise.all([...all.map(end), ...exiting]);
    },
  };
}
