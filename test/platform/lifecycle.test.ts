// The real `leadflow` command (bin/leadflow.js on the compiled build) end to end on an embedded
// PostgreSQL in a temporary data dir: first start creates the owner, admin commands work while `serve`
// runs and when it does not, SIGINT/SIGTERM stop everything cleanly, and the data survives a restart.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../processes.js';

const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
let port: number;
const bootstrapKey = 'lf_test_bootstrap_key_0123456789';

function env(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return {
    ...rest,
    LEADFLOW_DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LEADFLOW_BOOTSTRAP_API_KEY: bootstrapKey,
  };
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/leadflow.js', ...args],
      { cwd: root, env: env(), timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

type Server = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** Every serve started, stopped after the tests even when one failed midway. */
const servers: ChildProcess[] = [];

async function startServe(): Promise<Server> {
  const child = spawn(process.execPath, ['bin/leadflow.js', 'serve'], { cwd: root, env: env() });
  servers.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status === 200) break;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`serve did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, output: () => output, exited };
}

async function api(pathname: string, key: string) {
  return fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { authorization: `Bearer ${key}` } });
}

async function postmasterRunning(): Promise<boolean> {
  try {
    await fs.access(path.join(dataDir, 'pg', 'postmaster.pid'));
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  // Test what users run: the compiled CLI, rebuilt so it matches the sources (incremental, quick).
  await new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
      { cwd: root },
      (error, stdout) => (error ? reject(new Error(`build failed:\n${stdout}`)) : resolve()),
    ),
  );
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-lifecycle-'));
  await fs.chmod(dataDir, 0o755);
  port = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as net.AddressInfo;
      server.close(() => resolve(free));
    });
  });
});
afterAll(async () => {
  await Promise.all(servers.map((child) => stopChild(child, 'SIGTERM', 30_000)));
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('leadflow CLI on the embedded database', () => {
  let createdKey = '';

  let ownerTeam = 0;

  it('runs the demo before the first start without taking the owner bootstrap away', async () => {
    const demo = await cli(['demo']);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('The demo is set up');
    // The response serializers know our formats: no Ajv warning anywhere.
    expect(`${demo.stdout}${demo.stderr}`).not.toContain('unknown format');
  }, 120_000);

  it('starts, bootstraps the owner once and serves the API', async () => {
    const server = await startServe();
    expect(server.output()).toContain('owner user and team were created');
    ownerTeam = Number(/team: {2}My Team \(id (\d+)\)/.exec(server.output())?.[1]);
    expect(ownerTeam).toBeGreaterThan(1);
    expect((await api('/id/api/users/current', bootstrapKey)).status).toBe(200);

    // An admin command while serve runs reaches the same database.
    const created = await cli(['admin', 'create-user', '--email', 'second@example.test', '--team', 'Second']);
    expect(created.code, created.stderr).toBe(0);
    const line = JSON.parse(created.stdout.trim()) as { user_id: number; team_id: number; api_key: string };
    expect(line).toMatchObject({ user_id: expect.any(Number), team_id: expect.any(Number) });
    createdKey = line.api_key;
    const teams = (await (await api('/id/api/teams', createdKey)).json()) as {
      data: { id: number; name: string }[];
    };
    expect(teams.data[0]).toMatchObject({ id: line.team_id, name: 'Second' });
    expect(await postmasterRunning()).toBe(true);

    server.child.kill('SIGINT');
    expect(await server.exited, server.output()).toBe(0);
    expect(await postmasterRunning()).toBe(false);
  }, 120_000);

  it('keeps the data across a restart and does not bootstrap again', async () => {
    // Admin commands also work while nothing runs: they start and stop the database themselves.
    const credits = await cli(['admin', 'add-credits', '--team-id', String(ownerTeam), '--amount', '50']);
    expect(credits.code, credits.stderr).toBe(0);
    expect(JSON.parse(credits.stdout)).toMatchObject({
      team_id: ownerTeam,
      credits: { advanced_enrichment: 50 },
    });
    expect(await postmasterRunning()).toBe(false);

    const server = await startServe();
    expect(server.output()).not.toContain('owner user and team were created');
    expect(server.output()).not.toContain('unknown format');
    expect((await api('/id/api/users/current', createdKey)).status).toBe(200);
    const team = (await (await api(`/id/api/teams/${ownerTeam}`, bootstrapKey)).json()) as {
      credits: { advanced_enrichment: number };
    };
    expect(team.credits.advanced_enrichment).toBe(50);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  }, 120_000);

  it('reports usage errors with exit code 2', async () => {
    const result = await cli(['admin', 'add-credits', '--team-id', 'x', '--amount', '5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--team-id must be an integer');
  }, 60_000);
});
