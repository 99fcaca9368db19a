// The e-mails API through HTTP on a real database, sending through a real SMTP server into Dovecot.
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';
import { newId } from '../../../lib/ids.js';

let ctx: TestContext;
let mail: MailSystem;
let alice: TestUser;
let bob: TestUser;

type Account = { email: string; password: string };

const MAIL = mailServersAvailable('the e-mails API tests');

describe.skipIf(!MAIL)('e-mails API (send-email through SMTP into Dovecot)', () => {
  let mailbox: { uuid: string; email: string; sender_profile_uuid: string };
  let account: Account;

  beforeAll(async () => {
    mail = await startMailSystem();
    ctx = await createTestContext({ env: MAIL_TEST_ENV });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    mailbox = await connect(alice);
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  async function connect(user: TestUser) {
    const sender = await makeSender(ctx.db, user.teamId);
    account = await mail.account();
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

  async function contact(user: TestUser, address: string | null, first = 'Ann') {
    const list = await makeList(ctx.db, user.teamId, `list ${newId()}`);
    const [lead] = await makeLeads(ctx.db, user.teamId, list.uuid, [
      { first_name: first, last_name: 'Lee', ...(address ? { work_email: address } : {}) },
    ]);
    return lead!;
  }

  async function received(who: Account) {
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

  const send = (user: TestUser, payload: Record<string, unknown>) =>
    ctx.request(user, { method: 'POST', url: '/emails/api/emails/send-email', payload });

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

  it('lists with bracket and flat filters, gets, finds the latest per contact, lists bodies, deletes', async () => {
    const person = await mail.account();
    const lead = await contact(alice, person.email, 'Lia');
    const sent = [];
    for (const subject of ['One', 'Two']) {
      const res = await send(alice, {
        mailbox_uuid: mailbox.uuid,
        lead_uuid: lead.uuid,
        subject,
        body: `<p>${subject}</p>`,
      });
      expect(res.statusCode, res.body).toBe(201);
      sent.push(res.json());
    }
    const list = async (user: TestUser, query: string) => {
      const res = await ctx.request(user, { method: 'GET', url: `/emails/api/emails?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const byLead = await list(alice, `filter[lead_uuid]=${lead.uuid}&order_field=sent_at&order_type=asc`);
    expect(byLead.data.map((e: { subject: string }) => e.subject)).toEqual(['One', 'Two']);
    expect(byLead.pagination).toEqual({ limit: 20, offset: 0, total: 2, has_more: false });
    expect((await list(alice, `lead_uuid=${lead.uuid}`)).total).toBe(2);
    expect((await list(alice, `filter[lead_uuid]=${lead.uuid}&filter[type]=inbox`)).total).toBe(0);
    expect(
      (
        await list(
          alice,
          `filter[lead_uuid]=${lead.uuid}&filter[status]=sent&filter[mailbox_uuid]=${mailbox.uuid}`,
        )
      ).total,
    ).toBe(2);
    expect((await list(alice, `filter[to_email]=${person.email.toUpperCase()}`)).total).toBe(2);
    expect(
      (
        await list(
          alice,
          `filter[sender_profile_uuid]=${mailbox.sender_profile_uuid}&filter[lead_uuid]=${lead.uuid}`,
        )
      ).total,
    ).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(alice, `filter[lead_uuid]=${lead.uuid}&filter[sent_at]=${today}`)).total).toBe(2);
    expect(
      (await list(alice, `filter[lead_uuid]=${lead.uuid}&filter[sent_at]=2000-01-01,2000-12-31`)).total,
    ).toBe(0);
    expect((await list(alice, `filter[lead_uuid]=${lead.uuid}&filter[sent_at][from]=${today}`)).total).toBe(
      2,
    );
    expect((await list(alice, `filter[flow_uuid]=${newId()}`)).total).toBe(0);
    const bad = await ctx.request(alice, { method: 'GET', url: '/emails/api/emails?filter[type]=sideways' });
    expect(bad.statusCode).toBe(422);
    expect((await list(bob, `filter[lead_uuid]=${lead.uuid}`)).total).toBe(0);

    const latest = await ctx.request(alice, {
      method: 'POST',
      url: '/emails/api/emails/latest-by-leads',
      payload: { lead_uuids: [lead.uuid, newId()] },
    });
    expect(latest.statusCode).toBe(200);
    expect(latest.json().data.map((e: { subject: string }) => e.subject)).toEqual(['Two']);
    const bobsLatest = await ctx.request(bob, {
      method: 'POST',
      url: '/emails/api/emails/latest-by-leads',
      payload: { lead_uuids: [lead.uuid] },
    });
    expect(bobsLatest.json().data).toEqual([]);

    const one = sent[0]!.email;
    const got = await ctx.request(alice, { method: 'GET', url: `/emails/api/emails/${one.uuid}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ uuid: one.uuid, email_body_uuid: one.email_body_uuid });
    const bodies = await ctx.request(alice, { method: 'GET', url: '/emails/api/email-bodies?search=Two' });
    expect(bodies.json().data.map((b: { subject: string }) => b.subject)).toContain('Two');
    const body = await ctx.request(alice, {
      method: 'GET',
      url: `/emails/api/email-bodies/${one.email_body_uuid}`,
    });
    expect(body.json()).toMatchObject({ subject: 'One', body: '<p>One</p>', attachments: [] });

    // Another team sees none of it.
    for (const url of [
      `/emails/api/emails/${one.uuid}`,
      `/emails/api/emails/${one.uuid}/thread`,
      `/emails/api/email-bodies/${one.email_body_uuid}`,
    ]) {
      expect((await ctx.request(bob, { method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect(
      (await ctx.request(bob, { method: 'DELETE', url: `/emails/api/emails/${one.uuid}` })).statusCode,
    ).toBe(404);
    expect(
      (await send(bob, { mailbox_uuid: mailbox.uuid, to: [{ to_email: person.email }], subject: 'x' }))
        .statusCode,
    ).toBe(422);
    expect((await ctx.request(bob, { method: 'GET', url: '/emails/api/email-bodies' })).json().total).toBe(0);

    const del = await ctx.request(alice, { method: 'DELETE', url: `/emails/api/emails/${one.uuid}` });
    expect(del.statusCode).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/emails/api/emails/${one.uuid}` })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/emails/api/email-bodies/${one.email_body_uuid}` }))
        .statusCode,
    ).toBe(404);
  });

  it('gives a contact\u2019s conversation as plain text for an LLM, oldest first, quoted history cut', async () => {
    const person = await mail.account();
    const lead = await contact(alice, person.email, 'Ola');
    const res = await send(alice, {
      mailbox_uuid: mailbox.uuid,
      lead_uuid: lead.uuid,
      subject: 'Pilot',
      body: '<p>Would a pilot help?</p>',
    });
    const ours = res.json().email;
    // The contact's answer as the sync stores it, quoting our e-mail under theirs.
    const bodyUuid = newId();
    await ctx.db
      .insertInto('email_bodies')
      .values({
        team_id: alice.teamId,
        uuid: bodyUuid,
        subject: 'Re: Pilot',
        body: null,
        text_body: `Yes, next week works.\n\nOn Mon, 1 Jan 2026 at 10:00, Sam Sender <${mailbox.email}> wrote:\n> Would a pilot help?\n`,
        attachments: '[]',
      })
      .execute();
    await ctx.db
      .insertInto('emails')
      .values({
        team_id: alice.teamId,
        uuid: newId(),
        mailbox_uuid: mailbox.uuid,
        sender_profile_uuid: mailbox.sender_profile_uuid,
        email_body_uuid: bodyUuid,
        lead_uuid: lead.uuid,
        type: 'inbox',
        status: 'sync',
        classification: 'reply',
        from_email: person.email,
        subject: 'Re: Pilot',
        message_id: `<${newId()}@example.com>`,
        thread_uuid: ours.thread_uuid,
        sent_at: new Date(Date.now() + 60_000),
      })
      .execute();
    const llm = await ctx.request(alice, {
      method: 'POST',
      url: '/emails/api/emails/llm-thread',
      payload: {
        sender_profile_uuid: mailbox.sender_profile_uuid,
        lead_uuid: lead.uuid,
        lead_name: 'Ola Lee',
        limit: '10',
      },
    });
    expect(llm.statusCode, llm.body).toBe(200);
    const { thread, messages } = llm.json();
    expect(messages).toBe(2);
    expect(thread).toMatch(
      /^From: Sam Sender <[^>]+> \(us\)\nDate: .+\nSubject: Pilot\n\nWould a pilot help\?/,
    );
    expect(thread).toContain(`From: Ola Lee <${person.email}>`);
    expect(thread).toContain('Yes, next week works.');
    expect(thread.indexOf('Would a pilot help?')).toBe(thread.lastIndexOf('Would a pilot help?'));
    expect(thread.indexOf('Pilot\n')).toBeLessThan(thread.indexOf('Yes, next week'));

    const last = await ctx.request(alice, {
      method: 'POST',
      url: '/emails/api/emails/llm-thread',
      payload: {
        sender_profile_uuid: mailbox.sender_profile_uuid,
        lead_uuid: lead.uuid,
        lead_name: 'Ola',
        limit: 1,
      },
    });
    expect(last.json().messages).toBe(1);
    expect(last.json().thread).toContain('Yes, next week works.');
    const other = await ctx.request(bob, {
      method: 'POST',
      url: '/emails/api/emails/llm-thread',
      payload: { sender_profile_uuid: mailbox.sender_profile_uuid, lead_uuid: lead.uuid, lead_name: 'Ola' },
    });
    expect(other.json()).toEqual({ thread: '', messages: 0 });
    const missing = await ctx.request(alice, {
      method: 'POST',
      url: '/emails/api/emails/llm-thread',
      payload: { sender_profile_uuid: mailbox.sender_profile_uuid, lead_uuid: lead.uuid },
    });
    expect(missing.statusCode).toBe(422);
    expect(JSON.stringify(missing.json().error.data)).toContain('lead_name');
  });
});
