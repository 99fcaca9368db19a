// What went wrong talking to a mail server, in the few kinds the callers act on. nodemailer and
// imapflow report failures with codes and SMTP response codes; this is the one place that reads them.

export type MailFailureKind =
  /** The server refused the login (wrong password, revoked token): the mailbox needs attention. */
  | 'auth'
  /** A recipient was refused permanently (5xx at RCPT): a hard bounce. */
  | 'recipient'
  /** The message was refused permanently (5xx at DATA). */
  | 'rejected'
  /** The server's address is refused by the outbound guard (nothing was connected): fix the settings. */
  | 'blocked'
  /** Anything that may pass: connection, timeout, 4xx. */
  | 'transient'
  /**
   * The message was handed over (the server asked for the data and took it) but the server's answer
   * never came (a dropped connection, a timeout): it may have been accepted, so it is never sent again
   * on a guess.
   */
  | 'unconfirmed';

export class MailFailure extends Error {
  constructor(
    readonly kind: MailFailureKind,
    message: string,
    readonly responseCode?: number,
  ) {
    super(message);
  }

  /** The mailbox cannot work until someone changes it (a refused login or a refused address). */
  get needsAttention(): boolean {
    return this.kind === 'auth' || this.kind === 'blocked';
  }
}

type RawError = Error & {
  code?: string;
  responseCode?: number;
  response?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
};

/**
 * A send's failure once the message data started flowing: a server answer (4xx, 5xx) still says the
 * message was not taken; anything else (the connection dropped, a timeout) leaves it unknown.
 */
export function classifySendError(error: unknown, dataStarted: boolean): MailFailure {
  const failure = classifyMailError(error);
  if (!dataStarted || failure.kind !== 'transient' || failure.responseCode !== undefined) return failure;
  return new MailFailure('unconfirmed', `no answer after the message was handed over: ${failure.message}`);
}

export function classifyMailError(error: unknown): MailFailure {
  if (error instanceof MailFailure) return error;
  const raw = error as RawError;
  const text = (raw?.response ?? raw?.message ?? String(error)).trim();
  const code = raw?.responseCode;
  if (raw?.code === 'EAUTH' || raw?.code === 'ENOAUTH' || raw?.authenticationFailed) {
    return new MailFailure('auth', `login refused: ${text}`, code);
  }
  if (raw?.code === 'EENVELOPE' && code !== undefined && code >= 500) {
    return new MailFailure('recipient', text, code);
  }
  if (code !== undefined && code >= 500) return new MailFailure('rejected', text, code);
  return new MailFailure('transient', text || 'the mail server did not answer', code);
}
