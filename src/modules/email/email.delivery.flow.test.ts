// E-mail flows end to end, delivery: a bounce report, a server that drops the connection after taking a
// message, a mailbox's daily limit (sending and replies: email.flow.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll, makeFlow } from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../test/mail/mail-system.js';
import { BOUNCE_DOMAIN } from '../../../test/mail/smtp-relay.js';
import { emailFlowKit } from './email.flow.test-support.js';

let h: EngineHarness;
let mail: MailSystem;
const { db, team, senderWithMailbox, contact, twoEmails, sync, status } = emailFlowKit(() => ({ h, mail }));

const MAIL = mailServersAvailable('the e-mail flow tests');

describe.skipIf(!MAIL)('e-mail delivery in flows (bounces, dropped connections, limits)', () => {
  beforeAll(async () => {
    mail = await startMailSystem();
    h = await createEngineHarness({ env: MAIL_TEST_ENV });
  });
  afterAll(async () => {
    await h?.close();
    await mail?.close();
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
