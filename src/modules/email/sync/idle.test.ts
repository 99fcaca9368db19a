// IMAP IDLE in the sync loop, against Dovecot: with the poll an hour away, a reply submitted over SMTP
// is found within seconds because the loop holds an IDLE connection on the mailbox's INBOX.
import nodemailer from 'nodemailer';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../../test/harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';
import { secretBoxOf } from '../../../deps.js';
import { createMailAccess } from '../transport/mail-access.js';
import { startMailboxSync } from './sync-loop.js';

let ctx: TestContext;
let mail: MailSystem;
let alice: TestUser;

const MAIL = mailServersAvailable('the IMAP IDLE tests');

describe.skipIf(!MAIL)('mailbox sync with IMAP IDLE (Dovecot)', () => {
  beforeAll(async () => {
    mail = await startMailSystem();
    ctx = await createTestContext({ env: { ...MAIL_TEST_ENV, LEADFLOW_EMAIL_SYNC_POLL_SECONDS: '3600' } });
    alice = await ctx.createUser();
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  it('detects a reply within seconds while the next poll is an hour away', async () => {
    const sender = await makeSender(ctx.db, alice.teamId);
    const account = await mail.account();
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/emails/api/mailboxes',
      payload: {
        email: account.email,
        sender_name: 'Sam Sender',
        sender_profile_uuid: sender.uuid,
        connection_settings: mail.settings(account),
      },
    });
    const mailbox = created.json();
    expect(mailbox.status).toBe('active');
    const person = await mail.account();
    const list = await makeList(ctx.db, alice.teamId, 'idle');
    const [lead] = await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Ida', work_email: person.email },
    ]);
    const sent = await ctx.request(alice, {
      method: 'POST',
      url: '/emails/api/emails/send-email',
      payload: { mailbox_uuid: mailbox.uuid, lead_uuid: lead!.uuid, subject: 'Ping', body: '<p>Ping</p>' },
    });
    expect(sent.statusCode, sent.body).toBe(201);

    const access = createMailAccess({ db: ctx.db, box: secretBoxOf(ctx.config), config: ctx.config });
    const loop = startMailboxSync({
      db: ctx.db,
      mail: access,
      config: ctx.config,
      log: pino({ level: 'silent' }),
    });
    try {
      // The first round syncs the mailbox (and plans the next poll an hour later), then watches it.
      await waitFor(async () => loop.watching() === 1, 20_000);
      const row = await ctx.db
        .selectFrom('mailboxes')
        .select('next_sync_at')
        .where('uuid', '=', mailbox.uuid)
        .executeTakeFirstOrThrow();
      expect(row.next_sync_at!.getTime()).toBeGreaterThan(Date.now() + 3000_000);

      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: mail.relay.port,
        secure: false,
        auth: { user: person.email, pass: person.password },
      });
      const started = Date.now();
      await transport.sendMail({
        from: person.email,
        to: account.email,
        subject: 'Re: Ping',
        text: 'Pong',
        inReplyTo: sent.json().email.message_id,
      });
      transport.close();
      const reply = await waitFor(
        async () =>
          ctx.db
            .selectFrom('emails')
            .select(['classification', 'lead_uuid'])
            .where('mailbox_uuid', '=', mailbox.uuid)
            .where('type', '=', 'inbox')
            .executeTakeFirst(),
        15_000,
      );
      const latency = Date.now() - started;
      expect(reply).toEqual({ classification: 'reply', lead_uuid: lead!.uuid });
      expect(latency).toBeLessThan(15_000);
      const events = await ctx.db
        .selectFrom('events')
        .select('uuid')
        .where('name', '=', 'contact_replied_email')
        .where('lead_uuid', '=', lead!.uuid)
        .execute();
      expect(events).toHaveLength(1);

      // A deactivated mailbox is no longer watched (checked at the start of each round).
      await ctx.request(alice, { method: 'PUT', url: `/emails/api/mailboxes/${mailbox.uuid}/deactivate` });
    } finally {
      await loop.stop();
      access.close();
    }
    expect(loop.watching()).toBe(0);
  }, 60_000);
});
