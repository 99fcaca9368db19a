// The web application in a real browser: a CSV import through the wizard, an API key created and shown
// once, a webhook created whose delivery then shows in its log, members and the team page - with axe-core
// on each page. A local receiver on loopback takes the webhook.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../harness.js';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

const CSV =
  'First Name,Last Name,E-mail,Company,Job title\nAda,Lovelace,ada@example.test,Engines,Analyst\nAlan,Turing,alan@example.test,Bletchley,Cryptanalyst\n';

describe.skipIf(webTestsUnavailable)(
  'web application: import, API keys, webhooks, members',
  { timeout: 120_000 },
  () => {
    let web: WebHarness;
    let page: Page;
    let receiver: Server;
    let receiverUrl: string;
    const received: string[] = [];

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          received.push(body);
          response.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      web = await startWebHarness({ env: { LEADFLOW_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
      await web.ctx.startWorkers();
      page = await web.newPage();
      await web.signInOwner(page);
    }, 180_000);
    afterAll(async () => {
      await web?.close();
      await new Promise((resolve) => receiver?.close(resolve));
    });

    it('imports a CSV through the wizard with suggested mapping and progress', async () => {
      await page.getByRole('link', { name: 'Import CSV' }).click();
      await page.getByRole('heading', { name: 'Import contacts from CSV' }).waitFor();
      await expectAccessible(page, 'import (upload)');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'CSV file', exact: true }).click();
      await (await chooser).setFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.getByRole('table', { name: 'Column mapping' }).waitFor();
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Target of E-mail' }).inputValue())
        .toBe('email');
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Target of Job title' }).inputValue())
        .toBe('job_title');
      await expectAccessible(page, 'import (mapping)');
      await page.getByRole('button', { name: 'Start import' }).click();
      await page.getByText('Import finished.').waitFor({ timeout: 60_000 });
      await page.getByText('2 created').waitFor();
      await page.getByRole('link', { name: 'See the contacts' }).click();
      await page.getByRole('cell', { name: 'Ada Lovelace', exact: true }).waitFor();
    });

    it('creates an API key shown once that works against the API', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('New key name').fill('Browser test');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const shown = page.getByRole('dialog', { name: 'Your new API key' }).getByLabel('Your new API key');
      const key = (await shown.textContent())?.trim() ?? '';
      expect(key).toMatch(/^lf_/);
      await expectAccessible(page, 'API key shown once');
      await page.getByRole('button', { name: 'Done' }).click();
      // axe reads colours mid-animation: wait until the dialog has gone.
      await page.getByRole('dialog', { name: 'Your new API key' }).waitFor({ state: 'hidden' });
      await page.getByRole('cell', { name: 'Browser test', exact: true }).waitFor();
      expect(await page.content()).not.toContain(key);
      const res = await fetch(`${web.origin}/id/api/users/current`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      await expectAccessible(page, 'API keys');
    });

    it('creates a webhook and shows its delivery', async () => {
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Name').fill('Exports to my tool');
      await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Exports to my tool');
      await page.getByRole('textbox', { name: 'Event' }).click();
      await page.getByRole('option', { name: 'contact_exported' }).click();
      // The choice must have landed before the form is sent (a loaded machine lags the combobox).
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Event' }).inputValue())
        .toBe('contact_exported');
      await page.getByLabel('Target URL').fill(receiverUrl);
      await expect.poll(() => page.getByLabel('Target URL').inputValue()).toBe(receiverUrl);
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const secret = page.getByRole('dialog', { name: 'Signing secret' }).getByLabel('Signing secret');
      expect((await secret.textContent())?.trim()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();
      // axe reads colours mid-animation: wait until the dialog has gone.
      await page.getByRole('dialog', { name: 'Signing secret' }).waitFor({ state: 'hidden' });
      await expectAccessible(page, 'webhooks');
      // An export of a contact raises contact_exported, which the webhook delivers.
      const lists = await web.ctx.request(web.owner, { method: 'GET', url: '/leads/api/lists' });
      await web.ctx.request(web.owner, {
        method: 'POST',
        url: '/leads/api/leads',
        payload: {
          list_uuid: lists.json().data[0].uuid,
          leads: [{ name: 'Exported Person', email: 'ex@example.test' }],
        },
      });
      const exported = await web.ctx.request(web.owner, {
        method: 'POST',
        url: '/leads/api/file-exports/leads',
        payload: { filter: { all: true } },
      });
      expect(exported.statusCode).toBeLessThan(300);
      await waitFor(async () => received.length > 0, 60_000);
      await page.getByRole('button', { name: 'Deliveries' }).click();
      const drawer = page.getByRole('dialog', { name: 'Deliveries of Exports to my tool' });
      await drawer.getByText('succeeded').first().waitFor({ timeout: 30_000 });
      await expect.poll(() => drawer.getByRole('cell', { name: '200' }).count()).toBeGreaterThan(0);
      await expectAccessible(page, 'webhook deliveries');
      await page.keyboard.press('Escape');
    });

    it('invites a member (link shown once) and shows the team', async () => {
      await page.getByRole('link', { name: 'Members' }).click();
      await page.getByLabel('E-mail').fill('new.rep@example.test');
      await page.getByRole('button', { name: 'Create invite link' }).click();
      const link =
        (
          await page.getByRole('dialog', { name: 'Invite link' }).getByLabel('Invite link').textContent()
        )?.trim() ?? '';
      expect(link).toContain('/invite#token=');
      await page.getByRole('button', { name: 'Done' }).click();
      // axe reads colours mid-animation: wait until the dialog has gone.
      await page.getByRole('dialog', { name: 'Invite link' }).waitFor({ state: 'hidden' });
      await page.getByRole('table', { name: 'Pending invites' }).getByText('new.rep@example.test').waitFor();
      await expectAccessible(page, 'members');
      await page.getByRole('link', { name: 'Team' }).click();
      await page.getByLabel('Team name').fill('Renamed in the browser');
      await page.getByRole('button', { name: 'Save team' }).click();
      await page.getByText('Team saved.').waitFor();
      await expectAccessible(page, 'team');
    });
  },
);
