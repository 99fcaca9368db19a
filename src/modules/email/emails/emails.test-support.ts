// The e-mails API tests' helpers: a mailbox of a team connected to the test mail system, a contact
// with an address, what an account received (IMAP), a send through the API.
import { ImapFlow } from 'imapflow';
import { expect } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../../test/factories.js';
import type { TestContext, TestUser } from '../../../../test/harness.js';
import type { MailSystem } from '../../../../test/mail/mail-system.js';
import { newId } from '../../../lib/ids.js';

export type Account = { email: string; password: string };
export type Mailbox = { uuid: string; email: string; sender_profile_uuid: string };

/** A new sender of `user`'s team with a mailbox on a new account of the mail system. */
export async function connectMailbox(ctx: TestContext, mail: MailSystem, user: TestUser): Promise<Mailbox> {
  const sender = await makeSender(ctx.db, user.teamId);
  const account = await mail.account();
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/emails/api/mailboxes',
    payload: {
      email: account.email,
      sender_name: 'Sam Sender',
      sender_profile_uuid: sender.uuid,
      connection_settings: mail.settings(account),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A contact of `user`'s team (in a list of its own) with the work e-mail `address`. */
export async function makeContact(ctx: TestContext, user: TestUser, address: string | null, first = 'Ann') {
  const list = await makeList(ctx.db, user.teamId, `list ${newId()}`);
  const [lead] = await makeLeads(ctx.db, user.teamId, list.uuid, [
    { first_name: first, last_name: 'Lee', ...(address ? { work_email: address } : {}) },
  ]);
  return lead!;
}

/** What `who` received: the INBOX of its account. */
export async function receivedMail(mail: MailSystem, who: Account) {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: mail.dovecot.imapPort,
    secure: false,
    auth: { user: who.email, pass: who.password },
    logger: false,
  });
  await client.connect();
  const lock = await client.getMailboxLock('INBOX');
  try {
    const messages = await client.fetchAll('1:*', { envelope: true, source: true });
    return messages.map((m) => ({
      subject: m.envelope?.subject,
      messageId: m.envelope?.messageId,
      inReplyTo: m.envelope?.inReplyTo,
      to: m.envelope?.to?.map((t) => t.address),
      source: m.source?.toString() ?? '',
    }));
  } catch {
    return [];
  } finally {
    lock.release();
    await client.logout();
  }
}

export const sendEmail = (ctx: TestContext, user: TestUser, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'POST', url: '/emails/api/emails/send-email', payload });
