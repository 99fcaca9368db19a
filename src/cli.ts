// leadflow serve | api | worker | migrate | admin <command>
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { buildDemo, demoInstructions } from './demo.js';
import { createServices } from './deps.js';
import { systemClock } from './lib/clock.js';
import { AppError } from './lib/errors.js';
import { createLogger } from './lib/logger.js';
import { TEAM_ROLES } from './modules/identity/identity.service.js';
import { openDatabase, type Role, startRuntime } from './runtime.js';
import { version } from './version.js';

const ADMIN_USAGE = `  admin create-user --email E --team NAME [--existing-user]
                        new user with a team and an API key; --existing-user gives a user who
                        exists already another team (and key) instead of refusing
  admin create-api-key --email E [--name N]     another API key for a user
  admin revoke-api-key --id N                   revoke a key (refused at once by every process)
  admin add-member --email E --team-id N [--role ${TEAM_ROLES.join('|')}]
                        add an existing user to another team (role member by default)
  admin add-credits --team-id N --amount N      add enrichment credits to a team
  admin reset-password --email E                a one-time link to set the user's password in the web
                        application (ends their sessions; earlier links stop working)`;

const USAGE = `Usage: leadflow <command>

  serve                 API and background workers in one process (the default setup)
  api                   API only
  worker                background workers only (run as many as you like)
  migrate               apply database migrations and exit
  demo                  a demo team with a sender on the sandbox LinkedIn network, 50 contacts and a
                        started flow; prints its API key and what to watch
${ADMIN_USAGE}
  --version             print the version
  --help                print this help (admin --help: the admin commands)

Configuration comes from environment variables; see README.md.`;

const ADMIN_HELP = `Usage: leadflow admin <command> [options]

${ADMIN_USAGE}

Each prints one JSON line. They work whether or not leadflow serve runs on the same database.`;

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

async function runDemo(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { source, database } = await openDatabase(config, logger);
  try {
    const services = createServices({ db: database.db, config, clock: systemClock });
    const app = await buildApp({ config, db: database.db, services, logger });
    try {
      const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
      const team = await services.identity.createUserWithTeam({
        email: `demo+${stamp}@leadflow.local`,
        teamName: `Leadflow demo ${stamp}`,
      });
      const result = await buildDemo(app, team.api_key);
      const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
      process.stdout.write(`${demoInstructions(result, team.api_key, `http://${host}:${config.port}`)}\n`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await source.stop();
  }
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
  if (!value) throw new UsageError(`--${name} is required`, ADMIN_HELP);
  return value;
}

function integer(args: AdminArgs, name: string): number {
  const raw = required(args, name);
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} must be an integer (got "${raw}")`, ADMIN_HELP);
  return Number(raw);
}

class UsageError extends Error {
  constructor(
    message: string,
    readonly usage = USAGE,
  ) {
    super(message);
  }
}

const ADMIN_COMMANDS = [
  'create-user',
  'create-api-key',
  'revoke-api-key',
  'add-member',
  'add-credits',
  'reset-password',
];

async function runAdmin(command: string | undefined, argv: string[]): Promise<void> {
  if (command === undefined || ['help', '--help', '-h'].includes(command) || argv.includes('--help')) {
    process.stdout.write(`${ADMIN_HELP}\n`);
    return;
  }
  if (!ADMIN_COMMANDS.includes(command)) {
    throw new UsageError(`Unknown admin command "${command}"`, ADMIN_HELP);
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        team: { type: 'string' },
        'team-id': { type: 'string' },
        amount: { type: 'string' },
        name: { type: 'string' },
        id: { type: 'string' },
        role: { type: 'string' },
        'existing-user': { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, ADMIN_HELP);
  }
  const existingUser = values['existing-user'] === true;
  const args = values as AdminArgs;
  if (args.role !== undefined && !(TEAM_ROLES as readonly string[]).includes(args.role)) {
    throw new UsageError(`--role must be one of ${TEAM_ROLES.join(', ')} (got "${args.role}")`, ADMIN_HELP);
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { source, database } = await openDatabase(config, logger);
  try {
    const { identity, accounts } = createServices({ db: database.db, config, clock: systemClock });
    let result: unknown;
    switch (command) {
      case 'create-user':
        result = await identity
          .createUserWithTeam({
            email: required(args, 'email'),
            teamName: required(args, 'team'),
            existingUser,
          })
          .catch((error: unknown) => {
            if (error instanceof AppError && error.reason === 'conflict') {
              throw new AppError(
                'conflict',
                `${error.message} To give that user another team and API key, ` +
                  'run the command again with --existing-user (or add them to a team with add-member).',
              );
            }
            throw error;
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
      case 'reset-password': {
        const link = await accounts.issuePasswordLink(required(args, 'email'), { endSessions: true });
        result = { password_url: link.url, expires_at: link.expires_at };
        break;
      }
      default:
        throw new UsageError(`Unknown admin command "${command}"`, ADMIN_HELP);
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
    case 'demo':
      return runDemo();
    case 'admin':
      return runAdmin(rest[0], rest.slice(1));
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    case 'version':
    case '--version':
    case '-v':
      process.stdout.write(`leadflow ${version}\n`);
      return;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${error.usage}\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof AppError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
