// The CRM pages in a real browser: a contact edited in place (fields, an API refusal next to its field,
// list, stage, tags, a custom field), notes (stored markup shown as text), flows (add, remove) and the
// timeline; a company page - with axe-core on each page.
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFlow } from '../automation-factories.js';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

const XSS = '<img src=x onerror="window.__xss=1">';

describe.skipIf(webTestsUnavailable)(
  'web application: contact and company pages',
  { timeout: 120_000 },
  () => {
    let web: WebHarness;
    let page: Page;
    let ada: string;
    let company: string;
    const lists: Record<string, string> = {};

    const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await web.ctx.request(web.owner, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json();
    };
    const adaRow = () =>
      web.ctx.db.selectFrom('leads').selectAll().where('uuid', '=', ada).executeTakeFirstOrThrow();

    beforeAll(async () => {
      web = await startWebHarness();
      for (const name of ['Prospects', 'Customers'])
        lists[name] = (await api('POST', '/leads/api/lists', { name })).uuid;
      await api('POST', '/leads/api/custom-fields', { name: 'score', object: 'lead', type: 'number' });
      const created = await api('POST', '/leads/api/leads', {
        list_uuid: lists.Prospects,
        leads: [
          { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', company_name: 'Engines' },
        ],
      });
      ada =
        created.data?.[0]?.uuid ??
        (await api('POST', '/leads/api/leads/search', { filter: { q: 'ada' } })).data[0].uuid;
      await api('POST', '/leads/api/notes', { object: 'lead', object_uuid: ada, note: XSS });
      await api('POST', '/leads/api/leads', {
        list_uuid: lists.Prospects,
        leads: [
          { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.test' },
          { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.test' },
        ],
      });
      await api('POST', '/leads/api/leads', {
        list_uuid: lists.Customers,
        leads: [{ first_name: 'Edsger', last_name: 'Dijkstra', email: 'edsger@example.test' }],
      });
      company = (
        await api('POST', '/leads/api/companies', {
          companies: [{ name: 'Engines', domain: 'engines.test' }],
        })
      )[0].uuid;
      await makeFlow(web.ctx.db, web.owner.teamId, {
        senders: [],
        name: 'Nurture',
        status: 'off',
        nodes: [
          { id: 1, type: 'util_timer', payload: { wait_time: 86_400 }, next: { 1: 2 } },
          { id: 2, type: 'end' },
        ],
      });
      page = await web.newPage();
      await web.signInOwner(page);
    }, 180_000);
    afterAll(() => web?.close());

    it('opens a contact from the table and edits its fields in place', async () => {
      await page.getByRole('link', { name: 'Ada Lovelace' }).click();
      await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Notes' }).getByText(XSS).waitFor();
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      await expectAccessible(page, 'contact page');

      await page.getByLabel('Position').fill('Countess');
      await page.getByLabel('Position').press('Enter');
      await expect.poll(async () => (await adaRow()).position).toBe('Countess');

      await page.getByLabel('Work e-mail').fill('not an e-mail');
      await page.getByLabel('Work e-mail').press('Tab');
      await expect.poll(() => page.getByLabel('Work e-mail').getAttribute('aria-invalid')).toBe('true');
      expect((await adaRow()).work_email).toBe('ada@example.test');

      await page.getByRole('textbox', { name: 'Pipeline stage' }).click();
      await page.getByRole('option', { name: 'Interested', exact: true }).click();
      await page.getByRole('textbox', { name: 'List' }).click();
      await page.getByRole('option', { name: 'Customers' }).click();
      await page.getByRole('textbox', { name: 'Tags' }).fill('VIP');
      await page.getByRole('textbox', { name: 'Tags' }).press('Enter');
      await page.getByLabel('score').fill('42');
      await page.getByLabel('score').press('Enter');
      await expect
        .poll(async () => {
          const row = await api('GET', `/leads/api/leads/${ada}?disable_aggregation=true`);
          return { list: row.list_uuid, tags: row.tags.length, score: row.custom_fields.score };
        })
        .toEqual({ list: lists.Customers, tags: 1, score: 42 });
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await timeline.getByText('Stage changed').waitFor();
      await timeline.getByText('Tags added').waitFor();
      await timeline.getByText('VIP').waitFor();
    });

    it('adds a note, adds the contact to a flow and removes it again', async () => {
      await page.getByLabel('New note').fill('Call on Monday');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByRole('list', { name: 'Notes' }).getByText('Call on Monday').waitFor();

      await page.getByRole('textbox', { name: 'Add to flow' }).click();
      await page.getByRole('option', { name: 'Nurture' }).click();
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      const flows = page.getByRole('table', { name: 'Flows of the contact' });
      await flows.getByText('Running').waitFor();
      await page.getByRole('button', { name: 'Remove from Nurture' }).click();
      await flows.getByText('Removed').waitFor();
      await page.getByRole('region', { name: 'Timeline' }).getByText('Taken out of a flow').waitFor();
      await expectAccessible(page, 'contact page after edits');
    });

    it('edits a company in place and lists its contacts', async () => {
      await page.getByRole('link', { name: 'Engines' }).click();
      await page.getByRole('heading', { name: 'Engines', level: 1 }).waitFor();
      await page
        .getByRole('table', { name: 'Contacts of the company' })
        .getByRole('link', { name: 'Ada Lovelace' })
        .waitFor();
      await page.getByLabel('Industry').fill('Robotics');
      await page.getByLabel('Industry').press('Enter');
      await expect
        .poll(async () => {
          const row = await web.ctx.db
            .selectFrom('companies')
            .select('industry')
            .where('uuid', '=', company)
            .executeTakeFirstOrThrow();
          return row.industry;
        })
        .toBe('Robotics');
      await expectAccessible(page, 'company page');
    });

    it('filters the table with the builder and tags all that match after stating the count', async () => {
      await page.getByRole('link', { name: 'Contacts' }).click();
      const table = page.getByRole('table', { name: 'Contacts' });
      await table.getByRole('cell', { name: 'Edsger Dijkstra', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByRole('textbox', { name: 'Field of filter 1' }).click();
      await page.getByRole('option', { name: 'List', exact: true }).click();
      await page.getByRole('textbox', { name: 'Value of filter 1' }).click();
      await page.getByRole('option', { name: 'Prospects' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => table.getByRole('row').count()).toBe(3);
      await table.getByRole('cell', { name: 'Alan Turing', exact: true }).waitFor();
      await expectAccessible(page, 'contacts with a filter');

      await page.getByRole('button', { name: 'Select all 2 that match' }).click();
      await page.getByRole('button', { name: 'Actions on 2 contacts' }).click();
      await page.getByRole('menuitem', { name: 'Add tags' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add tags' });
      await dialog.getByRole('textbox', { name: 'Tags' }).click();
      await page.getByRole('option', { name: 'VIP' }).click();
      await dialog.getByText('Add tags on 2 contacts.').waitFor();
      await dialog.getByRole('button', { name: 'Apply to 2 contacts' }).click();
      await page.getByText('Add tags: 2 changed.').waitFor();
      const tagged = await web.ctx.db
        .selectFrom('leads')
        .select('first_name')
        .where('team_id', '=', web.owner.teamId)
        .where(sql<boolean>`cardinality(tags) > 0`)
        .orderBy('first_name')
        .execute();
      expect(tagged.map((r) => r.first_name)).toEqual(['Ada', 'Alan', 'Grace']);

      await page.getByRole('textbox', { name: 'Operator of filter 1' }).click();
      await page.getByRole('option', { name: 'is none of' }).click();
      await expect.poll(() => table.getByRole('row').count()).toBe(3);
      await table.getByRole('cell', { name: 'Edsger Dijkstra', exact: true }).waitFor();
    });

    it('deletes a selected contact after confirming', async () => {
      await page.getByRole('button', { name: 'Clear filters' }).click();
      const table = page.getByRole('table', { name: 'Contacts' });
      await expect.poll(() => table.getByRole('row').count()).toBe(5);
      await page.getByRole('checkbox', { name: 'Select Edsger Dijkstra' }).check();
      await page.getByRole('button', { name: 'Actions on 1 contact' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete' });
      await dialog.getByText('Delete 1 contact? This cannot be undone.').waitFor();
      await dialog.getByRole('button', { name: 'Delete 1 contact' }).click();
      await expect.poll(() => table.getByRole('row').count()).toBe(4);
      expect(await table.getByRole('cell', { name: 'Edsger Dijkstra', exact: true }).count()).toBe(0);
    });

    it('moves contacts between stages on the pipeline board, by drag and by menu', async () => {
      await page.getByRole('link', { name: 'Pipeline' }).click();
      const column = (name: string) => page.getByRole('region', { name: new RegExp(`^${name} \\(`) });
      await column('New').getByRole('link', { name: 'Alan Turing' }).waitFor();
      await expectAccessible(page, 'pipeline board');
      await column('New')
        .getByRole('listitem')
        .filter({ hasText: 'Alan Turing' })
        .dragTo(column('Replied').getByRole('list'));
      await column('Replied').getByRole('link', { name: 'Alan Turing' }).waitFor();
      await page.getByRole('button', { name: 'Move Grace Hopper' }).click();
      await page.getByRole('menuitem', { name: 'Engaging' }).click();
      await column('Engaging').getByRole('link', { name: 'Grace Hopper' }).waitFor();
      const stageOf = async (first: string) => {
        const row = await web.ctx.db
          .selectFrom('leads')
          .innerJoin('pipeline_stages', 'pipeline_stages.uuid', 'leads.pipeline_stage_uuid')
          .select('pipeline_stages.name')
          .where('leads.team_id', '=', web.owner.teamId)
          .where('leads.first_name', '=', first)
          .executeTakeFirstOrThrow();
        return row.name;
      };
      expect([await stageOf('Alan'), await stageOf('Grace')]).toEqual(['Replied', 'Engaging']);
    });
  },
);
