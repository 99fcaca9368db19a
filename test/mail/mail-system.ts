// The whole local mail system a test needs: Dovecot (IMAP + LMTP), the SMTP relay in front of it and,
// on request, the OAuth2 stand-in whose tokens both accept. Accounts are unique per call, so tests
// share one system without cleaning up.
import { type OAuthStandIn, startOAuthStandIn } from '../../src/modules/email/oauth/oauth.stand-in.js';
import { hasPrograms, MAIL_PROGRAMS } from '../system-programs.js';
import { type Dovecot, startDovecot } from './dovecot.js';
import { type SmtpRelay, startSmtpRelay } from './smtp-relay.js';

export type MailSystem = {
  dovecot: Dovecot;
  relay: SmtpRelay;
  oauth: OAuthStandIn | undefined;
  /** A fresh mail account (address and password). */
  account(): Promise<{ email: string; password: string }>;
  /** Connection settings of a Leadflow SMTP mailbox for `account`. */
  settings(account: { email: string; password: string }): Record<string, unknown>;
  close(): Promise<void>;
};

/**
 * Whether Dovecot (with its IMAP and LMTP servers) is installed; when not, prints one line saying which
 * program is missing and how to install it, and the caller skips `what`.
 */
export function mailServersAvailable(what: string): boolean {
  return hasPrograms(what, MAIL_PROGRAMS);
}

/**
 * The settings a test context needs to reach the local mail system: its servers listen on loopback
 * (127.0.0.1 and Dovecot's penalty addresses), which the outbound guard refuses by default.
 */
export const MAIL_TEST_ENV = { LEADFLOW_OUTBOUND_ALLOWLIST: '127.0.0.0/8' };

export async function startMailSystem(options: { oauth?: boolean } = {}): Promise<MailSystem> {
  const oauth = options.oauth
    ? await startOAuthStandIn({ clientId: 'cid', clientSecret: 'csecret' })
    : undefined;
  const dovecot = await startDovecot(oauth ? { introspectionUrl: `${oauth.url}/introspect` } : {});
  const relay = await startSmtpRelay({
    dovecot,
    ...(oauth ? { checkToken: (token: string) => oauth.accountOf(token) } : {}),
  });
  return {
    dovecot,
    relay,
    oauth,
    async account() {
      return dovecot.account();
    },
    settings(account) {
      return {
        smtp_host: '127.0.0.1',
        smtp_port: relay.port,
        smtp_secure: false,
        smtp_username: account.email,
        smtp_password: account.password,
        imap_host: '127.0.0.1',
        imap_port: dovecot.imapPort,
        imap_secure: false,
        imap_username: account.email,
        imap_password: account.password,
      };
    },
    async close() {
      await relay.close();
      await dovecot.stop();
      await oauth?.close();
    },
  };
}
