// `leadflow admin <command>`: user, key, membership and credit chores, one JSON line each.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { AppError } from '../lib/errors.js';
import { TEAM_ROLES } from '../modules/identity/roles.js';
import { ADMIN_HELP, UsageError } from './help.js';

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

const ADMIN_COMMANDS = [
  'create-user',
  'create-api-key',
  'revoke-api-key',
  'add-member',
  'add-credits',
  'reset-password',
];

export async function runAdmin(command: string | undefined, argv: string[]): Promise<void> {
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
  // Loaded once the command line is known to be right: usage mistakes answer at once.
  const [{ createLogger }, { openDatabase }, { createServices }, { systemClock }] = await Promise.all([
    import('../lib/logger.js'),
    import('../runtime.js'),
    import('../deps.js'),
    import('../lib/clock.js'),
  ]);
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
