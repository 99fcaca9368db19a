// Sent copies on the held IMAP connection: many concurrent sends through the API into a real Dovecot,
// reached through a counting TCP proxy that can also cut its connections (as a server hanging up does).
import net from 'node:net';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';

/** A loopback TCP proxy to `port`: counts the connections it took and can cut all of them. */
async function tcpProxy(port: number) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let ctx: TestContext;
let mail: MailSystem;
let user: TestUser;
let proxy: Awaited<ReturnType<typeof tcpProxy>>;

const MAIL = mailServersAvailable('the held IMAP connection tests');

describe.skipIf(!MAIL)('Sent copies on the held IMAP connection', () => {
  beforeAll(async () => {
    mail = await startMailSystem();
    proxy = await tcpProxy(mail.dovecot.imapPort);
    ctx = await createTestContext({ env: MAIL_TEST_ENV });
    user = await ctx.createUser();
  });
  afterAll(async () => {
    await ctx?.close();
    await proxy?.close();
    await mail?.close();
  });

  async function sentFolder(account: { email: string; password: string }) {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: mail.dovecot.imapPort,
      secure: false,
      auth: { user: account.email, pass: account.password },
      logger: false,
    });
    await client.connect();
    const lock = await client.getMailboxLock('Sent');
    try {
      const messages = await client.fetchAll('1:*', { envelope: true, flags: true });
      return messages.map((m) => ({ messageId: m.envelope?.messageId, seen: m.flags?.has('\\Seen') }));
    } finally {
      lock.release();
      await client.logout();
    }
  }

  const sendMany = (mailboxUuid: string, to: string, count: number, tag: string) =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const res = await ctx.request(user, {
          method: 'POST',
          url: '/emails/api/emails/send-email',
          payload: {
            mailbox_uuid: mailboxUuid,
            to: [{ to_email: to, to_name: 'Ann' }],
            subject: `${tag} ${i}`,
            body: `<p>Message ${i}</p>`,
          },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().email.message_id as string;
      }),
    );

  it('files every copy of many concurrent sends on one connection, and replaces one that died', async () => {
    const sender = await makeSender(ctx.db, user.teamId);
    const account = await mail.account();
    const person = await mail.account();
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/emails/api/mailboxes',
      payload: {
        email: account.email,
        sender_name: 'Sam Sender',
        sender_profile_uuid: sender.uuid,
        connection_settings: { ...mail.settings(account), imap_port: proxy.port },
      },
    });
    expect(res.json().status, res.body).toBe('active');
    const mailbox = res.json() as { uuid: string };
    const access = ctx.services.email.mail;

    const before = proxy.connections();
    const first = await sendMany(mailbox.uuid, person.email, 30, 'Burst');
    await access.sentCopiesSettled();
    // One login for all 30 copies.
    expect(proxy.connections() - before).toBe(1);
    let filed = await sentFolder(account);
    expect(filed.map((m) => m.messageId).sort()).toEqual([...first].sort());
    expect(filed.every((m) => m.seen)).toBe(true);

    // The held connection dies (the server hung up): the next copies go on a new one.
    proxy.cut();
    const second = await sendMany(mailbox.uuid, person.email, 5, 'After');
    await access.sentCopiesSettled();
    expect(proxy.connections() - before).toBe(2);
    filed = await sentFolder(account);
    expect(filed.map((m) => m.messageId).sort()).toEqual([...first, ...second].sort());

    const errors = await ctx.db
      .selectFrom('mailbox_errors')
      .select('message')
      .where('mailbox_uuid', '=', mailbox.uuid)
      .execute();
    expect(errors).toEqual([]);
  });
});
