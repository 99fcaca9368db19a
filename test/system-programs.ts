// The optional system programs some tests run (Chromium, Dovecot with IMAP and LMTP, redis-server). A test
// file asks for what it needs with `hasPrograms`; when something is missing the file is skipped with one
// printed line naming the missing programs and the command that installs them (`.ci/run` installs all).
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The Chromium the tests drive: LEADFLOW_CHROMIUM_PATH as the application reads it, else Debian's. */
export const chromiumPath = process.env.LEADFLOW_CHROMIUM_PATH || '/usr/bin/chromium';

type Program = { label: string; find(): string | undefined; packages: string; hint?: string };

function executable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

/** `name` looked up on PATH, as spawn would find it. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const found = dir ? executable(path.join(dir, name)) : undefined;
    if (found) return found;
  }
  return undefined;
}

const PROGRAMS = {
  chromium: {
    label: `Chromium (${chromiumPath})`,
    find: () => executable(chromiumPath),
    packages: 'chromium',
    hint: 'or set LEADFLOW_CHROMIUM_PATH',
  },
  dovecot: { label: 'dovecot (on PATH)', find: () => onPath('dovecot'), packages: 'dovecot-imapd' },
  'dovecot-imap': {
    label: '/usr/lib/dovecot/imap',
    find: () => executable('/usr/lib/dovecot/imap'),
    packages: 'dovecot-imapd',
  },
  'dovecot-lmtp': {
    label: '/usr/lib/dovecot/lmtp',
    find: () => executable('/usr/lib/dovecot/lmtp'),
    packages: 'dovecot-lmtpd',
  },
  'redis-server': {
    label: 'redis-server (on PATH)',
    find: () => onPath('redis-server'),
    packages: 'redis-server',
  },
} satisfies Record<string, Program>;

export type ProgramName = keyof typeof PROGRAMS;

/** Everything the e-mail tests' local mail system (test/mail) runs. */
export const MAIL_PROGRAMS: ProgramName[] = ['dovecot', 'dovecot-imap', 'dovecot-lmtp'];

/** The line saying what is missing and how to install it, or undefined when everything is here. */
export function missingPrograms(names: ProgramName[]): string | undefined {
  const missing = names.map((name) => PROGRAMS[name] as Program).filter((program) => !program.find());
  if (missing.length === 0) return undefined;
  const packages = [...new Set(missing.map((program) => program.packages))].join(' ');
  const hints = missing.flatMap((program) => (program.hint ? [program.hint] : []));
  return (
    `missing ${missing.map((program) => program.label).join(', ')}: ` +
    `apt-get install ${packages} (or run .ci/run${hints.length ? `; ${hints.join('; ')}` : ''})`
  );
}

const reported = new Set<string>();

/**
 * True when every program `what` needs is installed; otherwise prints one line (once per process) naming
 * the missing programs and the install command, for `describe.skipIf(!hasPrograms(...))`.
 */
export function hasPrograms(what: string, names: ProgramName[]): boolean {
  const missing = missingPrograms(names);
  if (!missing) return true;
  const line = `skipping ${what}: ${missing}`;
  if (!reported.has(line)) {
    reported.add(line);
    process.stderr.write(`${line}\n`);
  }
  return false;
}
