// Sending e-mails through the API (send-email) on a real database, through a real SMTP server into
// Dovecot. Reading them: emails.routes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';
import { newId } from '../../../lib/ids.js';
import {
  type Account,
  connectMailbox,
  type Mailbox,
  makeContact,
  receivedMail,
  sendEmail,
} from './emails.test-support.js';

let ctx: TestContext;
let mail: MailSystem;
let alice: TestUser;

const MAIL = mailServersAvailable('the e-mails API tests');

describe.skipIf(!MAIL)('e-mails API: send-email through SMTP into Dovecot', () => {
  let mailbox: Mailbox;

  beforeAll(async () => {
    mail = await startMailSystem();
    ctx = await createTestContext({ env: MAIL_TEST_ENV });
    alice = await ctx.createUser();
    mailbox = await connectMailbox(ctx, mail, alice);
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  const contact = (user: TestUser, address: string | null, first?: string) =>
    makeContact(ctx, user, address, first);
  const received = (who: Account) => receivedMail(mail, who);
  const send = (user: TestUser, payload: Record<string, unknown>) => sendEmail(ctx, user, payload);

  it('sends with the n8n body shape (mailbox_uuid, to[]) and answers 201 {email, email_body}', async () => {
    const person = await mail.account();
    const lead = await contact(alice, person.email);
    const res = await send(alice, {
      mailbox_uuid: mailbox.uuid,
      to: [{ to_email: person.email, to_name: 'Ann Lee' }],
      subject: 'Quick question',
      body: '<p>Hi Ann, <b>a minute</b> this week?</p>',
      cc: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { email, email_body, emailDomain, emailBodyDomain } = res.json();
    expect(email).toMatchObject({
      type: 'outbox',
      status: 'sent',
      mailbox_uuid: mailbox.uuid,
      sender_profile_uuid: mailbox.sender_profile_uuid,
      lead_uuid: lead.uuid,
      to_email: person.email,
      subject: 'Quick question',
      user_id: alice.userId,
      email_body_uuid: email_body.uuid,
    });
    expect(email_body).toMatchObject({
      subject: 'Quick question',
      body: '<p>Hi Ann, <b>a minute</b> this week?</p>',
    });
    expect(emailDomain.uuid).toBe(email.uuid);
    expect(emailBodyDomain.uuid).toBe(email_body.uuid);
    const inbox = await received(person);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.messageId).toBe(email.message_id);
    // Tracking is a flow setting: a hand-sent e-mail carries no pixel and no unsubscribe header.
    expect(inbox[0]!.source).not.toMatch(/List-Unsubscribe|\/emails\/t\//);
    const events = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', alice.teamId)
      .where('name', '=', 'sender_profile_sent_email')
      .where('lead_uuid', '=', lead.uuid)
      .execute();
    expect(events).toHaveLength(1);
  });

  it('sends with the documented body shape (sender_profile_uuid, to_email) and replies in the thread', async () => {
    const person = await mail.account();
    const first = await send(alice, {
      sender_profile_uuid: mailbox.sender_profile_uuid,
      from_name: 'ignored',
      from_email: mailbox.email,
      to_name: 'Bo',
      to_email: person.email,
      subject: 'Hello Bo',
      body: '<p>First</p>',
      cc: [],
      bcc: [],
    });
    expect(first.statusCode, first.body).toBe(201);
    const original = first.json().email;
    // No recipient and no subject: a reply goes to the same person, "Re:" the subject.
    const reply = await send(alice, {
      mailbox_uuid: mailbox.uuid,
      in_reply_to_email_uuid: original.uuid,
      body: '<p>Following up</p>',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().email).toMatchObject({
      subject: 'Re: Hello Bo',
      to_email: person.email,
      thread_uuid: original.thread_uuid,
      in_reply_to: original.message_id,
    });
    const inbox = await received(person);
    expect(inbox.map((m) => m.subject)).toEqual(['Hello Bo', 'Re: Hello Bo']);
    expect(inbox[1]!.inReplyTo).toBe(original.message_id);

    const thread = await ctx.request(alice, {
      method: 'GET',
      url: `/emails/api/emails/${reply.json().email.uuid}/thread`,
    });
    expect(thread.statusCode).toBe(200);
    expect(thread.json().thread_uuid).toBe(original.thread_uuid);
    expect(thread.json().data.map((e: { subject: string; body: string }) => [e.subject, e.body])).toEqual([
      ['Hello Bo', '<p>First</p>'],
      ['Re: Hello Bo', '<p>Following up</p>'],
    ]);
  });

  it('refuses a send that lacks a recipient, a subject or a mailbox with a 422 naming it', async () => {
    const lead = await contact(alice, null);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mailbox_uuid: mailbox.uuid, subject: 'Hi', body: 'x' }, 'to_email'],
      [{ mailbox_uuid: mailbox.uuid, to: [{ to_email: 'a@example.com' }], body: 'x' }, 'subject'],
      [{ mailbox_uuid: mailbox.uuid, lead_uuid: lead.uuid, subject: 'Hi', body: 'x' }, 'to_email'],
      [{ to: [{ to_email: 'a@example.com' }], subject: 'Hi', body: 'x' }, 'mailbox_uuid'],
      [{ mailbox_uuid: newId(), to: [{ to_email: 'a@example.com' }], subject: 'Hi' }, 'mailbox_uuid'],
      [
        {
          mailbox_uuid: mailbox.uuid,
          to: [{ to_email: 'a@example.com' }],
          subject: 'Hi',
          lead_uuid: newId(),
        },
        'lead_uuid',
      ],
      [{ mailbox_uuid: mailbox.uuid, to: [{ to_email: 'not an address' }], subject: 'Hi' }, 'to'],
      [
        {
          mailbox_uuid: mailbox.uuid,
          to: [{ to_email: 'a@example.com' }],
          subject: 'Hi',
          attachments: [{ uuid: newId() }],
        },
        'attachments',
      ],
      [{ mailbox_uuid: mailbox.uuid, in_reply_to_email_uuid: newId() }, 'in_reply_to_email_uuid'],
    ];
    for (const [payload, field] of cases) {
      const res = await send(alice, payload);
      expect(res.statusCode, `${JSON.stringify(payload)} ${res.body}`).toBe(422);
      expect(JSON.stringify(res.json().error.data), res.body).toContain(field);
    }
    const before = await ctx.db
      .selectFrom('emails')
      .select('uuid')
      .where('team_id', '=', alice.teamId)
      .execute();
    // An inactive mailbox does not send.
    await ctx.request(alice, { method: 'PUT', url: `/emails/api/mailboxes/${mailbox.uuid}/deactivate` });
    const off = await send(alice, {
      mailbox_uuid: mailbox.uuid,
      to: [{ to_email: 'a@example.com' }],
      subject: 'Hi',
    });
    expect(off.statusCode).toBe(422);
    expect(off.json().message).toMatch(/inactive/);
    await ctx.request(alice, { method: 'PUT', url: `/emails/api/mailboxes/${mailbox.uuid}/activate` });
    const after = await ctx.db
      .selectFrom('emails')
      .select('uuid')
      .where('team_id', '=', alice.teamId)
      .execute();
    expect(after).toHaveLength(before.length);
  });
});
