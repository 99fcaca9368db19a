// The companies table in a real browser: an empty team is told to import a CSV file; companies listed,
// searched (server-side q), sorted by name, saved as a view with the search and opened again; a row opens
// the company page; "New company" creates one; two picked companies are tagged and all that match a search
// deleted after a dialog that states the count - axe-core on each state.
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

describe.skipIf(webTestsUnavailable)('web application: companies table', { timeout: 60_000 }, () => {
  let web: WebHarness;
  let page: Page;
  const table = () => page.getByRole('table', { name: 'Companies' });
  const names = async () => (await table().getByRole('link').allTextContents()).map((s) => s.trim());

  beforeAll(async () => {
    web = await startWebHarness();
    page = await web.newPage();
    await web.signInOwner(page);
  }, 120_000);
  afterAll(() => web?.close());

  it('tells an empty team to import companies', async () => {
    await page.goto('/companies');
    await page.getByRole('heading', { name: 'Companies', level: 1 }).waitFor();
    const importLink = page.getByRole('link', { name: 'import companies from a CSV file' });
    await importLink.waitFor();
    expect(await importLink.getAttribute('href')).toBe('/imports');
    await expectAccessible(page, 'no companies');
  });

  it('lists, searches, sorts, saves a view and opens a company', async () => {
    const res = await web.ctx.request(web.owner, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: {
        companies: [
          { name: 'Acme Robotics', domain: 'acme.test', industry: 'Robots' },
          { name: 'Beta Analytics', domain: 'beta.test' },
          { name: 'Gamma Foods', domain: 'gamma.test' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    // The table read no companies a moment ago: a reload reads them again.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Companies' }).waitFor();
    await expect.poll(names).toEqual(['Gamma Foods', 'Beta Analytics', 'Acme Robotics']);

    await table().getByRole('button', { name: 'Name' }).click();
    await table().getByRole('button', { name: 'Name' }).click();
    await expect.poll(names).toEqual(['Acme Robotics', 'Beta Analytics', 'Gamma Foods']);
    await page.getByRole('textbox', { name: 'Search companies' }).fill('beta.t');
    await expect.poll(names).toEqual(['Beta Analytics']);
    await expectAccessible(page, 'companies searched');

    await page.getByRole('button', { name: 'Save as new view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the table as a view' });
    await dialog.getByRole('textbox', { name: 'View name' }).fill('Beta only');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const view = await web.ctx.db
      .selectFrom('saved_views')
      .select(['page', 'filter', 'sort'])
      .where('team_id', '=', web.owner.teamId)
      .executeTakeFirstOrThrow();
    expect(view).toMatchObject({
      page: 'companies',
      filter: { q: 'beta.t' },
      sort: { field: 'name', direction: 'asc' },
    });

    await page.getByRole('textbox', { name: 'Search companies' }).fill('zzz');
    await page.getByText('No company matches “zzz”. Try another search.').waitFor();
    await page.getByRole('textbox', { name: 'Saved view of companies' }).click();
    await page.getByRole('option', { name: 'Beta only' }).click();
    await expect.poll(names).toEqual(['Beta Analytics']);

    await table().getByRole('link', { name: 'Beta Analytics' }).click();
    await page.getByRole('heading', { name: 'Beta Analytics', level: 1 }).waitFor();
  });

  it('creates a company with “New company”', async () => {
    await page.goto('/companies');
    await page.getByRole('button', { name: 'New company' }).click();
    const dialog = page.getByRole('dialog', { name: 'New company' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Delta Works');
    await dialog.getByRole('textbox', { name: 'Website' }).fill('https://delta.test');
    await dialog.getByRole('button', { name: 'Create company' }).click();
    await page.getByRole('heading', { name: 'Delta Works', level: 1 }).waitFor();
    const row = await web.ctx.db
      .selectFrom('companies')
      .select(['name', 'domain'])
      .where('team_id', '=', web.owner.teamId)
      .where('name', '=', 'Delta Works')
      .executeTakeFirst();
    expect(row).toEqual({ name: 'Delta Works', domain: 'delta.test' });
  });

  it('tags the picked companies and deletes all that match a search, stating the count', async () => {
    const tag = await web.ctx.request(web.owner, {
      method: 'POST',
      url: '/leads/api/tags',
      payload: { name: 'Key account' },
    });
    expect(tag.statusCode, tag.body).toBe(201);
    await page.goto('/companies');
    await page.getByRole('checkbox', { name: 'Select Acme Robotics' }).check();
    await page.getByRole('checkbox', { name: 'Select Gamma Foods' }).check();
    await page.getByText('2 selected.').waitFor();
    await expectAccessible(page, 'companies selected');
    await page.getByRole('button', { name: 'Actions on 2 companies' }).click();
    await page.getByRole('menuitem', { name: 'Add tags' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tags' });
    await dialog.getByRole('textbox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Key account' }).click();
    await dialog.getByText('Add tags on 2 companies.').waitFor();
    await expectAccessible(page, 'companies bulk action dialog');
    await dialog.getByRole('button', { name: 'Apply to 2 companies' }).click();
    await page.getByText('Add tags: 2 changed.').waitFor();
    const tagged = await web.ctx.db
      .selectFrom('companies')
      .select('name')
      .where('team_id', '=', web.owner.teamId)
      .where(sql<boolean>`${tag.json().uuid}::uuid = any(tags)`)
      .orderBy('name')
      .execute();
    expect(tagged.map((r) => r.name)).toEqual(['Acme Robotics', 'Gamma Foods']);

    await page.getByRole('textbox', { name: 'Search companies' }).fill('a.test');
    await expect.poll(names).toEqual(['Beta Analytics', 'Delta Works', 'Gamma Foods']);
    await page.getByRole('button', { name: 'Select all 3 that match' }).click();
    await page.getByRole('button', { name: 'Actions on 3 companies' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete' });
    await confirm.getByText('Delete 3 companies? This cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete 3 companies' }).click();
    await page.getByText('No company matches “a.test”. Try another search.').waitFor();
    const left = await web.ctx.db
      .selectFrom('companies')
      .select('name')
      .where('team_id', '=', web.owner.teamId)
      .execute();
    expect(left.map((r) => r.name)).toEqual(['Acme Robotics']);
  });
});
