// The e-mails API through HTTP on a real database, reading what was sent: lists, filters, the latest per
// contact, bodies, deletes and a contact's conversation for an LLM. Sending: emails.send.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';
import { newId } from '../../../lib/ids.js';
import { connectMailbox, type Mailbox, makeContact, sendEmail } from './emails.test-support.js';

let ctx: TestContext;
let mail: MailSystem;
let alice: TestUser;
let bob: TestUser;

const MAIL = mailServersAvailable('the e-mails API tests');

describe.skipIf(!MAIL)('e-mails API (lists, bodies, conversations)', () => {
  let mailbox: Mailbox;

  beforeAll(async () => {
    mail = await startMailSystem();
    ctx = await createTestContext({ env: MAIL_TEST_ENV });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    mailbox = await connectMailbox(ctx, mail, alice);
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  const contact = (user: TestUser, address: string | null, first?: string) =>
    makeContact(ctx, user, address, first);
  const send = (user: TestUser, payload: Record<string, unknown>) => sendEmail(ctx, user, payload);

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
