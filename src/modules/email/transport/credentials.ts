// What a mailbox logs in with, sealed at rest (src/lib/secrets.ts): the SMTP and IMAP passwords of an
// SMTP/IMAP mailbox, or the OAuth tokens of a Gmail or Outlook one. Only this file opens them.
import type { SecretBox } from '../../../lib/secrets.js';

export type PasswordSecrets = { kind: 'password'; smtp_password: string; imap_password: string };
export type OAuthSecrets = {
  kind: 'oauth';
  refresh_token: string;
  access_token: string | null;
  /** Epoch milliseconds. */
  expires_at: number | null;
};
export type MailboxSecrets = PasswordSecrets | OAuthSecrets;

export function sealSecrets(box: SecretBox, secrets: MailboxSecrets): string {
  return box.seal(JSON.stringify(secrets));
}

export function openSecrets(box: SecretBox, sealed: string | null): MailboxSecrets | null {
  if (!sealed) return null;
  return JSON.parse(box.openText(sealed)) as MailboxSecrets;
}
