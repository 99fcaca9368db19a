// leadflow serve | api | worker | migrate | admin <command>
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { createServices } from './deps.js';
import { systemClock } from './lib/clock.js';
import { AppError } from './lib/errors.js';
import { createLogger } from './lib/logger.js';
import { openDatabase, type Role, startRuntime } from './runtime.js';

const USAGE = `Usage: leadflow <command>

  serve                 API and background workers in one process (the default setup)
  api                   API only
  worker                background workers only (run as many as you like)
  migrate               apply database migrations and exit
  admin create-user --email E --team NAME       new user with a team and an API key
  admin create-api-key --email E [--name N]     another API key for a user
  admin revoke-api-key --id N                   revoke a key (takes effect within seconds)
  admin add-member --email E --team-id N        add an existing user to another team
  admin add-credits --team-id N --amount N      add enrichment credits to a team

Configuration comes from environment variables; see README.md.`;

async function runServer(role: Role): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Handlers go in before anything starts, so a signal during start-up still shuts down cleanly.
  let stopping = false;
  const starting = startRuntime(role, config, logger);
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    starting
      .then((runtime) => runtime.stop())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutdown(signal));
  await starting;
}

async function runMigrate(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const { source, database } = await openDatabase(config, logger);
  await database.close();
  await source.stop();
  process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
}

type AdminArgs = Record<string, string | undefined>;

function required(args: AdminArgs, name: string): string {
  const value = args[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function integer(args: AdminArgs, name: string): number {
  const raw = required(args, name);
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} must be an integer (got "${raw}")`);
  return Number(raw);
}

class UsageError extends Error {}

async function runAdmin(command: string | undefined, argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      team: { type: 'string' },
      'team-id': { type: 'string' },
      amount: { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      role: { type: 'string' },
    },
    strict: true,
  });
  const args = values as AdminArgs;
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { source, database } = await openDatabase(config, logger);
  try {
    const { identity } = createServices({ db: database.db, config, clock: systemClock });
    let result: unknown;
    switch (command) {
      case 'create-user':
        result = await identity.createUserWithTeam({
          email: required(args, 'email'),
          teamName: required(args, 'team'),
        });
        break;
      case 'create-api-key':
        result = {
          api_key: (await identity.createApiKeyForEmail(required(args, 'email'), args.name)).api_key,
        };
        break;
      case 'revoke-api-key':
        await identity.revokeApiKeyById(integer(args, 'id'));
        result = { revoked: true };
        break;
      case 'add-member':
        result = await identity.addMember(
          required(args, 'email'),
          integer(args, 'team-id'),
          args.role ?? 'member',
        );
        break;
      case 'add-credits':
        result = await identity.addCredits(integer(args, 'team-id'), integer(args, 'amount'));
        break;
      default:
        throw new UsageError(`Unknown admin command "${command ?? ''}"`);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await database.close();
    await source.stop();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
    case 'api':
    case 'worker':
      return runServer(command);
    case 'migrate':
      return runMigrate();
    case 'admin':
      return runAdmin(rest[0], rest.slice(1));
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof AppError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
