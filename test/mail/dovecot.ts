// A real Dovecot for tests: IMAP (maildir) and LMTP on loopback ports, users in a passwd file, and
// optionally OAuth2 bearer tokens checked against an introspection URL (the OAuth stand-in). Each test
// file starts its own in a temp dir and stops it by its master PID. `.ci/run` installs the Debian
// package (dovecot-imapd, dovecot-lmtpd); the packaged service itself never runs.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const POOL_SIZE = 300;

const LISTEN = '127.0.0.1';

export type Dovecot = {
  imapPort: number;
  lmtpPort: number;
  dir: string;
  /** An unused account of the passwd file. */
  account(): { email: string; password: string };
  /** The user's password, or undefined for an unknown user (the SMTP side checks logins with it). */
  passwordOf(address: string): string | undefined;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits for the server's greeting on `port`; gives up when `gone()` says Dovecot exited, or at the deadline. */
async function waitForGreeting(port: number, timeoutMs: number, gone: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone()) throw new Error(`Dovecot exited before it answered on port ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (data) => {
        socket.destroy();
        resolve(/^\* OK|^220 /.test(data.toString()));
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`Dovecot did not answer on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startDovecot(options: { introspectionUrl?: string } = {}): Promise<Dovecot> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-dovecot-'));
  const [imapPort, lmtpPort] = [await freePort(), await freePort()];
  const root = process.getuid?.() === 0;
  // As root the mail processes run as nobody (Dovecot refuses uid 0 for mail); otherwise as ourselves.
  const uid = root ? 65534 : (process.getuid?.() ?? 1000);
  const gid = root ? 65534 : (process.getgid?.() ?? 1000);
  const runUser = root ? 'dovecot' : os.userInfo().username;
  const loginUser = root ? 'dovenull' : os.userInfo().username;
  const groupName = root ? 'dovecot' : execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  const mailDir = path.join(dir, 'mail');
  await fs.mkdir(mailDir, { recursive: true });
  await fs.chmod(dir, 0o755);
  await fs.chmod(mailDir, 0o777);
  // Every account is in the passwd file from the start: Dovecot notices a rewritten file only after a
  // while, so accounts are handed out from this pool instead of added later.
  const passwords = new Map<string, string>();
  const pool: Array<{ email: string; password: string }> = [];
  for (let i = 0; i < POOL_SIZE; i += 1) {
    const email = `u${i}-${randomBytes(3).toString('hex')}@leadflow.test`;
    const password = randomBytes(6).toString('hex');
    passwords.set(email, password);
    pool.push({ email, password });
  }
  const passwd = path.join(dir, 'passwd');
  await fs.writeFile(passwd, `${pool.map((a) => `${a.email}:{PLAIN}${a.password}::::::`).join('\n')}\n`);
  await fs.chmod(passwd, 0o644);

  const oauth = options.introspectionUrl
    ? `passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = ${path.join(dir, 'oauth2.conf.ext')}
}
`
    : '';
  if (options.introspectionUrl) {
    await fs.writeFile(
      path.join(dir, 'oauth2.conf.ext'),
      [
        'introspection_mode = post',
        `introspection_url = ${options.introspectionUrl}`,
        'username_attribute = username',
        'active_attribute = active',
        'active_value = true',
        '',
      ].join('\n'),
    );
  }
  const config = `protocols = imap lmtp
listen = ${LISTEN}
base_dir = ${path.join(dir, 'run')}
state_dir = ${path.join(dir, 'state')}
log_path = ${path.join(dir, 'dovecot.log')}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${options.introspectionUrl ? ' xoauth2 oauthbearer' : ''}
auth_failure_delay = 0
mail_max_userip_connections = 100
mail_location = maildir:~/Maildir
first_valid_uid = 1
default_internal_user = ${runUser}
default_internal_group = ${groupName}
default_login_user = ${loginUser}
lmtp_save_to_detail_mailbox = no
# The test run's tag (test/global-setup.ts) reaches every Dovecot process, so a leftover one is found.
import_environment = TZ CORE_OUTOFMEM CORE_ERROR LEADFLOW_TEST_RUN
recipient_delimiter =
${oauth}passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${mailDir}/%u
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
}
service anvil {
  chroot =
  # Dovecot delays every login from an address that recently failed one, up to 15 s (its auth penalty);
  # tests fail logins on purpose, all from loopback, so the penalty is off.
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  chroot =
  inet_listener imap {
    address = ${LISTEN}
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${lmtpPort}
  }
  unix_listener lmtp {
    mode = 0666
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
`;
  const file = path.join(dir, 'dovecot.conf');
  await fs.writeFile(file, config);
  const child: ChildProcess = spawn('dovecot', ['-F', '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready when both servers greet: generous on a loaded machine, at once when Dovecot gave up.
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  try {
    await waitForGreeting(imapPort, 60_000, gone);
    await waitForGreeting(lmtpPort, 60_000, gone);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    const log = await fs.readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => '');
    await fs.rm(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${stderr}\n${log}`);
  }

  return {
    imapPort,
    lmtpPort,
    dir,
    account() {
      const spare = pool.shift();
      if (!spare)
        throw new Error(`the test Dovecot has no spare accounts left (it starts with ${POOL_SIZE})`);
      return spare;
    },
    passwordOf: (address) => passwords.get(address.toLowerCase()),
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
