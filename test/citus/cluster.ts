// A throwaway Citus cluster on this machine: a coordinator and N workers, each Debian's PostgreSQL 15
// with Citus preloaded, in temp dirs on free loopback ports (trust authentication on loopback only).
// Used by `npm run test:citus`, the Citus benchmarks and the soak. `../shared/vendor/citus/build.sh`
// (or Citus' own packages) installs Citus into Debian's PostgreSQL 15.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const PG_BIN = process.env.LEADFLOW_CITUS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const USER = 'leadflow';

export type CitusNode = { name: string; port: number; dataDir: string; pid: number; url: string };

/** Where the nodes listen: plain data, passed to test processes in LEADFLOW_TEST_CITUS. */
export type CitusTopology = { coordinator: string; workers: string[] };

export type CitusDatabases = {
  topology: CitusTopology;
  /** URL of `database` on the coordinator (or on the node whose server URL is given). */
  urlOf(database: string, serverUrl?: string): string;
  /** Creates `database` on every node with the citus extension, and registers the workers in it. */
  createDatabase(database: string, options?: { workers?: number }): Promise<void>;
  /** `create database name template template` on every node (the clone keeps the shard layout). */
  cloneDatabase(template: string, name: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
};

export type CitusCluster = CitusDatabases & {
  coordinator: CitusNode;
  workers: CitusNode[];
  /** Fast shutdown and restart of one node (its data kept). */
  restart(node: CitusNode): Promise<void>;
  stop(): Promise<void>;
};

/** The cluster `npm run test:citus` started, from LEADFLOW_TEST_CITUS (JSON of a CitusTopology). */
export function citusTopologyFromEnv(): CitusTopology | undefined {
  const value = process.env.LEADFLOW_TEST_CITUS;
  return value ? (JSON.parse(value) as CitusTopology) : undefined;
}

function topologyOf(coordinator: CitusNode, workers: CitusNode[]): CitusTopology {
  return { coordinator: coordinator.url, workers: workers.map((w) => w.url) };
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onNode<T>(serverUrl: string, database: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, database) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Databases on a running cluster: each one exists on every node, as Citus needs. */
export function citusDatabases(topology: CitusTopology): CitusDatabases {
  const nodes = [topology.coordinator, ...topology.workers];
  const port = (serverUrl: string) => Number(new URL(serverUrl).port);
  // A database with Citus keeps a maintenance daemon connected, and CREATE DATABASE ... TEMPLATE needs
  // the template free of connections: end them (nothing reconnects while nobody uses the template).
  const freeTemplate = (node: string, template: string) =>
    onNode(node, 'postgres', (c) =>
      c.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [template],
      ),
    );
  return {
    topology,
    urlOf: (database, serverUrl = topology.coordinator) => databaseUrl(serverUrl, database),
    async createDatabase(database, { workers: count = topology.workers.length } = {}) {
      for (const node of nodes) {
        await onNode(node, 'postgres', (c) => c.query(`create database ${ident(database)}`));
        await onNode(node, database, (c) => c.query('create extension if not exists citus'));
      }
      await onNode(topology.coordinator, database, async (c) => {
        await c.query('select citus_set_coordinator_host($1, $2)', ['127.0.0.1', port(topology.coordinator)]);
        for (const worker of topology.workers.slice(0, count)) {
          await c.query('select citus_add_node($1, $2)', ['127.0.0.1', port(worker)]);
        }
      });
    },
    async cloneDatabase(template, name) {
      for (const node of [...topology.workers, topology.coordinator]) {
        for (let attempt = 0; ; attempt += 1) {
          await freeTemplate(node, template);
          try {
            await onNode(node, 'postgres', (c) =>
              c.query(`create database ${ident(name)} template ${ident(template)} strategy file_copy`),
            );
            break;
          } catch (error) {
            // The template was opened again in between (a maintenance daemon starting): retry.
            if (attempt >= 5 || !String(error).includes('being accessed by other users')) throw error;
          }
        }
      }
    },
    async dropDatabase(name) {
      for (const node of nodes) {
        await onNode(node, 'postgres', (c) =>
          c.query(`drop database if exists ${ident(name)} with (force)`),
        ).catch(() => {});
      }
    },
  };
}

/** Why Citus cannot run here, or undefined when it can. */
export function citusUnavailable(): string | undefined {
  if (!existsSync(path.join(PG_BIN, 'postgres'))) return `no PostgreSQL 15 server in ${PG_BIN}`;
  try {
    const libdir = execFileSync(path.join(PG_BIN, 'pg_config'), ['--pkglibdir'], { encoding: 'utf8' }).trim();
    if (!existsSync(path.join(libdir, 'citus.so'))) return `Citus is not installed in ${libdir}`;
  } catch {
    return `${PG_BIN}/pg_config did not answer`;
  }
  return undefined;
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

// PostgreSQL refuses to run as root: as root, the servers run as the `postgres` system user.
function serverUser(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export type ClusterOptions = {
  workers?: number;
  /** Extra `postgres -c` settings for every node. */
  settings?: Record<string, string>;
  /** Parent of the node directories (default: the OS temp dir). */
  baseDir?: string;
  log?: (line: string) => void;
};

export async function startCitusCluster(options: ClusterOptions = {}): Promise<CitusCluster> {
  const why = citusUnavailable();
  if (why) throw new Error(`Citus cannot run: ${why} (run ../shared/vendor/citus/build.sh as root)`);
  const log = options.log ?? (() => {});
  const owner = serverUser();
  const base = await fs.mkdtemp(path.join(options.baseDir ?? os.tmpdir(), 'leadflow-citus-'));
  await fs.chmod(base, 0o755);
  const settings: Record<string, string> = {
    shared_preload_libraries: 'citus',
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: '400',
    // Each node logs to CSV files in its data dir (the router-query check reads them).
    logging_collector: 'on',
    log_destination: 'csvlog',
    log_directory: 'log',
    // Nodes talk to each other over loopback without TLS (and libpq looks for no client certificate).
    'citus.node_conninfo': 'sslmode=disable',
    ...options.settings,
  };

  const nodes: CitusNode[] = [];
  async function startNode(node: Omit<CitusNode, 'pid'> & { pid?: number }): Promise<CitusNode> {
    const args = ['-D', node.dataDir, '-c', `port=${node.port}`];
    for (const [key, value] of Object.entries(settings)) args.push('-c', `${key}=${value}`);
    const child = spawn(path.join(PG_BIN, 'postgres'), args, {
      detached: true,
      stdio: 'ignore',
      // HOME: libpq of the node's own connections to other nodes reads ~/.postgresql.
      env: { ...process.env, LC_MESSAGES: 'C', HOME: base },
      ...owner,
    });
    child.unref();
    const started = { ...node, pid: child.pid ?? 0 };
    await waitReady(started.url);
    return started;
  }

  const names = ['coordinator', ...Array.from({ length: options.workers ?? 2 }, (_, i) => `worker${i + 1}`)];
  try {
    for (const name of names) {
      const dataDir = path.join(base, name);
      await fs.mkdir(dataDir, { mode: 0o700 });
      if (owner) await fs.chown(dataDir, owner.uid, owner.gid);
      execFileSync(
        path.join(PG_BIN, 'initdb'),
        ['-D', dataDir, '-U', USER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
        { stdio: 'ignore', ...owner },
      );
      const port = await freePort();
      const url = `postgres://${USER}@127.0.0.1:${port}/postgres`;
      nodes.push(await startNode({ name, port, dataDir, url }));
      log(`citus ${name} on port ${port}`);
    }
  } catch (error) {
    for (const node of nodes) await stopNode(node);
    throw error;
  }
  const [coordinator, ...workers] = nodes as [CitusNode, ...CitusNode[]];

  async function stopNode(node: CitusNode): Promise<void> {
    try {
      process.kill(node.pid, 'SIGINT');
    } catch {
      return;
    }
    const deadline = Date.now() + 60_000;
    while (isAlive(node.pid)) {
      if (Date.now() > deadline) {
        process.kill(node.pid, 'SIGQUIT');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    coordinator,
    workers,
    ...citusDatabases(topologyOf(coordinator, workers)),
    async restart(node) {
      await stopNode(node);
      const restarted = await startNode(node);
      node.pid = restarted.pid;
    },
    async stop() {
      for (const node of [coordinator, ...workers].reverse()) await stopNode(node);
      // LEADFLOW_CITUS_KEEP=1 keeps the nodes' data directories (their csv logs show what a worker ran).
      if (process.env.LEADFLOW_CITUS_KEEP === '1') return log(`Citus data directories kept in ${base}`);
      await fs.rm(base, { recursive: true, force: true });
    },
  };
}
