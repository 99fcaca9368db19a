// The SMTP side of the test mail system: a real SMTP server (smtp-server, nodemailer's sibling) on a
// loopback port that authenticates against Dovecot's users (PLAIN/LOGIN, or XOAUTH2 tokens checked by
// a callback) and delivers into Dovecot over LMTP, as an MTA in front of a mail store does:
// - a recipient Dovecot does not know is refused at RCPT (550 5.1.1), like a local MTA;
// - recipients at `bounce.test` are accepted and then bounced with an RFC 3464 delivery-status report
//   delivered to the envelope sender's mailbox, like a remote MTA's asynchronous bounce.
// Every accepted message is kept in `received` so tests can count real sends.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from 'smtp-server';
import type { Dovecot } from './dovecot.js';

export type ReceivedMessage = { from: string; to: string[]; raw: string; user: string | undefined };

export type SmtpRelay = {
  port: number;
  received: ReceivedMessage[];
  /** Rejects AUTH for this long (simulates a changed password). */
  failAuth(fail: boolean): void;
  /** Answers the next DATA with this code (421/451 transient, 554 permanent). */
  failNextData(code: number | null): void;
  /** Takes (and delivers) the next message, then drops the connection without answering its DATA. */
  dropAfterNextData(): void;
  close(): Promise<void>;
};

export const BOUNCE_DOMAIN = 'bounce.test';

function headersOf(raw: string): string {
  const end = raw.search(/\r?\n\r?\n/);
  return end < 0 ? raw : raw.slice(0, end);
}

/** An RFC 3464 report about `recipient`, quoting the original's headers. */
export function deliveryStatusReport(options: {
  to: string;
  recipient: string;
  originalRaw: string;
  status?: string;
  action?: 'failed' | 'delayed';
}): string {
  const boundary = `dsn-${randomUUID()}`;
  const status = options.status ?? '5.1.1';
  return [
    'From: Mail Delivery System <MAILER-DAEMON@relay.leadflow.test>',
    `To: <${options.to}>`,
    'Subject: Undelivered Mail Returned to Sender',
    'Auto-Submitted: auto-replied',
    `Message-ID: <${randomUUID()}@relay.leadflow.test>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `Your message could not be delivered to <${options.recipient}>.`,
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; relay.leadflow.test',
    '',
    `Final-Recipient: rfc822; ${options.recipient}`,
    `Action: ${options.action ?? 'failed'}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; 550 ${status} <${options.recipient}>: Recipient address rejected: User unknown`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    headersOf(options.originalRaw),
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

export async function startSmtpRelay(options: {
  dovecot: Dovecot;
  /** The account a bearer token belongs to (the OAuth stand-in), for XOAUTH2. */
  checkToken?: (token: string) => string | undefined;
}): Promise<SmtpRelay> {
  const { dovecot } = options;
  const lmtp = nodemailer.createTransport({
    host: '127.0.0.1',
    port: dovecot.lmtpPort,
    lmtp: true,
    secure: false,
    ignoreTLS: true,
    pool: false,
  } as never);
  const received: ReceivedMessage[] = [];
  let authFails = false;
  let nextDataCode: number | null = null;
  let dropNext = false;

  const deliver = (from: string, to: string[], raw: string) => lmtp.sendMail({ envelope: { from, to }, raw });

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN', 'XOAUTH2'],
    authOptional: false,
    logger: false,
    // close() waits this long for open connections (default 30 s); they are reported as a leak anyway.
    closeTimeout: 1_000,
    size: 30 * 1024 * 1024,
    onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession, callback) {
      if (authFails) return callback(new Error('Invalid login'));
      if (auth.method === 'XOAUTH2') {
        const user = options.checkToken?.(auth.accessToken ?? '');
        if (user && user.toLowerCase() === (auth.username ?? '').toLowerCase())
          return callback(null, { user });
        return callback(null, { data: { status: '401', schemes: 'bearer', scope: 'mail' } });
      }
      const expected = dovecot.passwordOf(auth.username ?? '');
      if (expected !== undefined && expected === auth.password)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (to.endsWith(`@${BOUNCE_DOMAIN}`) || dovecot.passwordOf(to) !== undefined) return callback();
      const error = new Error(`5.1.1 <${to}>: Recipient address rejected: User unknown`) as Error & {
        responseCode: number;
      };
      error.responseCode = 550;
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (nextDataCode !== null) {
          const code = nextDataCode;
          nextDataCode = null;
          const error = new Error(`${code === 554 ? '5.7.1' : '4.3.0'} Try again later`) as Error & {
            responseCode: number;
          };
          error.responseCode = code;
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        received.push({ from, to, raw, user: session.user as string | undefined });
        const local = to.filter((address) => !address.endsWith(`@${BOUNCE_DOMAIN}`));
        const bounced = to.filter((address) => address.endsWith(`@${BOUNCE_DOMAIN}`));
        const work = async () => {
          if (local.length > 0) await deliver(from, local, raw);
          for (const recipient of bounced) {
            if (from && dovecot.passwordOf(from) !== undefined) {
              await deliver('', [from], deliveryStatusReport({ to: from, recipient, originalRaw: raw }));
            }
          }
        };
        work().then(
          () => {
            if (!dropNext) return callback(null, 'Message queued');
            dropNext = false;
            // Taken, but the answer never reaches the client: its connection drops.
            const connections = (
              server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }
            ).connections;
            for (const connection of connections) {
              if (connection.id === session.id) connection._socket.destroy();
            }
          },
          (error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    failAuth(fail) {
      authFails = fail;
    },
    failNextData(code) {
      nextDataCode = code;
    },
    dropAfterNextData() {
      dropNext = true;
    },
    async close() {
      // Connections still open here are a leak of the code under test (a pool nobody closed): fail, fast.
      const open = (server as unknown as { connections: Set<unknown> }).connections.size;
      lmtp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (open > 0) {
        throw new Error(
          `${open} SMTP connection(s) were still open when the test relay closed: close the mail access first`,
        );
      }
    },
  };
}
