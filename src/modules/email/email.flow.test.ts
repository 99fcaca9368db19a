// E-mail flows end to end: the engine (fake clock) sends through a real SMTP server into a real
// Dovecot; the contact's answers are submitted over SMTP like any mail; the IMAP sync finds them.
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALWAYS, enroll, makeFlow, makeSender, type NodeSpec } from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { makeLeads, makeList } from '../../../test/factories.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../test/mail/mail-system.js';
import { BOUNCE_DOMAIN } from '../../../test/mail/smtp-relay.js';
import { secretBoxOf } from '../../deps.js';
import { syncMailbox } from './sync/imap-sync.js';
import { createMailAccess } from './transport/mail-access.js';

let h: EngineHarness;
let mail: MailSystem;

const db = () => h.ctx.db;
const team = () => h.user.teamId;

const MAIL = mailServersAvailable('the e-mail flow tests');

describe.skipIf(!MAIL)('e-mail flows (engine, SMTP, Dovecot, IMAP sync)', () => {
  beforeAll(async () => {
    mail = await startMailSystem();
    h = await createEngineHarness({ env: MAIL_TEST_ENV });
  });
  afterAll(async () => {
    await h?.close();
    await mail?.close();
  });

  /** A sender with one connected mailbox (through the API), and its mail account. */
  async function senderWithMailbox(limits: { daily?: number; interval?: number } = {}) {
    const sender = await makeSender(db(), team(), { schedule: ALWAYS, action_interval_seconds: 0 });
    const account = await mail.account();
    const res = await h.ctx.request(h.user, {
      method: 'POST',
      url: '/emails/api/mailboxes',
      payload: {
        email: account.email,
        sender_name: 'Sam Sender',
        sender_profile_uuid: sender.uuid,
        connection_settings: mail.settings(account),
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
      port: mail.dovecot.imapPort,
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
    const access = createMailAccess({ db: db(), box: secretBoxOf(h.ctx.config), config: h.ctx.config });
    try {
      return await syncMailbox(
        { db: db(), mail: access, batchSize: 100, historyDays: 36_500 },
        row,
        h.clock.now(),
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
      port: mail.relay.port,
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

  it('sends the first e-mail and a follow-up in its thread, with a stable Message-ID and a Sent copy', async () => {
    const { sender, account, mailbox } = await senderWithMailbox();
    const person = await mail.account();
    const lead = await contact(person.email);
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: twoEmails() });
    const [row] = await enroll(db(), team(), flow, [lead.uuid], { at: h.clock.now() });
    await h.run(async () => (await status(row!.uuid)).status === 'finished');

    const received = await inbox(person);
    expect(received.map((m) => m.subject)).toEqual(['Hello Ann', 'Re: Hello Ann']);
    expect(received[1]!.inReplyTo).toBe(received[0]!.messageId);
    expect(received[1]!.source).toContain('Hi Ann, a question.');
    expect(received[1]!.source).toMatch(/References: <[^>]+>/);

    const emails = await db()
      .selectFrom('emails')
      .selectAll()
      .where('lead_uuid', '=', lead.uuid)
      .orderBy('sent_at')
      .execute();
    expect(emails.map((e) => [e.status, e.type, e.mailbox_uuid])).toEqual([
      ['sent', 'outbox', mailbox.uuid],
      ['sent', 'outbox', mailbox.uuid],
    ]);
    expect(emails[0]!.message_id).toBe(received[0]!.messageId);
    expect(emails[1]!.thread_uuid).toBe(emails[0]!.uuid);
    const tasks = await db()
      .selectFrom('tasks')
      .select(['status', 'remote_ref'])
      .where('flow_lead_uuid', '=', row!.uuid)
      .where('type', '=', 'email_send_message')
      .orderBy('step')
      .execute();
    expect(tasks.map((t) => t.remote_ref)).toEqual(emails.map((e) => e.message_id));
    // The Sent copies follow the sends on the mailbox's held IMAP connection.
    await vi.waitFor(
      async () =>
        expect((await inbox(account, 'Sent')).map((m) => m.messageId)).toEqual(
          emails.map((e) => e.message_id),
        ),
      { timeout: 10_000, interval: 100 },
    );

    const sent = await db()
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', team())
      .where('name', '=', 'sender_profile_sent_email')
      .where('lead_uuid', '=', lead.uuid)
      .execute();
    expect(sent).toHaveLength(2);
    expect(sent[0]!.payload.email).toMatchObject({
      subject: 'Hello Ann',
      to_email: person.email,
      type: 'outbox',
      status: 'sent',
    });
  });

  it('stops the flow when the contact replies, not when an out-of-office answers', async () => {
    const { sender, account, mailbox } = await senderWithMailbox();
    const [ooo, replier] = [await mail.account(), await mail.account()];
    const [quiet, talker] = [await contact(ooo.email, 'Olga'), await contact(replier.email, 'Rita')];
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: twoEmails(5 * 86_400) });
    const rows = await enroll(db(), team(), flow, [quiet.uuid, talker.uuid], { at: h.clock.now() });
    const emailsSent = async () =>
      Number(
        (
          await db()
            .selectFrom('emails')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('mailbox_uuid', '=', mailbox.uuid)
            .executeTakeFirstOrThrow()
        ).n,
      ) === 2;
    await h.run(emailsSent);
    const [toOoo, toReplier] = await Promise.all([inbox(ooo), inbox(replier)]);

    await answer(ooo, account.email, {
      subject: 'Automatic reply: Hello Olga',
      text: 'I am out of the office until Monday.',
      inReplyTo: toOoo[0]!.messageId,
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    await answer(replier, account.email, {
      subject: 'Re: Hello Rita',
      text: 'Sounds interesting, tell me more.',
      inReplyTo: toReplier[0]!.messageId,
      references: [toReplier[0]!.messageId],
    });
    const first = await sync(mailbox.uuid);
    expect(first).toMatchObject({ replies: 1, autoReplies: 1 });
    // A second pass stores nothing again.
    expect(await sync(mailbox.uuid)).toMatchObject({ fetched: 0, stored: 0 });

    expect(await status(rows.find((r) => r.lead_uuid === talker.uuid)!.uuid)).toEqual({
      status: 'finished',
      reason: 'replied',
    });
    expect((await status(rows.find((r) => r.lead_uuid === quiet.uuid)!.uuid)).status).toBe('in_progress');

    const inboxRows = await db()
      .selectFrom('emails')
      .selectAll()
      .where('mailbox_uuid', '=', mailbox.uuid)
      .where('type', '=', 'inbox')
      .execute();
    const reply = inboxRows.find((e) => e.classification === 'reply')!;
    const outgoing = await db()
      .selectFrom('emails')
      .selectAll()
      .where('lead_uuid', '=', talker.uuid)
      .where('type', '=', 'outbox')
      .executeTakeFirstOrThrow();
    expect(reply).toMatchObject({
      lead_uuid: talker.uuid,
      replied_to_uuid: outgoing.uuid,
      thread_uuid: outgoing.thread_uuid,
      status: 'sync',
    });
    expect(inboxRows.find((e) => e.classification === 'auto_reply')?.lead_uuid).toBe(quiet.uuid);

    const replied = await db()
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', team())
      .where('name', '=', 'contact_replied_email')
      .execute();
    expect(replied).toHaveLength(1);
    expect(replied[0]!.payload.email).toMatchObject({
      type: 'inbox',
      from_email: replier.email,
      subject: 'Re: Hello Rita',
    });

    // The quiet contact gets the follow-up; the one who replied does not.
    await h.run(
      async () => (await status(rows.find((r) => r.lead_uuid === quiet.uuid)!.uuid)).status === 'finished',
    );
    expect((await inbox(ooo)).length).toBe(2);
    expect((await inbox(replier)).length).toBe(1);
  });

  it('marks a bounced address from the delivery report and skips the contact\u2019s next e-mail steps', async () => {
    const { sender, mailbox } = await senderWithMailbox();
    const lead = await contact(`gone-${Date.now()}@${BOUNCE_DOMAIN}`, 'Gone');
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes: twoEmails(2 * 86_400) });
    const [row] = await enroll(db(), team(), flow, [lead.uuid], { at: h.clock.now() });
    await h.run(async () =>
      (await db().selectFrom('emails').select('status').where('lead_uuid', '=', lead.uuid).execute()).some(
        (e) => e.status === 'sent',
      ),
    );

    const result = await sync(mailbox.uuid);
    expect(result.bounces).toBe(1);
    const [outgoing] = await db()
      .selectFrom('emails')
      .selectAll()
      .where('lead_uuid', '=', lead.uuid)
      .where('type', '=', 'outbox')
      .execute();
    expect(outgoing!.status).toBe('bounced');
    expect(outgoing!.bounced_by_uuid).not.toBeNull();
    const person = await db()
      .selectFrom('leads')
      .select('email_status')
      .where('uuid', '=', lead.uuid)
      .executeTakeFirstOrThrow();
    expect(person.email_status).toBe('bounced');
    expect(
      await db()
        .selectFrom('events')
        .select('uuid')
        .where('name', '=', 'email_bounced')
        .where('lead_uuid', '=', lead.uuid)
        .execute(),
    ).toHaveLength(1);

    await h.run(async () => (await status(row!.uuid)).status === 'finished');
    const steps = await db()
      .selectFrom('tasks')
      .select(['status', 'automation_error_code'])
      .where('flow_lead_uuid', '=', row!.uuid)
      .where('type', '=', 'email_send_message')
      .orderBy('step')
      .execute();
    expect(steps).toEqual([
      { status: 'closed', automation_error_code: null },
      { status: 'skipped', automation_error_code: expect.stringMatching(/email_bounced|email_suppressed/) },
    ]);
    expect(mail.relay.received.filter((m) => m.to.includes(lead.work_email!.toLowerCase()))).toHaveLength(1);
  });

  it('never sends twice when the server takes a message and drops the connection before answering', async () => {
    const { sender, mailbox } = await senderWithMailbox();
    const to = await mail.account();
    const lead = await contact(to.email, 'Dora');
    const flow = await makeFlow(db(), team(), {
      senders: [sender.uuid],
      nodes: [
        { id: 1, type: 'email_send_message', payload: { subject: 'Once', template: 'Hi' }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    const [row] = await enroll(db(), team(), flow, [lead.uuid], { at: h.clock.now() });
    const before = mail.relay.received.length;
    mail.relay.dropAfterNextData();
    await h.run(async () => (await status(row!.uuid)).status !== 'in_progress', { stepMs: 60_000 });
    // The relay took it once; the driver answered unconfirmed, and the outcome check (a plain SMTP
    // host files no Sent copy itself) could not tell: the step fails instead of sending again.
    expect(mail.relay.received.slice(before).filter((m) => m.to.includes(to.email))).toHaveLength(1);
    expect(await status(row!.uuid)).toEqual({ status: 'failed', reason: 'unknown_outcome' });
    const task = await db()
      .selectFrom('tasks')
      .select(['status', 'automation_error_code', 'error_msg'])
      .where('flow_lead_uuid', '=', row!.uuid)
      .where('type', '=', 'email_send_message')
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ status: 'failed', automation_error_code: 'unknown_outcome' });
    expect(task.error_msg).toMatch(/^unconfirmed: no answer after the message was handed over/);
    const email = await db()
      .selectFrom('emails')
      .select('status')
      .where('mailbox_uuid', '=', mailbox.uuid)
      .executeTakeFirstOrThrow();
    expect(email.status).toBe('waiting');
  });

  it('holds a mailbox to its daily limit: the next contact waits for the next day', async () => {
    const { sender, mailbox } = await senderWithMailbox({ daily: 1 });
    const [a, b] = [await mail.account(), await mail.account()];
    const leads = [await contact(a.email, 'Ada'), await contact(b.email, 'Bea')];
    const flow = await makeFlow(db(), team(), {
      senders: [sender.uuid],
      nodes: [
        { id: 1, type: 'email_send_message', payload: { subject: 'Hi', template: 'Hi' }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    const start = h.clock.now();
    await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: start },
    );
    const sentTimes = async () =>
      (
        await db()
          .selectFrom('emails')
          .select('sent_at')
          .where('mailbox_uuid', '=', mailbox.uuid)
          .where('status', '=', 'sent')
          .orderBy('sent_at')
          .execute()
      ).map((e) => e.sent_at as Date);
    await h.run(async () => (await sentTimes()).length === 2, { stepMs: 3600_000 });
    const [first, second] = await sentTimes();
    expect(first!.toISOString().slice(0, 10)).toBe(start.toISOString().slice(0, 10));
    expect(second!.toISOString().slice(0, 10)).not.toBe(first!.toISOString().slice(0, 10));
  });
});
