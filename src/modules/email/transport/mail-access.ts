// How Leadflow reaches a mailbox's servers: SMTP through nodemailer (a pooled transport per mailbox and
// process, rebuilt when its settings, token or checked address change), IMAP through imapflow: Sent
// copies on a connection held per mailbox and process (held-imap.ts, keyed the same way), other uses
// (sync, IDLE, checks) on a client of their own. OAuth mailboxes log in with XOAUTH2 and a
// current access token: refreshed shortly before it expires, or once when a server refuses it, and
// stored sealed. The hosts of an SMTP/IMAP mailbox are the user's choice, so they go through the
// outbound guard: resolved and checked, then connected to by the checked address (the name kept for
// TLS), and a refused one is never connected to - its error says why, not whether a port is open.

import { Readable } from 'node:stream';
import { ImapFlow } from 'imapflow';
import type { Selectable } from 'kysely';
import nodemailer from 'nodemailer';
import type { Config } from '../../../config.js';
import type { Executor } from '../../../db/database.js';
import {
  BlockedTargetError,
  type CheckedTarget,
  type OutboundGuard,
  outboundGuard,
  outboundPolicy,
} from '../../../lib/net/outbound.js';
import type { SecretBox } from '../../../lib/secrets.js';
import type { ConnectionSettings, MailboxesTable } from '../email.tables.js';
import { refreshAccessToken } from '../oauth/oauth-client.js';
import { type MailboxSecrets, openSecrets, sealSecrets } from './credentials.js';
import { createHeldImap, type ImapDial } from './held-imap.js';
import { classifyMailError, classifySendError, MailFailure } from './mail-errors.js';

export type Mailbox = Selectable<MailboxesTable>;

type Login = { user: string; pass: string } | { user: string; accessToken: string };
type Transporter = ReturnType<typeof nodemailer.createTransport>;

export type SendEnvelope = { from: string; to: string[] };
export type ConnectionCheck = { smtp: string | null; imap: string | null; auth: boolean };

export type MailAccessDeps = {
  db: Executor;
  box: SecretBox;
  config: Config;
  /** Checks the servers of SMTP/IMAP mailboxes; default: the configuration's policy for mail servers. */
  guard?: OutboundGuard;
};

/** A server setting the outbound guard refuses: which field, and why. */
export type ServerRefusal = { field: 'smtp_host' | 'imap_host'; message: string };

export type MailAccess = ReturnType<typeof createMailAccess>;

/** Refresh an access token this long before it expires. */
const REFRESH_MARGIN_MS = 120_000;

export function createMailAccess(deps: MailAccessDeps) {
  const { db, box, config } = deps;
  const guard = deps.guard ?? outboundGuard(outboundPolicy(config, 'mail_server'));
  const transports = new Map<string, { key: string; transport: Transporter }>();
  const held = createHeldImap({ idleMs: config.email.imapHoldSeconds * 1000 });
  const timeouts = {
    connectionTimeout: config.email.connectTimeoutMs,
    greetingTimeout: config.email.connectTimeoutMs,
    socketTimeout: config.email.connectTimeoutMs * 3,
  };

  function secretsOf(mailbox: Mailbox): MailboxSecrets {
    const secrets = openSecrets(box, mailbox.secrets);
    if (!secrets) throw new MailFailure('auth', 'the mailbox has no stored credentials; connect it again');
    return secrets;
  }

  /** A current access token of an OAuth mailbox (refreshed and stored when due or when `force`). */
  async function accessToken(mailbox: Mailbox, force: boolean): Promise<string> {
    const secrets = secretsOf(mailbox);
    if (secrets.kind !== 'oauth') throw new Error('not an OAuth mailbox');
    const fresh = secrets.access_token && (secrets.expires_at ?? 0) - REFRESH_MARGIN_MS > Date.now();
    if (fresh && !force) return secrets.access_token as string;
    const provider = config.email.oauth[mailbox.provider as 'gmail' | 'outlook'];
    const answer = await refreshAccessToken(provider, secrets.refresh_token);
    const next: MailboxSecrets = {
      kind: 'oauth',
      refresh_token: answer.refresh_token ?? secrets.refresh_token,
      access_token: answer.access_token,
      expires_at: Date.now() + (answer.expires_in ?? 3600) * 1000,
    };
    const sealed = sealSecrets(box, next);
    await db
      .updateTable('mailboxes')
      .set({ secrets: sealed })
      .where('team_id', '=', mailbox.team_id)
      .where('uuid', '=', mailbox.uuid)
      .execute();
    mailbox.secrets = sealed;
    return answer.access_token;
  }

  async function login(mailbox: Mailbox, side: 'smtp' | 'imap', force = false): Promise<Login> {
    const settings = mailbox.connection_settings;
    const user = (side === 'smtp' ? settings.smtp_username : settings.imap_username) ?? mailbox.email;
    const secrets = secretsOf(mailbox);
    if (secrets.kind === 'password') {
      return { user, pass: side === 'smtp' ? secrets.smtp_password : secrets.imap_password };
    }
    return { user, accessToken: await accessToken(mailbox, force) };
  }

  function smtpAuth(credentials: Login) {
    return 'pass' in credentials
      ? { user: credentials.user, pass: credentials.pass }
      : { type: 'OAuth2' as const, user: credentials.user, accessToken: credentials.accessToken };
  }

  /**
   * Where to connect for one side. An SMTP/IMAP mailbox's host is checked (a refusal is a 'blocked'
   * MailFailure, before any connection); Gmail and Outlook hosts are the operator's configuration.
   */
  async function endpoint(mailbox: Mailbox, side: 'smtp' | 'imap'): Promise<CheckedTarget> {
    const settings = mailbox.connection_settings;
    const host = (side === 'smtp' ? settings.smtp_host : settings.imap_host) ?? '';
    if (mailbox.provider !== 'smtp') return { host, address: host, servername: undefined };
    try {
      return await guard.resolve(host);
    } catch (error) {
      if (error instanceof BlockedTargetError) throw new MailFailure('blocked', error.message);
      throw error;
    }
  }

  /** Where to connect to, as nodemailer and imapflow take it: the checked address, the name for TLS. */
  const connectTo = (target: CheckedTarget) => ({
    host: target.address,
    ...(target.servername ? { servername: target.servername } : {}),
  });

  async function transportFor(mailbox: Mailbox, force = false): Promise<Transporter> {
    const credentials = await login(mailbox, 'smtp', force);
    const settings = mailbox.connection_settings;
    const target = await endpoint(mailbox, 'smtp');
    // A changed setting, password, token or address builds a new pool; the old one is closed.
    const key = JSON.stringify([
      settings,
      mailbox.secrets,
      'accessToken' in credentials ? credentials.accessToken : '',
      target.address,
    ]);
    const cached = transports.get(mailbox.uuid);
    if (cached?.key === key) return cached.transport;
    cached?.transport.close();
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: 3,
      maxMessages: 100,
      ...connectTo(target),
      port: settings.smtp_port,
      secure: settings.smtp_secure ?? settings.smtp_port === 465,
      auth: smtpAuth(credentials),
      ...timeouts,
    } as never);
    transports.set(mailbox.uuid, { key, transport });
    return transport;
  }

  /** Retries once with a refreshed token when an OAuth login is refused (the token may be revoked early). */
  async function withOAuthRetry<T>(mailbox: Mailbox, run: (force: boolean) => Promise<T>): Promise<T> {
    try {
      return await run(false);
    } catch (error) {
      const failure = classifyMailError(error);
      if (failure.kind !== 'auth' || mailbox.provider === 'smtp') throw failure;
      try {
        return await run(true);
      } catch (again) {
        throw classifyMailError(again);
      }
    }
  }

  /** How to log in to the mailbox's IMAP server now, keyed like the SMTP transports. */
  async function imapDial(mailbox: Mailbox, force: boolean): Promise<ImapDial> {
    const credentials = await login(mailbox, 'imap', force);
    const settings = mailbox.connection_settings;
    const target = await endpoint(mailbox, 'imap');
    const key = JSON.stringify([
      settings,
      mailbox.secrets,
      'accessToken' in credentials ? credentials.accessToken : '',
      target.address,
    ]);
    const connect = async () => {
      const client = new ImapFlow({
        ...connectTo(target),
        port: settings.imap_port ?? 993,
        secure: settings.imap_secure ?? settings.imap_port === 993,
        auth: credentials,
        logger: false,
        connectionTimeout: config.email.connectTimeoutMs,
        greetingTimeout: config.email.connectTimeoutMs,
        socketTimeout: Math.max(config.email.connectTimeoutMs * 3, 300_000),
        qresync: true,
        disableAutoIdle: true,
      } as never);
      // An error event after connect must not crash the process; the caller sees the failed command.
      client.on('error', () => {});
      await client.connect();
      return client;
    };
    return { key, connect };
  }

  /** A connected IMAP client of its own (the caller logs out). Throws a MailFailure. */
  function imap(mailbox: Mailbox): Promise<ImapFlow> {
    return withOAuthRetry(mailbox, async (force) => (await imapDial(mailbox, force)).connect());
  }

  return {
    imap,

    /**
     * Files a copy of a sent message in the mailbox's Sent folder, seen, on the mailbox's held IMAP
     * connection (`held-imap.ts`). Throws a MailFailure.
     */
    fileSent(mailbox: Mailbox, raw: Buffer | string): Promise<void> {
      return withOAuthRetry(mailbox, async (force) =>
        held.appendToSent(mailbox.uuid, await imapDial(mailbox, force), raw, ['\\Seen']),
      );
    },

    /**
     * The first server setting of an SMTP/IMAP mailbox the outbound guard refuses, checked without
     * connecting (a name that does not resolve passes: every connection is checked again).
     */
    async serverRefusal(settings: Pick<ConnectionSettings, 'smtp_host' | 'imap_host'>) {
      for (const field of ['smtp_host', 'imap_host'] as const) {
        const host = settings[field];
        if (!host) continue;
        try {
          await guard.check(host);
        } catch (error) {
          if (error instanceof BlockedTargetError) return { field, message: error.message } as ServerRefusal;
          throw error;
        }
      }
      return undefined;
    },

    /**
     * Sends one raw RFC 5322 message; throws a MailFailure (`unconfirmed` when the connection failed
     * after the server took the data but before it answered). Returns the server's answer.
     */
    async send(mailbox: Mailbox, envelope: SendEnvelope, raw: Buffer | string): Promise<string> {
      return withOAuthRetry(mailbox, async (force) => {
        const transport = await transportFor(mailbox, force);
        // nodemailer reads the message only once the server accepted DATA (354): the irreversible step.
        let dataStarted = false;
        const message = new Readable({
          read() {
            dataStarted = true;
            this.push(raw);
            this.push(null);
          },
        });
        try {
          const info = await transport.sendMail({ envelope, raw: message });
          return info.response ?? '';
        } catch (error) {
          throw classifySendError(error, dataStarted);
        }
      });
    },

    /** Logs in to SMTP and IMAP; null when a side works, else what it said. */
    async check(mailbox: Mailbox): Promise<ConnectionCheck> {
      const result: ConnectionCheck = { smtp: null, imap: null, auth: false };
      const problem = (error: unknown) => {
        const failure = classifyMailError(error);
        if (failure.kind === 'auth') result.auth = true;
        return failure.message;
      };
      await Promise.all([
        withOAuthRetry(mailbox, async (force) => {
          const credentials = await login(mailbox, 'smtp', force);
          const settings = mailbox.connection_settings;
          const target = await endpoint(mailbox, 'smtp');
          const probe = nodemailer.createTransport({
            ...connectTo(target),
            port: settings.smtp_port,
            secure: settings.smtp_secure ?? settings.smtp_port === 465,
            auth: smtpAuth(credentials),
            ...timeouts,
          } as never);
          try {
            await probe.verify();
          } finally {
            probe.close();
          }
        }).catch((error) => {
          result.smtp = problem(error);
        }),
        imap(mailbox)
          .then((client) => client.logout().catch(() => {}))
          .catch((error) => {
            result.imap = problem(error);
          }),
      ]);
      return result;
    },

    /** Forgets the pooled transport and held IMAP connection of a mailbox (deleted, deactivated, changed). */
    forget(mailboxUuid: string) {
      transports.get(mailboxUuid)?.transport.close();
      transports.delete(mailboxUuid);
      held.forget(mailboxUuid);
    },

    /** Resolves once every Sent copy queued so far is filed (or failed). */
    sentCopiesSettled: () => held.settled(),

    /** Closes the SMTP pools, and the held IMAP connections once the queued Sent copies are filed. */
    async close() {
      for (const { transport } of transports.values()) transport.close();
      transports.clear();
      await held.close();
    },
  };
}
