// The `leadflow` command's answers to a newcomer's mistakes, run as a real process (from the sources, via
// node with tsx's loader) against a test database: help and version, refused admin input, and start-up errors that read as
// one configuration line instead of a stack trace.
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../src/version.js';
import { createTestDatabase } from '../harness.js';

const root = path.resolve(import.meta.dirname, '../..');
let database: { url: string; drop(): Promise<void> };

type Result = { code: number; stdout: string; stderr: string };

function leadflow(args: string[], extraEnv: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...extraEnv },
        // Generous: a command that loads the application runs from the sources (tsx) on a shared machine.
        timeout: 150_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('help and version', () => {
  it('prints the version', async () => {
    expect(await leadflow(['--version'])).toMatchObject({ code: 0, stdout: `leadflow ${version}\n` });
  }, 180_000);

  it('prints the admin commands for admin --help, and for a command with --help', async () => {
    const commands = [
      ['admin', '--help'],
      ['admin', 'create-user', '--help'],
    ];
    const results = await Promise.all(commands.map((args) => leadflow(args)));
    for (const [index, result] of results.entries()) {
      expect(result.code, commands[index]!.join(' ')).toBe(0);
      expect(result.stdout).toContain('Usage: leadflow admin <command>');
      expect(result.stdout).toContain('--existing-user');
      expect(result.stdout).toContain('--role owner|member');
    }
  }, 180_000);

  it("prints a command's help for <command> --help and runs nothing", async () => {
    const commands = ['serve', 'api', 'worker', 'migrate', 'demo', 'doctor'];
    const results = await Promise.all(commands.map((command) => leadflow([command, '--help'])));
    for (const [index, result] of results.entries()) {
      const command = commands[index]!;
      expect(result.code, command).toBe(0);
      expect(result.stdout, command).toMatch(new RegExp(`^Usage: leadflow ${command}\n`));
      expect(result.stderr, command).toBe('');
    }
    // The demo did not run: its team would be in the database.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const users = await admin.query('select count(*)::int as n from users');
    await admin.end();
    expect(users.rows[0].n).toBe(0);
  }, 180_000);

  it('answers an unknown admin command or option with the admin usage and exit code 2', async () => {
    const unknown = await leadflow(['admin', 'delete-everything']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown admin command "delete-everything"');
    expect(unknown.stderr).toContain('Usage: leadflow admin <command>');
    const option = await leadflow(['admin', 'create-user', '--mail', 'x@example.test']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--mail'");
  }, 180_000);
});

describe('admin input', () => {
  it('refuses create-user for an existing e-mail unless --existing-user says so', async () => {
    const first = await leadflow(['admin', 'create-user', '--email', 'Kim@Example.test', '--team', 'Kim']);
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout) as { user_id: number; team_id: number };

    const again = await leadflow(['admin', 'create-user', '--email', 'kim@example.test', '--team', 'Kim 2']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr.trim()).toBe(
      `A user with the e-mail kim@example.test exists already (id ${created.user_id}). To give that user ` +
        'another team and API key, run the command again with --existing-user (or add them to a team with ' +
        'add-member).',
    );

    const allowed = await leadflow([
      'admin',
      'create-user',
      '--email',
      'kim@example.test',
      '--team',
      'Kim 2',
      '--existing-user',
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    const second = JSON.parse(allowed.stdout) as { user_id: number; team_id: number };
    expect(second.user_id).toBe(created.user_id);
    expect(second.team_id).not.toBe(created.team_id);
  }, 450_000); // three commands that each load the application

  it('validates --role against the real roles', async () => {
    const result = await leadflow([
      'admin',
      'add-member',
      '--email',
      'kim@example.test',
      '--team-id',
      '1',
      '--role',
      'boss',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--role must be one of owner, member (got "boss")');
  }, 180_000);
});

describe('start-up errors', () => {
  it('reports a busy port as one configuration line', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const result = await leadflow(['api'], { PORT: String(port), HOST: '127.0.0.1' });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `Invalid configuration: PORT ${port} on HOST 127.0.0.1 is already in use by another process; stop it ` +
          'or set PORT to a free port.',
      );
      expect(result.stderr).not.toContain('EADDRINUSE');
      expect(result.stderr).not.toContain('    at ');
    } finally {
      busy.close();
    }
  }, 180_000);

  it('lists an invalid LOG_LEVEL with the other configuration problems', async () => {
    const result = await leadflow(['api'], { LOG_LEVEL: 'verbose', PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Invalid configuration:\n' +
        '  - PORT must be an integer between 0 and 65535 (got "eighty")\n' +
        '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")\n',
    );
  }, 180_000);
});
