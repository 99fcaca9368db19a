// `leadflow doctor`: checks what a new installation trips over - the configuration, the database (and
// Citus), the secret key, Redis, Chromium, the public URL, mail and the LLM - and prints what works and
// what to do about what does not. It changes nothing but this: an embedded database that is not running is started for the
// check (and stopped again), as the admin commands do. Exit code 1 when a check failed.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { openDatabaseSource } from '../db/connect.js';
import { createDatabase, type Database } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import { createSecretBox, loadSecretBox, parseSecretKey } from '../lib/secrets.js';
import { chromiumStartProblem } from '../modules/browsers/chromium/chromium-probe.js';
import { createLlmClient } from '../modules/llm/openai-client.js';
import { version } from '../version.js';
import { checkCitus, checkRedis } from './doctor-scale.js';
import { checkSeatHealth } from './doctor-seats.js';

export type CheckStatus = 'ok' | 'info' | 'warn' | 'fail';
/** One line of the report: what was checked, what was found and, when it is not ok, what to do. */
export type Check = { name: string; status: CheckStatus; detail: string; fix?: string };

const LABEL: Record<CheckStatus, string> = { ok: 'ok  ', info: 'info', warn: 'warn', fail: 'FAIL' };
const TIMEOUT_MS = 10_000;

const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

function withTimeout<T>(promise: Promise<T>, what: string, ms = TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The database checks, with the open database for the checks that read it (closed by `close`). */
async function checkDatabase(
  config: Config,
): Promise<{ checks: Check[]; db?: Database; close(): Promise<void> }> {
  const where = config.databaseUrl
    ? 'DATABASE_URL'
    : `the embedded PostgreSQL in ${path.join(config.dataDir, 'pg')}`;
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION'))) {
    const detail = `${where} is not created yet`;
    return {
      checks: [{ name: 'database', status: 'info', detail, fix: 'the first `leadflow serve` creates it' }],
      close: async () => {},
    };
  }
  const fix = config.databaseUrl
    ? 'check DATABASE_URL (host, port, user, password, database) and that the server accepts connections'
    : `see the error; LEADFLOW_DATA_DIR is ${config.dataDir}`;
  let source: Awaited<ReturnType<typeof openDatabaseSource>>;
  try {
    source = await withTimeout(openDatabaseSource(config), where, 60_000);
  } catch (error) {
    return {
      checks: [{ name: 'database', status: 'fail', detail: `${where}: ${errorText(error)}`, fix }],
      close: async () => {},
    };
  }
  const database = createDatabase(source.url, 2);
  const close = async () => {
    await database.close();
    await source.stop();
  };
  try {
    const { rows } = await withTimeout(
      sql<{ version: string }>`select version()`.execute(database.db),
      where,
    );
    const server = rows[0]?.version.split(' on ')[0] ?? 'PostgreSQL';
    const checks: Check[] = [{ name: 'database', status: 'ok', detail: `${server} (${where})` }];
    const known = await new Migrator({
      db: database.db,
      provider: { getMigrations: async () => migrations },
    }).getMigrations();
    const pending = known.filter((migration) => !migration.executedAt).length;
    checks.push(
      pending === 0
        ? { name: 'migrations', status: 'ok', detail: `all ${known.length} applied` }
        : {
            name: 'migrations',
            status: 'warn',
            detail: `${pending} of ${known.length} not applied yet`,
            fix: 'they apply when leadflow serve, api or worker starts, or run `leadflow migrate`',
          },
    );
    if (pending === 0) {
      const users = await database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(users.n) === 0) {
        checks.push({
          name: 'owner',
          status: 'info',
          detail: 'no user yet',
          fix: 'the first `leadflow serve` creates the owner and prints its API key once',
        });
      }
    }
    return { checks, db: pending === 0 ? database.db : undefined, close };
  } catch (error) {
    await close();
    return {
      checks: [{ name: 'database', status: 'fail', detail: `${where}: ${errorText(error)}`, fix }],
      close: async () => {},
    };
  }
}

/** A sealed value of the database, to see that the key opens what was stored with it. */
async function someSealedValue(db: Database): Promise<string | undefined> {
  const mailbox = await db
    .selectFrom('mailboxes')
    .select('secrets')
    .where('secrets', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  if (mailbox?.secrets) return mailbox.secrets;
  const seat = await db
    .selectFrom('linkedin_browsers')
    .select('session_sealed')
    .where('session_sealed', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return seat?.session_sealed ?? undefined;
}

async function checkSecretKey(config: Config, db: Database | undefined): Promise<Check[]> {
  const file = path.join(config.dataDir, 'secret.key');
  let box: ReturnType<typeof createSecretBox>;
  const checks: Check[] = [];
  try {
    if (config.secretKey) {
      box = createSecretBox(parseSecretKey(config.secretKey));
      checks.push({ name: 'secret key', status: 'ok', detail: 'LEADFLOW_SECRET_KEY is set' });
    } else if (existsSync(file)) {
      box = loadSecretBox({ key: undefined, previous: config.secretKeyPrevious, dataDir: config.dataDir });
      const shared = (statSync(file).mode & 0o077) !== 0;
      checks.push({
        name: 'secret key',
        status: shared ? 'warn' : 'ok',
        detail: `the key file ${file}${shared ? ' is readable by other users' : ''}`,
        fix: shared
          ? `chmod 600 ${file}`
          : 'back it up with the database; processes on several machines need LEADFLOW_SECRET_KEY instead',
      });
    } else {
      return [
        {
          name: 'secret key',
          status: 'info',
          detail: `no LEADFLOW_SECRET_KEY and no key file yet (${file})`,
          fix: 'the first start creates the key file; back it up with the database',
        },
      ];
    }
  } catch (error) {
    return [
      {
        name: 'secret key',
        status: 'fail',
        detail: errorText(error),
        fix: 'LEADFLOW_SECRET_KEY must be 32 random bytes in base64 (openssl rand -base64 32)',
      },
    ];
  }
  if (config.secretKey && config.secretKeyPrevious.length > 0) {
    box = loadSecretBox({
      key: config.secretKey,
      previous: config.secretKeyPrevious,
      dataDir: config.dataDir,
    });
  }
  const sealed = db ? await someSealedValue(db) : undefined;
  if (sealed) {
    try {
      box.open(sealed);
      checks.push({ name: 'stored secrets', status: 'ok', detail: 'the key opens the stored secrets' });
    } catch {
      checks.push({
        name: 'stored secrets',
        status: 'fail',
        detail: 'the key does not open the stored secrets (mailbox passwords, OAuth tokens, seat sessions)',
        fix: 'use the key they were sealed with, or name it in LEADFLOW_SECRET_KEY_PREVIOUS while rotating',
      });
    }
  }
  return checks;
}

async function checkChromium(config: Config): Promise<Check> {
  const problem = await chromiumStartProblem(config.linkedin.chromiumPath);
  if (!problem) return { name: 'chromium', status: 'ok', detail: `${config.linkedin.chromiumPath} runs` };
  return {
    name: 'chromium',
    status: 'warn',
    detail: `${problem} Browser seats (driver chromium) cannot start; sandbox seats work.`,
  };
}

async function checkPublicUrl(config: Config, explicit: boolean): Promise<Check[]> {
  const url = new URL(config.publicUrl);
  const local = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname);
  const checks: Check[] = [];
  if (!explicit || local) {
    checks.push({
      name: 'public URL',
      status: 'warn',
      detail: `${config.publicUrl}${explicit ? '' : ' (the default)'}: login links, e-mail tracking, unsubscribe and OAuth callbacks point at this machine only`,
      fix: 'set LEADFLOW_PUBLIC_URL to the address your users and contacts reach (https://leadflow.example.com)',
    });
  } else {
    checks.push({ name: 'public URL', status: 'ok', detail: config.publicUrl });
  }
  try {
    const res = await fetch(new URL('healthz', `${config.publicUrl.replace(/\/$/, '')}/`), {
      signal: AbortSignal.timeout(5_000),
    });
    checks.push({
      name: 'public URL answers',
      status: res.ok ? 'ok' : 'warn',
      detail: `${res.ok ? 'Leadflow answers' : `answered ${res.status}`} at ${config.publicUrl}/healthz`,
    });
  } catch (error) {
    checks.push({
      name: 'public URL answers',
      status: 'info',
      detail: `nothing answers at ${config.publicUrl}/healthz (${errorText(error)})`,
      fix: 'fine while leadflow serve is not running; otherwise check LEADFLOW_PUBLIC_URL and the proxy in front',
    });
  }
  return checks;
}

async function checkMail(config: Config, db: Database | undefined): Promise<Check[]> {
  const checks: Check[] = [];
  for (const [provider, name] of [
    ['gmail', 'GMAIL'],
    ['outlook', 'OUTLOOK'],
  ] as const) {
    const oauth = config.email.oauth[provider];
    const vars = `LEADFLOW_${name}_CLIENT_ID and LEADFLOW_${name}_CLIENT_SECRET`;
    if (oauth.clientId && oauth.clientSecret) {
      checks.push({
        name: `${provider} OAuth`,
        status: 'ok',
        detail: `configured (redirect URI ${config.publicUrl}/emails/oauth/${provider}/callback)`,
      });
    } else if (oauth.clientId || oauth.clientSecret) {
      checks.push({
        name: `${provider} OAuth`,
        status: 'fail',
        detail: 'only half configured',
        fix: `set both ${vars}`,
      });
    } else {
      checks.push({
        name: `${provider} OAuth`,
        status: 'info',
        detail: `not configured: ${provider} mailboxes connect with an app password over SMTP/IMAP`,
        fix: `set ${vars} to connect them with OAuth`,
      });
    }
  }
  if (!config.outbound.allowPrivate && config.outbound.allowlist.length === 0) {
    checks.push({
      name: 'mail servers',
      status: 'info',
      detail: 'only public SMTP/IMAP hosts are reachable (private and loopback addresses are refused)',
      fix: 'an internal mail server: LEADFLOW_OUTBOUND_ALLOWLIST=<its address or CIDR>',
    });
  }
  if (db) {
    const rows = await db
      .selectFrom('mailboxes')
      .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
    if (count('error') > 0) {
      checks.push({
        name: 'mailboxes',
        status: 'warn',
        detail: `${count('error')} mailbox(es) in error, ${count('active')} active`,
        fix: 'GET /emails/api/mailbox-errors says why; fix the settings and activate them again',
      });
    } else if (rows.length > 0) {
      checks.push({ name: 'mailboxes', status: 'ok', detail: `${count('active')} active` });
    }
  }
  return checks;
}

async function checkLlm(config: Config): Promise<Check> {
  if (!config.llm.baseUrl) {
    return {
      name: 'LLM',
      status: 'info',
      detail: 'not configured: AI templates send their fallback text',
      fix: 'set LEADFLOW_LLM_BASE_URL (an OpenAI-compatible .../v1) and LEADFLOW_LLM_API_KEY',
    };
  }
  const client = createLlmClient({ ...config.llm, timeoutMs: TIMEOUT_MS, maxRetries: 0 });
  try {
    await client.complete({ messages: [{ role: 'user', content: 'Say OK.' }], max_tokens: 1 });
    return {
      name: 'LLM',
      status: 'ok',
      detail: `${config.llm.baseUrl} answers with model ${config.llm.model}`,
    };
  } catch (error) {
    return {
      name: 'LLM',
      status: 'fail',
      detail: `${config.llm.baseUrl} (model ${config.llm.model}): ${errorText(error)}`,
      fix: 'check LEADFLOW_LLM_BASE_URL, LEADFLOW_LLM_API_KEY and LEADFLOW_LLM_MODEL',
    };
  }
}

/** Every check for `env` (the process environment by default), in report order. */
export async function doctorChecks(env: Record<string, string | undefined> = process.env): Promise<Check[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const detail = error.message.replace(/^Invalid configuration:\n\s*- /, '').replace(/\n\s*- /g, '; ');
    return [
      { name: 'configuration', status: 'fail', detail, fix: 'fix these variables (README "Configuration")' },
    ];
  }
  const checks: Check[] = [{ name: 'configuration', status: 'ok', detail: `data dir ${config.dataDir}` }];
  const database = await checkDatabase(config);
  try {
    checks.push(...database.checks);
    checks.push(...(await checkSecretKey(config, database.db)));
    const [citus, redis, chromium, publicUrl, mail, llm] = await Promise.all([
      checkCitus(config, database.db),
      checkRedis(config),
      checkChromium(config),
      checkPublicUrl(config, Boolean(env.LEADFLOW_PUBLIC_URL)),
      checkMail(config, database.db),
      checkLlm(config),
    ]);
    checks.push(...(citus ? [citus] : []), redis, chromium, ...publicUrl, ...mail, llm);
    checks.push(...(await checkSeatHealth(database.db)));
  } finally {
    await database.close();
  }
  return checks;
}

export function formatChecks(checks: Check[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = checks.flatMap((check) => [
    `  ${LABEL[check.status]}  ${check.name.padEnd(width)}  ${check.detail}`,
    ...(check.fix && check.status !== 'ok' ? [`        ${' '.repeat(width)}  -> ${check.fix}`] : []),
  ]);
  const failed = checks.filter((check) => check.status === 'fail').length;
  const warned = checks.filter((check) => check.status === 'warn').length;
  const summary =
    failed > 0
      ? `${failed} check(s) failed, ${warned} warning(s).`
      : `Nothing failed${warned > 0 ? `; ${warned} warning(s)` : ''}.`;
  return [`Leadflow ${version} doctor`, ...lines, summary].join('\n');
}

/** `leadflow doctor`: prints the report; the exit code is 1 when a check failed. */
export async function runDoctor(): Promise<number> {
  const checks = await doctorChecks();
  process.stdout.write(`${formatChecks(checks)}\n`);
  return checks.some((check) => check.status === 'fail') ? 1 : 0;
}
