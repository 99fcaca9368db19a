// Helpers of the e-mail flow tests (email.flow.test.ts, email.delivery.flow.test.ts): a sender with a
// mailbox, contacts, the contact's own mail account read and written over IMAP/SMTP, the mailbox's sync.
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { expect } from 'vitest';
import { ALWAYS, makeSender, type NodeSpec } from '../../../test/automation-factories.js';
import type { EngineHarness } from '../../../test/engine-harness.js';
import { makeLeads, makeList } from '../../../test/factories.js';
import type { MailSystem } from '../../../test/mail/mail-system.js';
import { secretBoxOf } from '../../deps.js';
import { syncMailbox } from './sync/imap-sync.js';
import { createMailAccess } from './transport/mail-access.js';

/** The helpers over the file's engine harness and mail system (read when called: set in beforeAll). */
export function emailFlowKit(get: () => { h: EngineHarness; mail: MailSystem }) {
  const db = () => get().h.ctx.db;
  const team = () => get().h.user.teamId;

  /** A sender with one connected mailbox (through the API), and its mail account. */
  async function senderWithMailbox(limits: { daily?: number; interval?: number } = {}) {
    const sender = await makeSender(db(), team(), { schedule: ALWAYS, action_interval_seconds: 0 });
    const account = await get().mail.account();
    const res = await get().h.ctx.request(get().h.user, {
      method: 'POST',
      url: '/emails/api/mailboxes',
      payload: {
        email: account.email,
        sender_name: 'Sam Sender',
        sender_profile_uuid: sender.uuid,
        connection_settings: get().mail.settings(account),
        automation_daily_limit: limits.daily ?? 50,
        automation_task_interval: limits.interval ?? 0,
      },
    });
    expect(res.json().status).toBe('active');
    return { sender, account, mailbox: res.json() as { uuid: string } };
  }

  async function contact(address: string, first = 'Ann') {
    const list = await makeList(db(), team(), `list ${address}`);
    const [lead] = await makeLeads(db(), team(), list.uuid, [
      { first_name: first, last_name: 'Lee', work_email: address },
    ]);
    return lead!;
  }

  const twoEmails = (delay = 86_400): NodeSpec[] => [
    {
      id: 1,
      type: 'email_send_message',
      payload: { subject: 'Hello {{first_name}}', template: '<p>Hi {{first_name}}, a question.</p>' },
      next: { 1: 2 },
    },
    {
      id: 2,
      type: 'email_send_message',
      delay_in_seconds: delay,
      payload: { subject: '', template: '<p>Just following up.</p>', add_history: 1 },
      next: { 1: 3 },
    },
    { id: 3, type: 'end' },
  ];

  async function inbox(account: { email: string; password: string }, folder = 'INBOX') {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: get().mail.dovecot.imapPort,
      secure: false,
      auth: { user: account.email, pass: account.password },
      logger: false,
    });
    await client.connect();
    const lock = await client.getMailboxLock(folder);
    try {
      const messages = await client.fetchAll('1:*', {
        source: true,
        envelope: true,
        headers: ['in-reply-to', 'references', 'list-unsubscribe'],
      });
      return messages.map((m) => ({
        subject: m.envelope?.subject,
        messageId: m.envelope?.messageId,
        inReplyTo: m.envelope?.inReplyTo,
        source: m.source?.toString() ?? '',
      }));
    } catch {
      return [];
    } finally {
      lock.release();
      await client.logout();
    }
  }

  async function sync(mailboxUuid: string) {
    const row = await db()
      .selectFrom('mailboxes')
      .selectAll()
      .where('uuid', '=', mailboxUuid)
      .executeTakeFirstOrThrow();
    const access = createMailAccess({
      db: db(),
      box: secretBoxOf(get().h.ctx.config),
      config: get().h.ctx.config,
    });
    try {
      return await syncMailbox(
        { db: db(), mail: access, batchSize: 100, historyDays: 36_500 },
        row,
        get().h.clock.now(),
      );
    } finally {
      access.close();
    }
  }

  /** The contact writes to the mailbox over SMTP (as their own account). */
  async function answer(
    from: { email: string; password: string },
    to: string,
    message: Record<string, unknown>,
  ) {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: get().mail.relay.port,
      secure: false,
      auth: { user: from.email, pass: from.password },
    });
    await transport.sendMail({ from: from.email, to, ...message });
    transport.close();
  }

  const status = async (uuid: string) =>
    await db()
      .selectFrom('flow_leads')
      .select(['status', 'reason'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();

  return { db, team, senderWithMailbox, contact, twoEmails, inbox, sync, answer, status };
}
