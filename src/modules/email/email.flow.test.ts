// E-mail flows end to end: the engine (fake clock) sends through a real SMTP server into a real
// Dovecot; the contact's answers are submitted over SMTP like any mail; the IMAP sync finds them.
// Bounces, a dropped connection and the daily limit: email.delivery.flow.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { enroll, makeFlow } from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../test/mail/mail-system.js';
import { emailFlowKit } from './email.flow.test-support.js';

let h: EngineHarness;
let mail: MailSystem;
const { db, team, senderWithMailbox, contact, twoEmails, inbox, sync, answer, status } = emailFlowKit(() => ({
  h,
  mail,
}));

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
});
