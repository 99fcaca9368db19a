// IMAP IDLE on a mailbox's INBOX: one connection held open, and `onNew` called when the server says
// new mail arrived (an untagged EXISTS). Only where the server offers IDLE (else the poll does the
// work). The IDLE is renewed every few minutes (servers and middleboxes drop silent connections); a
// dropped connection ends the watch (`onEnd`) and the sync loop starts another after its next poll.
import type { MailAccess, Mailbox } from '../transport/mail-access.js';

const RENEW_MS = 4 * 60_000;

export type IdleWatch = { close(): Promise<void> };

export async function watchInbox(
  mail: MailAccess,
  mailbox: Mailbox,
  handlers: { onNew: () => void; onEnd: () => void },
): Promise<IdleWatch | null> {
  const client = await mail.imap(mailbox);
  if (!client.capabilities.has('IDLE')) {
    await client.logout().catch(() => {});
    return null;
  }
  let closed = false;
  client.on('exists', () => handlers.onNew());
  client.on('close', () => {
    if (!closed) {
      closed = true;
      clearInterval(renew);
      handlers.onEnd();
    }
  });
  await client.mailboxOpen('INBOX', { readOnly: true });
  const idle = () => {
    if (!closed) client.idle().catch(() => {});
  };
  // A NOOP ends the running IDLE (and picks up anything pending); then idle again.
  const renew = setInterval(() => {
    client
      .noop()
      .then(idle)
      .catch(() => {});
  }, RENEW_MS);
  renew.unref();
  idle();
  return {
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(renew);
      await client.logout().catch(() => client.close());
    },
  };
}
