// Auth changes across real processes: two `leadflow api` processes on one database, and `leadflow
// admin` commands run as a third process. Each API process caches keys for a minute here
// (LEADFLOW_AUTH_CACHE_TTL_MS=60000), so only the change notifications can make a change visible.
import { type ChildProcess, execFile } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../harness.js';
import { ROOT, spawnLeadflow, stopChild } from '../processes.js';

let database: { url: string; drop(): Promise<void> };

function env(port = 0): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '4',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LEADFLOW_AUTH_CACHE_TTL_MS: '60000',
    LEADFLOW_RATE_LIMIT_PER_MINUTE: '100000',
    LEADFLOW_BOOTSTRAP_API_KEY: 'lf_processes_test_owner_key_000',
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

type Api = { child: ChildProcess; base: string; output: () => string };

async function startApi(): Promise<Api> {
  const port = await freePort();
  const child = spawnLeadflow(['api'], { env: env(port) });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`api did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, base, output: () => output };
}

function admin(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'admin', ...args],
      { cwd: ROOT, env: env() },
      (error, stdout, stderr) =>
        error ? reject(new Error(`admin ${args.join(' ')} failed: ${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

async function status(api: Api, key: string, url: string, teamId?: number): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (teamId !== undefined) headers['team-id'] = String(teamId);
  return (await fetch(`${api.base}${url}`, { headers })).status;
}

/**
 * Milliseconds until every check passes; fails after `limitMs`. Changes arrive by NOTIFY at once; the
 * bound allows for request latency on a loaded two-core machine (the key cache lives a minute here,
 * so a change that missed NOTIFY would still fail it).
 */
const AT_ONCE_MS = 3_000;
async function within(limitMs: number, checks: Array<() => Promise<boolean>>): Promise<number> {
  const started = Date.now();
  for (;;) {
    const results = await Promise.all(checks.map((check) => check()));
    if (results.every(Boolean)) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`not seen within ${limitMs} ms: ${results}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let apis: Api[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  apis = await Promise.all([startApi(), startApi()]);
}, 120_000);
afterAll(async () => {
  await Promise.all(apis.map((api) => stopChild(api.child)));
  await database.drop();
});

describe('two API processes and the admin command', () => {
  let email: string;
  let firstKey: string;
  let secondKey: string;
  let teamId: number;

  it('both accept the keys of a user created by another process', async () => {
    email = `eve-${Date.now()}@example.test`;
    const created = (await admin(['create-user', '--email', email, '--team', 'Eve'])) as {
      api_key: string;
      team_id: number;
    };
    firstKey = created.api_key;
    teamId = created.team_id;
    secondKey = (
      (await admin(['create-api-key', '--email', email, '--name', 'second'])) as { api_key: string }
    ).api_key;
    for (const api of apis) {
      for (const key of [firstKey, secondKey]) {
        expect(await status(api, key, '/id/api/users/current')).toBe(200);
        // Cached now, with Eve's one team: the owner's team (id 1) is not hers.
        expect(await status(api, key, '/leads/api/lists', 1)).toBe(403);
      }
    }
  }, 60_000);

  it('after add-member, every key of the user sees the new team in both processes at once', async () => {
    await admin(['add-member', '--email', email, '--team-id', '1']);
    const elapsed = await within(
      AT_ONCE_MS,
      apis.flatMap((api) =>
        [firstKey, secondKey].map(
          (key) => async () => (await status(api, key, '/leads/api/lists', 1)) === 200,
        ),
      ),
    );
    expect(elapsed).toBeLessThan(AT_ONCE_MS);
    expect(teamId).not.toBe(1);
  }, 60_000);

  it('a key revoked by the admin command is refused by both within a second', async () => {
    const keys = (await (
      await fetch(`${apis[0]!.base}/id/api/api-keys`, { headers: { authorization: `Bearer ${firstKey}` } })
    ).json()) as { data: Array<{ id: number; name: string }> };
    const second = keys.data.find((key) => key.name === 'second')!;
    await admin(['revoke-api-key', '--id', String(second.id)]);
    const elapsed = await within(
      AT_ONCE_MS,
      apis.map((api) => async () => (await status(api, secondKey, '/id/api/users/current')) === 401),
    );
    expect(elapsed).toBeLessThan(AT_ONCE_MS);
    for (const api of apis) expect(await status(api, firstKey, '/id/api/users/current')).toBe(200);
  }, 60_000);

  it('a key revoked through one process is refused by the other within a second', async () => {
    const [one, other] = apis as [Api, Api];
    const created = (await (
      await fetch(`${one.base}/id/api/jwt-tokens/create-api-key`, {
        method: 'POST',
        headers: { authorization: `Bearer ${firstKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'third' }),
      })
    ).json()) as { id: number; last_token: string };
    expect(await status(other, created.last_token, '/id/api/users/current')).toBe(200);
    const revoked = await fetch(`${one.base}/id/api/api-keys/${created.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${firstKey}` },
    });
    expect(revoked.status).toBe(204);
    const elapsed = await within(AT_ONCE_MS, [
      async () => (await status(other, created.last_token, '/id/api/users/current')) === 401,
    ]);
    expect(elapsed).toBeLessThan(AT_ONCE_MS);
  }, 60_000);
});
