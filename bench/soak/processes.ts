// The soak's moving parts: the database (an embedded PostgreSQL, or a Citus cluster with two workers)
// and the Leadflow processes (API and worker roles as separate `leadflow` processes), each of which
// the chaos loop may kill -9 and start again.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { startCitusCluster } from '../../test/citus/cluster.js';

const root = path.resolve(import.meta.dirname, '../..');

export type SoakDatabase = {
  url: string;
  kind: 'postgresql' | 'citus';
  /** Fast shutdown and start of the server (the coordinator on Citus). */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

export async function startSoakDatabase(kind: 'postgresql' | 'citus'): Promise<SoakDatabase> {
  const settings = { max_connections: '400', shared_buffers: '256MB' };
  if (kind === 'citus') {
    const cluster = await startCitusCluster({ workers: 2, settings });
    await cluster.createDatabase('leadflow');
    return {
      url: cluster.urlOf('leadflow'),
      kind,
      restart: () => cluster.restart(cluster.coordinator),
      stop: () => cluster.stop(),
    };
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-soak-'));
  await fs.chmod(dataDir, 0o755);
  let server = await startEmbeddedPostgres({ dataDir, port: 0, settings });
  const port = Number(new URL(server.url).port);
  const url = new URL(server.url);
  url.pathname = '/postgres';
  return {
    url: url.toString(),
    kind,
    async restart() {
      await server.stop();
      server = await startEmbeddedPostgres({ dataDir, port, settings });
    },
    async stop() {
      await server.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type LeadflowProcess = {
  name: string;
  role: 'api' | 'worker';
  /** Base URL of an API process. */
  base?: string;
  child: ChildProcess;
  kills: number;
  /** kill -9, then start it again (its port and environment unchanged). */
  crash(): Promise<void>;
  stop(): Promise<void>;
};

async function waitHealthy(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`API did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function startLeadflow(
  name: string,
  role: 'api' | 'worker',
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<LeadflowProcess> {
  const port = role === 'api' ? await freePort() : 0;
  const base = role === 'api' ? `http://127.0.0.1:${port}` : undefined;
  let output = '';
  const launch = async () => {
    output = '';
    // node itself with tsx's loader: a kill -9 of the `tsx` wrapper would leave its child running.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', role], {
      cwd: root,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    if (base) await waitHealthy(base, child, () => output);
    return child;
  };
  const proc: LeadflowProcess = {
    name,
    role,
    base,
    child: await launch(),
    kills: 0,
    async crash() {
      proc.kills += 1;
      proc.child.kill('SIGKILL');
      await new Promise((resolve) => proc.child.once('exit', resolve));
      log(`  chaos: killed ${name} (kill -9), starting it again`);
      proc.child = await launch();
    },
    async stop() {
      if (proc.child.exitCode !== null) return;
      proc.child.kill('SIGTERM');
      const exited = new Promise((resolve) => proc.child.once('exit', resolve));
      const timeout = new Promise((resolve) => setTimeout(resolve, 30_000));
      await Promise.race([exited, timeout]);
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    },
  };
  return proc;
}
