import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';

let ctx: TestContext;
let mail: MailSystem;
let alice: TestUser;
let bob: TestUser;

const MAIL = mailServersAvailable('the mailbox tests');

describe.skipIf(!MAIL)('mailboxes (Dovecot and an SMTP server on loopback)', () => {
  beforeAll(async () => {
    mail = await startMailSystem({ oauth: true });
    const oauth = mail.oauth!;
    const local = {
      clientId: 'cid',
      clientSecret: 'csecret',
      authUrl: `${oauth.url}/authorize`,
      tokenUrl: `${oauth.url}/token`,
      scopes: ['https://mail.google.com/'],
      imap: { host: '127.0.0.1', port: mail.dovecot.imapPort, secure: false },
      smtp: { host: '127.0.0.1', port: mail.relay.port, secure: false },
    };
    ctx = await createTestContext({
      env: { ...MAIL_TEST_ENV, LEADFLOW_PUBLIC_URL: 'http://leadflow.test:8080' },
    });
    // The providers' endpoints point at the stand-in (Gmail asks userinfo, Outlook reads the id_token).
    const email = ctx.config.email as { oauth: Record<string, unknown> };
    email.oauth = {
      gmail: { ...local, userinfoUrl: `${oauth.url}/userinfo` },
      outlook: { ...local, userinfoUrl: undefined },
    };
    alice = await ctx.createUser();
    bob = await ctx.createUser();
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  async function create(user: TestUser, body: Record<string, unknown>) {
    return ctx.request(user, { method: 'POST', url: '/emails/api/mailboxes', payload: body });
  }

  it('connects an SMTP/IMAP mailbox after logging in to both, and never shows or stores the password in clear', async () => {
    const sender = await makeSender(ctx.db, alice.teamId);
    const account = await mail.account();
    const res = await create(alice, {
      email: account.email,
      sender_name: 'Alice from Acme',
      sender_profile_uuid: sender.uuid,
      connection_settings: mail.settings(account),
      automation_daily_limit: 40,
    });
    expect(res.statusCode).toBe(201);
    const mailbox = res.json();
    expect(mailbox).toMatchObject({
      email: account.email,
      provider: 'smtp',
      status: 'active',
      send_status: 'ok',
      sync_status: 'ok',
      automation_daily_limit: 40,
      automation_task_interval: 120,
      connection_settings: { smtp_username: account.email, imap_port: mail.dovecot.imapPort },
    });
    expect(res.body).not.toContain(account.password);
    const got = await ctx.request(alice, { method: 'GET', url: `/emails/api/mailboxes/${mailbox.uuid}` });
    expect(got.body).not.toContain(account.password);
    const stored = await ctx.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('uuid', '=', mailbox.uuid)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(account.password);
    expect(stored.secrets).toMatch(/^v1:/);
    // The sender profile now names its mailbox.
    const profile = await ctx.request(alice, {
      method: 'GET',
      url: `/flows/api/sender-profiles/${sender.uuid}`,
    });
    expect(profile.json().mailbox_uuid).toBe(mailbox.uuid);
  });

  it('stores a mailbox that cannot log in with status error and the server\u2019s reason as a mailbox error', async () => {
    const sender = await makeSender(ctx.db, alice.teamId);
    const account = await mail.account();
    const res = await create(alice, {
      email: account.email,
      sender_name: 'Wrong password',
      sender_profile_uuid: sender.uuid,
      connection_settings: {
        ...mail.settings(account),
        smtp_password: 'nope',
        imap_password: 'nope',
      },
    });
    expect(res.statusCode).toBe(201);
    const mailbox = res.json();
    expect(mailbox).toMatchObject({ status: 'error', send_status: 'error', sync_status: 'error' });
    const errors = await ctx.request(alice, {
      method: 'GET',
      url: `/emails/api/mailbox-errors?filter[mailbox_uuid]=${mailbox.uuid}`,
    });
    expect(errors.statusCode).toBe(200);
    const rows = errors.json().data as Array<{ error_type: string; message: string }>;
    expect(rows.map((r) => r.error_type).sort()).toEqual(['auth', 'auth']);
    expect(rows.some((r) => /^SMTP: login refused/.test(r.message))).toBe(true);
    expect(rows.some((r) => /^IMAP: login refused/.test(r.message))).toBe(true);

    // Activating checks again and still answers the mailbox (status error), never a 5xx.
    const activate = await ctx.request(alice, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox.uuid}/activate`,
    });
    expect(activate.statusCode).toBe(200);
    expect(activate.json().status).toBe('error');

    // The right passwords fix it.
    const fixed = await ctx.request(alice, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox.uuid}`,
      payload: {
        connection_settings: {
          smtp_password: account.password,
          imap_password: account.password,
        },
      },
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({ status: 'active', send_status: 'ok', sync_status: 'ok' });
  });

  it('refuses incomplete settings, an unknown sender profile and a second mailbox for one address', async () => {
    const sender = await makeSender(ctx.db, alice.teamId);
    const account = await mail.account();
    const missing = await create(alice, {
      email: account.email,
      sender_name: 'x',
      sender_profile_uuid: sender.uuid,
      connection_settings: { smtp_host: '127.0.0.1' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty(['connection_settings.smtp_port']);
    expect(missing.json().error.message).toContain('imap_password');

    const noSender = await create(alice, {
      email: account.email,
      sender_name: 'x',
      sender_profile_uuid: '0190f000-0000-7000-8000-00000000dead',
      connection_settings: mail.settings(account),
    });
    expect(noSender.statusCode).toBe(422);
    expect(noSender.json().error.data).toHaveProperty('sender_profile_uuid');

    const unknownKey = await create(alice, {
      email: account.email,
      sender_name: 'x',
      sender_profile_uuid: sender.uuid,
      connection_settings: { ...mail.settings(account), smtp_pasword: 'typo' },
    });
    expect(unknownKey.statusCode).toBe(422);
    expect(unknownKey.json().error.message).toContain('smtp_pasword');

    const body = {
      email: account.email,
      sender_name: 'x',
      sender_profile_uuid: sender.uuid,
      connection_settings: mail.settings(account),
    };
    expect((await create(alice, body)).statusCode).toBe(201);
    const again = await create(alice, { ...body, email: account.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
  });

  it('lists with filter[q], switches mailboxes off and on, and keeps teams apart', async () => {
    const sender = await makeSender(ctx.db, bob.teamId);
    const account = await mail.account();
    const created = (
      await create(bob, {
        email: account.email,
        sender_name: 'Bob Findable',
        sender_profile_uuid: sender.uuid,
        connection_settings: mail.settings(account),
      })
    ).json();
    const listed = await ctx.request(bob, { method: 'GET', url: '/emails/api/mailboxes?filter[q]=findable' });
    expect(listed.json()).toMatchObject({ total: 1, data: [{ uuid: created.uuid }] });
    const none = await ctx.request(bob, {
      method: 'GET',
      url: '/emails/api/mailboxes?filter[q]=nothing-like-it',
    });
    expect(none.json().total).toBe(0);

    const off = await ctx.request(bob, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${created.uuid}/deactivate`,
    });
    expect(off.json().status).toBe('inactive');
    const on = await ctx.request(bob, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${created.uuid}/activate`,
    });
    expect(on.json().status).toBe('active');

    for (const [method, url] of [
      ['GET', `/emails/api/mailboxes/${created.uuid}`],
      ['PUT', `/emails/api/mailboxes/${created.uuid}/activate`],
      ['DELETE', `/emails/api/mailboxes/${created.uuid}`],
    ] as const) {
      expect((await ctx.request(alice, { method, url })).statusCode).toBe(404);
    }
    const aliceList = await ctx.request(alice, { method: 'GET', url: '/emails/api/mailboxes?limit=100' });
    expect(aliceList.json().data.map((m: { uuid: string }) => m.uuid)).not.toContain(created.uuid);
  });

  it('deletes a mailbox, handing its sender profile to the mailbox named for reassignment', async () => {
    const [first, second] = [await makeSender(ctx.db, alice.teamId), await makeSender(ctx.db, alice.teamId)];
    const [a, b] = [await mail.account(), await mail.account()];
    const doomed = (
      await create(alice, {
        email: a.email,
        sender_name: 'A',
        sender_profile_uuid: first.uuid,
        connection_settings: mail.settings(a),
      })
    ).json();
    const heir = (
      await create(alice, {
        email: b.email,
        sender_name: 'B',
        sender_profile_uuid: second.uuid,
        connection_settings: mail.settings(b),
      })
    ).json();

    const refused = await ctx.request(alice, {
      method: 'DELETE',
      url: `/emails/api/mailboxes/${doomed.uuid}`,
      payload: { automation_reassign_mailboxes: true },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.data).toHaveProperty('automation_mailbox_to_reassign');

    const deleted = await ctx.request(alice, {
      method: 'DELETE',
      url: `/emails/api/mailboxes/${doomed.uuid}`,
      payload: { automation_reassign_mailboxes: true, automation_mailbox_to_reassign: heir.uuid },
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/emails/api/mailboxes/${doomed.uuid}` })).statusCode,
    ).toBe(404);
    const moved = (
      await ctx.request(alice, { method: 'GET', url: `/emails/api/mailboxes/${heir.uuid}` })
    ).json();
    expect(moved.sender_profile_uuid).toBe(first.uuid);
    const profiles = await ctx.db
      .selectFrom('sender_profiles')
      .select(['uuid', 'mailbox_uuid'])
      .where('uuid', 'in', [first.uuid, second.uuid])
      .execute();
    expect(Object.fromEntries(profiles.map((p) => [p.uuid, p.mailbox_uuid]))).toEqual({
      [first.uuid]: heir.uuid,
      [second.uuid]: null,
    });
  });

  it('connects a Gmail mailbox through OAuth2 and logs in to IMAP and SMTP with XOAUTH2, refreshing the token', async () => {
    const sender = await makeSender(ctx.db, alice.teamId);
    const account = await mail.account();
    const start = await ctx.request(alice, {
      method: 'GET',
      url: `/emails/api/mailboxes/oauth/gmail/start?sender_profile_uuid=${sender.uuid}&sender_name=Alice&login_hint=${encodeURIComponent(account.email)}`,
    });
    expect(start.statusCode).toBe(200);
    const { url, redirect_uri } = start.json();
    expect(redirect_uri).toBe('http://leadflow.test:8080/emails/oauth/gmail/callback');
    // The browser: the provider redirects back with a code, which goes to Leadflow's callback unauthenticated.
    const consent = await fetch(url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe(redirect_uri);
    const callback = await ctx.request(null, {
      method: 'GET',
      url: `${back.pathname}${back.search}&scope=x`,
    });
    expect(callback.statusCode).toBe(200);
    expect(callback.body).toContain(`${account.email} is connected`);

    const mailbox = await ctx.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('email', '=', account.email)
      .executeTakeFirstOrThrow();
    expect(mailbox).toMatchObject({
      provider: 'gmail',
      status: 'active',
      send_status: 'ok',
      sync_status: 'ok',
      sender_profile_uuid: sender.uuid,
    });
    expect(mailbox.secrets).not.toContain('rt.');

    // An expired access token is refreshed (and stored) before the next login.
    mail.oauth!.expireAccessTokens();
    const refreshes = mail.oauth!.grants.refresh_token ?? 0;
    const again = await ctx.request(alice, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox.uuid}/activate`,
    });
    expect(again.json().status).toBe('active');
    expect(mail.oauth!.grants.refresh_token).toBeGreaterThan(refreshes);

    // A revoked grant is an auth error on the mailbox, not a 5xx.
    mail.oauth!.revoke(account.email);
    const revoked = await ctx.request(alice, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox.uuid}/activate`,
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().status).toBe('error');

    const forged = await ctx.request(null, {
      method: 'GET',
      url: '/emails/oauth/gmail/callback?code=x&state=forged',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('not valid');
  });
});
