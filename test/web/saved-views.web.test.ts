// Saved views in a real browser, kept on the server (/id/api/saved-views): a view an earlier version kept in
// the browser's storage moves to the server once; the contacts table's filters and columns saved under a
// name (a blank or taken name refused under the field), reopened after a reload, updated, renamed and
// deleted; the task list's filters saved and picked again - axe-core on each view.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

describe.skipIf(webTestsUnavailable)('web application: saved views', { timeout: 60_000 }, () => {
  let web: WebHarness;
  let page: Page;

  const views = () =>
    web.ctx.db
      .selectFrom('saved_views')
      .select(['name', 'page', 'filter', 'columns', 'sort'])
      .where('team_id', '=', web.owner.teamId)
      .where('user_id', '=', web.owner.userId)
      .orderBy('name')
      .execute();

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
          leads: [{ first_name: first, last_name: 'Person', position: 'Buyer' }],
        },
      });
      expect(created.statusCode, created.body).toBeLessThan(300);
    }
    page = await web.newPage();
    await web.signInOwner(page);
  });
  afterAll(() => web?.close());

  it('moves a view kept in this browser to the server once', async () => {
    const key = `leadflow.contacts.views.${web.owner.userId}.${web.owner.teamId}`;
    await page.evaluate(
      ([k, value]) => window.localStorage.setItem(k as string, value as string),
      [
        key,
        JSON.stringify([
          {
            name: 'Old local',
            conditions: [],
            visibility: { updated_at: false },
            sort: { field: 'name', direction: 'asc' },
          },
        ]),
      ],
    );
    await page.goto('/contacts');
    // The move runs after the page's first rows (a few seconds on a loaded machine).
    await expect
      .poll(async () => (await views()).map((v) => v.name), { timeout: 15_000 })
      .toEqual(['Old local']);
    expect((await views())[0]).toMatchObject({ page: 'contacts', sort: { field: 'name', direction: 'asc' } });
    expect(await page.evaluate((k) => window.localStorage.getItem(k), key)).toBeNull();
  });

  it('saves the contacts table as a view, reopens, renames and deletes views', async () => {
    await page.goto('/contacts');
    const table = page.getByRole('table', { name: 'Contacts' });
    await table.getByRole('cell', { name: 'Happy Person', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('textbox', { name: 'Field of filter 1' }).click();
    await page.getByRole('option', { name: 'List', exact: true }).click();
    await page.getByRole('textbox', { name: 'Value of filter 1' }).click();
    await page.getByRole('option', { name: 'Customers' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Position' }).uncheck();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Save as new view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the table as a view' });
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await dialog.getByText('Give the view a name.').waitFor();
    await dialog.getByRole('textbox', { name: 'View name' }).fill('old LOCAL');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await dialog.getByText('You already have a contacts view named "old LOCAL".').waitFor();
    await expectAccessible(page, 'a view name refused');
    await dialog.getByRole('textbox', { name: 'View name' }).fill('Customers only');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await views()).find((v) => v.name === 'Customers only');
    expect(saved?.columns).not.toContain('position');
    expect(saved?.columns).toContain('name');
    expect(saved?.filter).toMatchObject({ conditions: [{ field: 'list_uuid' }] });

    // Back to everything with every column; after a reload the view brings the filter and columns back.
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Position' }).check();
    await page.keyboard.press('Escape');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await page.reload();
    await page.getByRole('textbox', { name: 'Saved view of contacts' }).click();
    await page.getByRole('option', { name: 'Customers only' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('columnheader', { name: 'Position' }).count()).toBe(0);
    await expectAccessible(page, 'contacts with a saved view');

    await page.getByRole('button', { name: 'Rename view Customers only' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the view Customers only' });
    await rename.getByRole('textbox', { name: 'View name' }).fill('Happy customers');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('button', { name: 'Delete view Happy customers' }).waitFor();

    await page.getByRole('textbox', { name: 'Saved view of contacts' }).click();
    await page.getByRole('option', { name: 'Old local' }).click();
    await page.getByRole('button', { name: 'Delete view Old local' }).click();
    await page
      .getByRole('dialog', { name: 'Please confirm' })
      .getByRole('button', { name: 'Delete view' })
      .click();
    await expect
      .poll(async () => (await views()).map((v) => v.name), { timeout: 10_000 })
      .toEqual(['Happy customers']);
  });

  it('saves the task list’s filters and picks them again', async () => {
    await page.goto('/tasks/list');
    const status = page.getByRole('textbox', { name: 'Status' });
    await status.click();
    await page.getByRole('option', { name: 'Any status' }).click();
    await page.getByRole('button', { name: 'Save as new view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the table as a view' });
    await dialog.getByRole('textbox', { name: 'View name' }).fill('Every task');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await views()).find((v) => v.page === 'tasks');
    expect(saved).toMatchObject({ name: 'Every task', filter: { status: '', automation: 'manual' } });

    await status.click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect.poll(() => status.inputValue()).toBe('Failed');
    await page.getByRole('textbox', { name: 'Saved view of tasks' }).click();
    await page.getByRole('option', { name: 'Every task' }).click();
    await expect.poll(() => status.inputValue()).toBe('Any status');
    await expectAccessible(page, 'tasks with a saved view');
  });
});
