// leadflow serve | api | worker | migrate | demo | doctor | admin <command>. The commands load the application
// when they run (dynamic imports), so help, version and usage errors answer at once.

import { COMMAND_HELP, USAGE, UsageError } from './cli/help.js';
import { ConfigError, loadConfig } from './config.js';
import { AppError } from './lib/errors.js';
import { version } from './version.js';

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const help = command === undefined ? undefined : COMMAND_HELP[command];
  if (help !== undefined) {
    if (rest.some((arg) => arg === '--help' || arg === '-h' || arg === 'help')) {
      process.stdout.write(`${help}\n`);
      return;
    }
    if (rest.length > 0)
      throw new UsageError(`${command} takes no arguments (got "${rest.join(' ')}")`, help);
  }
  switch (command) {
    case 'serve':
    case 'api':
    case 'worker': {
      const config = loadConfig();
      return (await import('./cli/server.js')).runServer(command, config);
    }
    case 'migrate': {
      const config = loadConfig();
      return (await import('./cli/server.js')).runMigrate(config);
    }
    case 'demo': {
      const config = loadConfig();
      return (await import('./cli/server.js')).runDemo(config);
    }
    case 'doctor':
      // It reads the configuration itself: a configuration mistake is one of the things it reports.
      process.exitCode = await (await import('./cli/doctor.js')).runDoctor();
      return;
    case 'admin':
      return (await import('./cli/admin.js')).runAdmin(rest[0], rest.slice(1));
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
