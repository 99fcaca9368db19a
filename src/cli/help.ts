// The `leadflow` command's usage texts: kept apart from the commands, so `--help` and `--version` answer
// without loading the application.
import { TEAM_ROLES } from '../modules/identity/roles.js';

export const ENV_NOTE = 'Configuration comes from environment variables; see README.md.';

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

export const USAGE = `Usage: leadflow <command>

  serve                 API and background workers in one process (the default setup)
  api                   API only
  worker                background workers only (run as many as you like)
  migrate               apply database migrations and exit
  demo                  a demo team with a sender on the sandbox LinkedIn network, 50 contacts and a
                        started flow; prints its API key and what to watch
  doctor                checks the configuration, database, secret key, Chromium, public URL, mail and
                        LLM settings and says what to do about what does not work
${ADMIN_USAGE}
  --version             print the version
  --help                print this help (<command> --help: that command's help)

${ENV_NOTE}`;

/** `leadflow <command> --help`: that command's help, and nothing else runs. */
export const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: leadflow serve

Runs the HTTP API and the background workers (jobs, automation engine, mailbox sync) in one process, on
the embedded PostgreSQL in LEADFLOW_DATA_DIR unless DATABASE_URL is set. Applies migrations first; on the
first start it creates an owner user and team and prints their API key once. Stops cleanly on Ctrl-C.

${ENV_NOTE}`,
  api: `Usage: leadflow api

Runs the HTTP API only (no background work); run workers beside it with \`leadflow worker\`.

${ENV_NOTE}`,
  worker: `Usage: leadflow worker

Runs background workers only (jobs, automation engine, mailbox sync); run as many as you like against one
database.

${ENV_NOTE}`,
  migrate: `Usage: leadflow migrate

Applies the database migrations and exits (serve, api and worker also apply them when they start).

${ENV_NOTE}`,
  demo: `Usage: leadflow demo

Creates a demo team with a sender on the sandbox LinkedIn network, 50 contacts and a started flow, and
prints its API key and what to watch. Run it beside \`leadflow serve\` (or before it: the first start still
creates the owner).

${ENV_NOTE}`,
  doctor: `Usage: leadflow doctor

Checks what a new installation trips over and prints, for each, what works and what to do about what does
not: the configuration, the database (it starts the embedded PostgreSQL for the check when nothing runs
it, and stops it again) and its migrations, the secret key (and that it opens the stored secrets), Chromium
(LEADFLOW_CHROMIUM_PATH), the public URL (LEADFLOW_PUBLIC_URL, and whether Leadflow answers there), mail
(OAuth apps, private mail servers, mailboxes in error) and the LLM (one 1-token call when
LEADFLOW_LLM_BASE_URL is set). Changes nothing. Exit code 1 when a check failed.

${ENV_NOTE}`,
};

export const ADMIN_HELP = `Usage: leadflow admin <command> [options]

${ADMIN_USAGE}

Each prints one JSON line. They work whether or not leadflow serve runs on the same database.`;

/** A mistake in the command line: printed with the usage that applies, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage = USAGE,
  ) {
    super(message);
  }
}
