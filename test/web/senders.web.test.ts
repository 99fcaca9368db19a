// The senders pages in a real browser: a sender profile created with its week and a limit, a LinkedIn
// seat connected with its login link shown and its status after a run, a mailbox whose connection check
// fails told in words and listed among the mailbox errors, a seat's proxy shown and changed - with axe-core on each page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthStandIn } from '../../src/modules/email/oauth/oauth.stand-in.js';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

describe.skipIf(webTestsUnavailable)('web application: senders', { timeout: 120_000 }, () => {
  let web: WebHarness;
  let page: Page;

  beforeAll(async () => {
    web = await startWebHarness({ env: { LEADFLOW_OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    page = await web.newPage();
    await web.signInOwner(page);
  }, 180_000);
  afterAll(() => web?.close());

  it('creates a sender profile with its week and limits', async () => {
    await page.getByRole('link', { name: 'Senders' }).click();
    await page.getByText('No sender profile yet').waitFor();
    await expectAccessible(page, 'sender profiles (empty)');
    await page.getByRole('button', { name: 'New sender profile' }).click();
    const drawer = page.getByRole('dialog', { name: 'New sender profile' });
    await drawer.getByLabel('First name').fill('Anna');
    await drawer.getByLabel('Last name').fill('Smith');
    await drawer.getByLabel('Connection requests').fill('12');
    await expectAccessible(page, 'sender profile form');
    await drawer.getByRole('button', { name: 'Create sender profile' }).click();
    await page
      .getByRole('table', { name: 'Sender profiles' })
      .getByRole('cell', { name: 'Anna Smith', exact: true })
      .waitFor();
    const row = await web.ctx.db
      .selectFrom('sender_profiles')
      .selectAll()
      .where('team_id', '=', web.owner.teamId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      first_name: 'Anna',
      last_name: 'Smith',
      assignee_user_id: expect.anything(),
    });
    expect((row.limits as Record<string, number>).linkedin_send_connection_request).toBe(12);
  });

  it('connects a LinkedIn seat, shows its login link and its status', async () => {
    await page.getByRole('link', { name: 'LinkedIn seats' }).click();
    await page.getByRole('button', { name: 'Connect LinkedIn' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect LinkedIn' });
    await dialog.getByRole('textbox', { name: 'Sender profile' }).click();
    await page.getByRole('option', { name: 'Anna Smith' }).click();
    await dialog.getByRole('button', { name: 'Create seat' }).click();
    const table = page.getByRole('table', { name: 'LinkedIn seats' });
    await table.getByRole('cell', { name: 'Anna Smith', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Login link of Anna Smith' }).click();
    const link = await page.getByRole('dialog', { name: 'Login link' }).getByLabel('Login link').inputValue();
    expect(link).toContain('/cloud-browser/public/');
    expect(await page.getByRole('link', { name: 'Open the login page' }).getAttribute('href')).toBe(link);
    await expectAccessible(page, 'login link');
    await page.getByRole('button', { name: 'Done' }).click();
    // A seat that never logged in asks for a login when run.
    await page.getByRole('button', { name: 'Run Anna Smith' }).click();
    await table.getByText('Needs a login').waitFor();
    await expectAccessible(page, 'LinkedIn seats');
  });

  it('shows and changes a seat’s proxy, a refusal under its field', async () => {
    const table = page.getByRole('table', { name: 'LinkedIn seats' });
    await table.getByRole('cell', { name: 'None', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Proxy of Anna Smith' }).click();
    const dialog = page.getByRole('dialog', { name: 'Proxy of Anna Smith' });
    await dialog.getByRole('textbox', { name: 'Proxy type' }).click();
    await page.getByRole('option', { name: /^SOCKS5/ }).click();
    await dialog.getByRole('textbox', { name: 'Host' }).fill('proxy.example.com');
    await dialog.getByRole('textbox', { name: 'Port' }).fill('1080');
    await dialog.getByRole('textbox', { name: 'User name' }).fill('anna');
    await dialog.getByRole('button', { name: 'Save proxy' }).click();
    // The API's refusal sits under the field it names (SOCKS5 takes no credentials).
    const userName = dialog.getByRole('textbox', { name: 'User name' });
    await expect.poll(() => userName.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'a proxy refused');
    await userName.fill('');
    await dialog.getByRole('textbox', { name: 'Proxy country' }).fill('de');
    await dialog.getByRole('button', { name: 'Save proxy' }).click();
    await table.getByRole('cell', { name: 'socks5://proxy.example.com:1080 · DE' }).waitFor();
    const seat = await web.ctx.db
      .selectFrom('linkedin_browsers')
      .select(['proxy_country_code'])
      .where('team_id', '=', web.owner.teamId)
      .executeTakeFirstOrThrow();
    expect(seat.proxy_country_code).toBe('DE');
  });

  it('tells in words why a mailbox could not connect, and lists the error', async () => {
    await page.getByRole('link', { name: 'Mailboxes' }).click();
    await page.getByText('No mailbox yet').waitFor();
    await page.getByRole('button', { name: 'Connect a mailbox' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a mailbox' });
    await dialog.getByLabel('E-mail address').fill('anna@example.test');
    await dialog.getByLabel('Sender name').fill('Anna Smith');
    await dialog.getByRole('textbox', { name: 'Sender profile' }).click();
    await page.getByRole('option', { name: 'Anna Smith' }).click();
    for (const kind of ['SMTP', 'IMAP']) {
      await dialog.getByLabel(`${kind} server`).fill('127.0.0.1');
      await dialog.getByLabel(`${kind} port`).fill('9');
      await dialog.getByLabel(`${kind} password`).fill('secret');
    }
    await expectAccessible(page, 'connect a mailbox');
    await dialog.getByRole('button', { name: 'Connect and check' }).click();
    const outcome = dialog.getByRole('status');
    await outcome.getByText('The check failed').waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toMatch(/failed|refused/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page
      .getByRole('table', { name: 'Mailbox errors' })
      .getByRole('cell', { name: 'anna@example.test' })
      .first()
      .waitFor();
    await expectAccessible(page, 'mailboxes');
  });

  it('connects a Gmail mailbox through the provider’s consent page and comes back to the list', async () => {
    const oauth = await startOAuthStandIn({ clientId: 'cid', clientSecret: 'csecret' });
    try {
      // The provider is the local stand-in; its mail servers (closed ports here) refuse the login.
      const closed = { host: '127.0.0.1', port: 9, secure: false };
      // The provider sends the browser to LEADFLOW_PUBLIC_URL (the default, port 8080): that is this server.
      const publicUrl = web.ctx.config.publicUrl;
      await page
        .context()
        .route(`${publicUrl}/**`, (route) =>
          route.continue({ url: route.request().url().replace(publicUrl, web.origin) }),
        );
      (web.ctx.config.email as { oauth: Record<string, unknown> }).oauth = {
        gmail: {
          clientId: 'cid',
          clientSecret: 'csecret',
          authUrl: `${oauth.url}/authorize`,
          tokenUrl: `${oauth.url}/token`,
          userinfoUrl: `${oauth.url}/userinfo`,
          scopes: ['https://mail.google.com/'],
          imap: closed,
          smtp: closed,
        },
      };
      await page.goto('/senders/mailboxes');
      await page.getByRole('button', { name: 'Connect Gmail' }).click();
      const dialog = page.getByRole('dialog', { name: 'Connect Gmail' });
      await dialog.getByRole('textbox', { name: 'Sender profile' }).click();
      await page.getByRole('option', { name: 'Anna Smith' }).click();
      await dialog.getByRole('textbox', { name: 'Address (optional)' }).fill('anna.gmail@example.test');
      await expectAccessible(page, 'connect Gmail');
      await dialog.getByRole('button', { name: 'Continue to Google' }).click();
      await page.getByRole('heading', { name: 'Mailbox connected' }).waitFor();
      expect(await page.textContent('body')).toContain('anna.gmail@example.test was stored');
      const back = page.getByRole('link', { name: 'Back to the mailboxes' });
      expect(await back.getAttribute('href')).toBe('/senders/mailboxes');
      await page.goto('/senders/mailboxes');
      await page
        .getByRole('table', { name: 'Mailboxes' })
        .getByRole('cell', { name: 'anna.gmail@example.test' })
        .first()
        .waitFor();
      const stored = await web.ctx.db
        .selectFrom('mailboxes')
        .select(['provider', 'email'])
        .where('team_id', '=', web.owner.teamId)
        .where('provider', '=', 'gmail')
        .execute();
      expect(stored).toEqual([{ provider: 'gmail', email: 'anna.gmail@example.test' }]);
    } finally {
      await oauth.close();
    }
  });

  it('manages lists, tags, stages and custom fields in settings', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Lists' }).click();
    await page.getByText('No lists yet').waitFor();
    await page.getByLabel('New list name').fill('Prospects');
    await page.getByRole('button', { name: 'Create list' }).click();
    const name = page.getByLabel('Name of Prospects');
    await name.fill('Leads 2026');
    await name.press('Enter');
    await expect
      .poll(async () =>
        (
          await web.ctx.db
            .selectFrom('lists')
            .select('name')
            .where('team_id', '=', web.owner.teamId)
            .execute()
        ).map((l) => l.name),
      )
      .toEqual(['Leads 2026']);
    await expectAccessible(page, 'lists settings');

    await page.getByRole('link', { name: 'Custom fields' }).click();
    await page.getByLabel('New custom field name').fill('score');
    await page.getByRole('textbox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'number' }).click();
    await page.getByRole('button', { name: 'Create custom field' }).click();
    await page.getByRole('table', { name: 'Custom fields' }).getByRole('cell', { name: 'number' }).waitFor();
    await page.getByLabel('New custom field name').fill('not a valid name');
    await page.getByRole('button', { name: 'Create custom field' }).click();
    await expect
      .poll(() => page.getByLabel('New custom field name').getAttribute('aria-invalid'))
      .toBe('true');
    await expectAccessible(page, 'custom fields settings');

    await page.getByRole('link', { name: 'Tags' }).click();
    await page.getByLabel('New tag name').fill('VIP');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('button', { name: 'Delete VIP' }).click();
    await page
      .getByRole('dialog', { name: 'Please confirm' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No tags yet').waitFor();
  });
});
