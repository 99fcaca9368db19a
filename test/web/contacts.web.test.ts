// The web application in a real browser: sign-in through the first-start link, the contacts table (create,
// find), stored markup shown as text, sign-out and sign-in, the security headers, and axe on each page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CSP } from '../../src/http/web-app.js';
import {
  expectAccessible,
  OWNER_PASSWORD,
  startWebHarness,
  type WebHarness,
  webTestsUnavailable,
} from './web-harness.js';

const XSS = '<img src=x onerror="window.__xss=1">';

describe.skipIf(webTestsUnavailable)('web application: sign-in and contacts', { timeout: 120_000 }, () => {
  let web: WebHarness;
  let page: Page;

  beforeAll(async () => {
    web = await startWebHarness();
    page = await web.newPage();
  }, 180_000);
  afterAll(() => web?.close());

  it('serves the app with a strict CSP, no-cache HTML and long-cached assets', async () => {
    const res = await fetch(`${web.origin}/contacts`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(APP_CSP).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    const js = await fetch(`${web.origin}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(js.headers.get('content-encoding')).toBe('br');
    expect((await fetch(`${web.origin}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${web.origin}/contacts/api/x`)).status).toBe(404);
  });

  it('sends a visitor to sign-in, which is accessible', async () => {
    await page.goto('/contacts');
    await page.getByRole('heading', { name: 'Sign in to Leadflow' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await page.getByLabel('E-mail').fill(web.owner.email);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not right');
  });

  it('sets the password from the first-start link and shows the empty contacts page', async () => {
    await web.signInOwner(page);
    await page.getByText('No contacts yet').waitFor();
    await expectAccessible(page, 'contacts (empty)');
  });

  it('creates a contact and finds it by search', async () => {
    await web.ctx.request(web.owner, {
      method: 'POST',
      url: '/leads/api/lists',
      payload: { name: 'Prospects' },
    });
    await page.getByRole('button', { name: 'New contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'New contact' });
    await dialog.getByLabel('List').click();
    await page.getByRole('option', { name: 'Prospects' }).click();
    await dialog.getByLabel('First name').fill('Grace');
    await dialog.getByLabel('Last name').fill('Hopper');
    await dialog.getByLabel('E-mail').fill('grace@example.test');
    await dialog.getByRole('button', { name: 'Create contact' }).click();
    await page.getByRole('cell', { name: 'Grace Hopper', exact: true }).waitFor();

    await page.getByLabel('Search contacts').fill('nobody-matches-this');
    await page.getByText('No contact matches').waitFor();
    await page.getByLabel('Search contacts').fill('grace');
    await page.getByRole('cell', { name: 'Grace Hopper', exact: true }).waitFor();
    await expectAccessible(page, 'contacts (with rows)');
  });

  it('shows stored markup in contact fields as text, never as HTML', async () => {
    const list = await web.ctx.request(web.owner, { method: 'GET', url: '/leads/api/lists' });
    await web.ctx.request(web.owner, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: {
        list_uuid: list.json().data[0].uuid,
        leads: [{ name: XSS, company_name: XSS, email: 'x@example.test' }],
      },
    });
    await page.getByLabel('Search contacts').fill('');
    await page.reload();
    await page.getByRole('cell', { name: XSS }).first().waitFor();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
  });

  it('signs out and in again with the password', async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to Leadflow' }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'lf_session')).toBeUndefined();
    await page.getByLabel('E-mail').fill(web.owner.email);
    await page.getByLabel('Password').fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    const session = (await page.context().cookies()).find((c) => c.name === 'lf_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });
});
