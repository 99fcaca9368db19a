// A mailbox's SMTP and IMAP hosts are the user's choice, so the outbound guard checks them: loopback,
// private, link-local and cloud metadata hosts are a 422 naming the field on create, update and activate,
// before anything connects (no port scanning through mailbox errors); sending and syncing a stored
// mailbox whose host is refused fail without connecting. LEADFLOW_OUTBOUND_* open private hosts.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { secretBoxOf } from '../../../deps.js';
import { newId } from '../../../lib/ids.js';
import { sealSecrets } from '../transport/credentials.js';
import { MailFailure } from '../transport/mail-errors.js';

/** A would-be mail server on loopback that counts the connections it gets and drops them. */
let server: net.Server;
let connections = 0;
let port = 0;
beforeAll(async () => {
  server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const settings = (smtpHost: string, imapHost = smtpHost) => ({
  smtp_host: smtpHost,
  smtp_port: port,
  smtp_secure: false,
  smtp_password: 'pw',
  imap_host: imapHost,
  imap_port: port,
  imap_secure: false,
  imap_password: 'pw',
});

async function create(ctx: TestContext, user: TestUser, connection: Record<string, unknown>) {
  const sender = await makeSender(ctx.db, user.teamId);
  return ctx.request(user, {
    method: 'POST',
    url: '/emails/api/mailboxes',
    payload: {
      email: `box-${newId()}@example.com`,
      sender_name: 'Sam',
      sender_profile_uuid: sender.uuid,
      connection_settings: connection,
    },
  });
}

/** A mailbox stored as if it had been connected while its host was allowed. */
async function storedMailbox(ctx: TestContext, user: TestUser, host: string) {
  const sender = await makeSender(ctx.db, user.teamId);
  const secrets = sealSecrets(secretBoxOf(ctx.config), {
    kind: 'password',
    smtp_password: 'pw',
    imap_password: 'pw',
  });
  const { smtp_password: _s, imap_password: _i, ...connection } = settings(host);
  return ctx.db
    .insertInto('mailboxes')
    .values({
      team_id: user.teamId,
      uuid: newId(),
      user_id: user.userId,
      sender_profile_uuid: sender.uuid,
      email: `stored-${newId()}@example.com`,
      sender_name: 'Sam',
      provider: 'smtp',
      status: 'active',
      automation_daily_limit: 50,
      automation_task_interval: 120,
      connection_settings: JSON.stringify(connection),
      secrets,
      send_status: 'ok',
      sync_status: 'ok',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

describe('mailbox servers without private targets allowed', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { LEADFLOW_EMAIL_CONNECT_TIMEOUT_MS: '2000' } });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it.each([
    ['loopback', '127.0.0.1', 'smtp_host', '127.0.0.1 is a loopback address'],
    ['localhost', 'localhost', 'smtp_host', 'localhost resolves to'],
    ['IPv6 loopback', '::1', 'smtp_host', '::1 is a loopback address'],
    ['private', '10.0.0.5', 'smtp_host', '10.0.0.5 is a private address'],
    ['link-local (metadata)', '169.254.169.254', 'smtp_host', 'link-local'],
    ['metadata host', 'metadata.google.internal', 'smtp_host', 'is a cloud metadata host'],
  ])(
    'refuses a %s SMTP host on create with a 422, connecting nowhere',
    async (_kind, host, field, reason) => {
      const before = connections;
      const res = await create(ctx, user, settings(host));
      expect(res.statusCode, res.body).toBe(422);
      const message = res.json().error.data[`connection_settings.${field}`][0] as string;
      expect(message).toContain(reason);
      expect(message).toContain('mail servers may only reach public addresses');
      expect(connections).toBe(before);
      const stored = await ctx.db
        .selectFrom('mailboxes')
        .select('uuid')
        .where('team_id', '=', user.teamId)
        .execute();
      expect(stored).toEqual([]);
    },
  );

  it('refuses a private IMAP host (the SMTP one may be anything) and names the IMAP field', async () => {
    const res = await create(ctx, user, settings('mail.example.invalid', '192.168.1.10'));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty(['connection_settings.imap_host']);
    expect(res.json().message).toContain('LEADFLOW_OUTBOUND_ALLOW_PRIVATE=true lifts this');
  });

  it('refuses a private host on update and on activate, and sends and syncs nothing to one', async () => {
    const mailbox = await storedMailbox(ctx, user, '127.0.0.1');
    const before = connections;
    const update = await ctx.request(user, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox.uuid}`,
      payload: { connection_settings: { imap_host: '172.16.0.9' } },
    });
    expect(update.statusCode).toBe(422);
    expect(update.json().error.data).toHaveProperty(['connection_settings.smtp_host']);
    const activate = await ctx.request(user, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox.uuid}/activate`,
    });
    expect(activate.statusCode).toBe(422);
    expect(activate.json().error.data['connection_settings.smtp_host'][0]).toContain('loopback');

    // A mailbox stored before the switch was turned off: its connections are refused too, never made.
    const mail = ctx.services.email.mail;
    const send = mail.send(mailbox, { from: mailbox.email, to: ['x@example.com'] }, 'Subject: x\r\n\r\nx');
    await expect(send).rejects.toBeInstanceOf(MailFailure);
    await expect(send).rejects.toMatchObject({ kind: 'blocked', needsAttention: true });
    await expect(mail.imap(mailbox)).rejects.toMatchObject({ kind: 'blocked' });
    expect(connections).toBe(before);
  });

  it('keeps errors about public-looking hosts as they were: a name that does not resolve says so', async () => {
    const res = await create(ctx, user, settings('mail.example.invalid'));
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('error');
    const errors = await ctx.request(user, {
      method: 'GET',
      url: `/emails/api/mailbox-errors?filter[mailbox_uuid]=${res.json().uuid}`,
    });
    expect(
      errors
        .json()
        .data.map((e: { message: string }) => e.message)
        .join(' '),
    ).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });
});

describe.each([
  ['LEADFLOW_OUTBOUND_ALLOW_PRIVATE=true', { LEADFLOW_OUTBOUND_ALLOW_PRIVATE: 'true' }],
  ['LEADFLOW_OUTBOUND_ALLOWLIST', { LEADFLOW_OUTBOUND_ALLOWLIST: '127.0.0.1/32' }],
])('mailbox servers with %s', (_name, env) => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { ...env, LEADFLOW_EMAIL_CONNECT_TIMEOUT_MS: '2000' } });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('connects to a server on this machine (and reports what it said); link-local stays closed', async () => {
    const before = connections;
    const res = await create(ctx, user, settings('127.0.0.1'));
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('error');
    expect(connections).toBeGreaterThan(before);

    const metadata = await create(ctx, user, settings('169.254.169.254'));
    expect(metadata.statusCode).toBe(422);
    expect(metadata.json().message).toContain('stay blocked unless LEADFLOW_OUTBOUND_ALLOWLIST names them');
  });
});
