// The blacklist settings in a real browser: a contact blacklisted by e-mail (the contact is flagged), the
// API's refusals next to the field or above the form, search, removal; a company blacklisted by domain -
// with axe-core on each view. (Saved views: saved-views.web.test.ts.)
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

describe.skipIf(webTestsUnavailable)('web application: blacklists', { timeout: 60_000 }, () => {
  let web: WebHarness;
  let page: Page;

  const flagged = (email: string) =>
    web.ctx.db
      .selectFrom('leads')
      .select('is_blacklisted')
      .where('team_id', '=', web.owner.teamId)
      .where('work_email', '=', email)
      .executeTakeFirstOrThrow()
      .then((r) => r.is_blacklisted);

  beforeAll(async () => {
    web = await startWebHarness();
    for (const [name, first] of [
      ['Prospects', 'Rival'],
      ['Customers', 'Happy'],
    ] as const) {
      const list = await web.ctx.request(web.owner, {
        method: 'POST',
        url: '/leads/api/lists',
        payload: { name },
      });
      const created = await web.ctx.request(web.owner, {
        method: 'POST',
        url: '/leads/api/leads',
        payload: {
          list_uuid: list.json().uuid,
          leads: [
            {
              first_name: first,
              last_name: 'Person',
              work_email: `${first === 'Rival' ? 'spy' : 'fan'}@rival.test`,
              position: 'Buyer',
            },
          ],
        },
      });
      expect(created.statusCode, created.body).toBeLessThan(300);
    }
    page = await web.newPage();
    await web.signInOwner(page);
  }, 120_000);
  afterAll(() => web?.close());

  it('blacklists a contact by e-mail, shows refusals where they belong, searches and removes', async () => {
    await page.goto('/settings/blacklist');
    await page.getByText('The contact blacklist is empty').waitFor();
    await expectAccessible(page, 'contact blacklist (empty)');

    const form = page.getByRole('form', { name: 'Blacklist a contact' });
    await form.getByRole('button', { name: 'Add to blacklist' }).click();
    await form.getByRole('alert').getByText('at least one of linkedin, email').waitFor();

    await form.getByRole('textbox', { name: 'E-mail' }).fill('not an address');
    await form.getByRole('button', { name: 'Add to blacklist' }).click();
    const emailBox = form.getByRole('textbox', { name: 'E-mail' });
    await expect.poll(() => emailBox.getAttribute('aria-invalid')).toBe('true');

    await emailBox.fill('SPY@rival.test');
    await form.getByRole('button', { name: 'Add to blacklist' }).click();
    const table = page.getByRole('table', { name: 'Contact blacklist' });
    await table.getByRole('cell', { name: 'spy@rival.test', exact: true }).waitFor();
    expect(await flagged('spy@rival.test')).toBe(true);
    await expectAccessible(page, 'contact blacklist');

    await emailBox.fill('spy@rival.test');
    await form.getByRole('button', { name: 'Add to blacklist' }).click();
    await form.getByRole('alert').getByText('on the blacklist already').waitFor();

    await page.getByRole('textbox', { name: 'Search the blacklist' }).fill('nobody');
    await page.getByText('No entry matches “nobody”').waitFor();
    await page.getByRole('textbox', { name: 'Search the blacklist' }).fill('rival');
    await page.getByRole('button', { name: 'Remove spy@rival.test from the blacklist' }).click();
    await page
      .getByRole('dialog', { name: 'Please confirm' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText('No entry matches “rival”').waitFor();
    expect(await flagged('spy@rival.test')).toBe(false);
  });

  it('blacklists a company by domain', async () => {
    await page.getByRole('tab', { name: 'Companies' }).click();
    await page.getByText('The company blacklist is empty').waitFor();
    const form = page.getByRole('form', { name: 'Blacklist a company' });
    await form.getByRole('textbox', { name: 'Domain' }).fill('https://www.Rival.test/about');
    await form.getByRole('button', { name: 'Add to blacklist' }).click();
    await page
      .getByRole('table', { name: 'Company blacklist' })
      .getByRole('cell', { name: 'rival.test', exact: true })
      .waitFor();
    await expectAccessible(page, 'company blacklist');
    const rows = await web.ctx.db
      .selectFrom('companies_blacklist')
      .select('domain')
      .where('team_id', '=', web.owner.teamId)
      .execute();
    expect(rows).toEqual([{ domain: 'rival.test' }]);
  });
});
