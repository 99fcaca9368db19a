// The tasks pages in a real browser: "My day" worked from the keyboard (complete, skip, fail with a
// reason), the task list's mass move on all that match after a confirmation stating the count, a held
// contact released, stored markup in a to-do's text shown as text, both pages on a 390 px phone - with
// axe-core on each page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { insertEnrollment, insertTasks } from '../../src/modules/tasks/tasks.fixtures.js';
import { makeLeads, makeList } from '../factories.js';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  startWebHarness,
  type WebHarness,
  webTestsUnavailable,
} from './web-harness.js';

const XSS = '<img src=x onerror="window.__xss=1">';

describe.skipIf(webTestsUnavailable)('web application: tasks', { timeout: 120_000 }, () => {
  let web: WebHarness;
  let page: Page;
  const todo: Record<string, string> = {};
  let held: { lead: string; enrollment: string };

  beforeAll(async () => {
    web = await startWebHarness();
    const { ctx, owner } = web;
    const sender = await ctx.request(owner, {
      method: 'POST',
      url: '/flows/api/sender-profiles',
      payload: { first_name: 'Sam', last_name: 'Sender' },
    });
    const list = await makeList(ctx.db, owner.teamId);
    const people = await makeLeads(ctx.db, owner.teamId, list.uuid, [
      { first_name: 'Ada', last_name: 'Lovelace' },
      { first_name: 'Alan', last_name: 'Turing' },
      { first_name: 'Grace', last_name: 'Hopper' },
      { first_name: 'Edsger', last_name: 'Dijkstra' },
      { first_name: 'Held', last_name: 'Person' },
    ]);
    const now = Date.now();
    const make = async (index: number, minutesFromNow: number, text: string) => {
      const res = await ctx.request(owner, {
        method: 'POST',
        url: '/flows/api/tasks',
        payload: {
          lead_uuid: people[index]!.uuid,
          sender_profile_uuid: sender.json().uuid,
          text,
          schedule_at: new Date(now + minutesFromNow * 60_000).toISOString(),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().uuid as string;
    };
    // Ada's is overdue (yesterday), so it comes first; then the day in time order.
    todo.ada = await make(0, -24 * 60 - 5, 'Hello Ada');
    todo.alan = await make(1, 0, XSS);
    todo.grace = await make(2, 1, 'Hello Grace');
    todo.edsger = await make(3, 2, 'Hello Edsger');
    const flow = newId();
    held = { lead: people[4]!.uuid, enrollment: '' };
    held.enrollment = await insertEnrollment(ctx, owner.teamId, {
      flow_uuid: flow,
      lead_uuid: held.lead,
      next_run_at: null,
      wait: JSON.stringify({ kind: 'hold' }),
    });
    await insertTasks(ctx, owner.teamId, [
      {
        type: 'util_hodor',
        status: 'in_progress',
        lead_uuid: held.lead,
        flow_uuid: flow,
        flow_lead_uuid: held.enrollment,
      },
    ]);
    page = await web.newPage();
    await web.signInOwner(page);
  }, 180_000);
  afterAll(() => web?.close());

  const statusOf = async (uuid: string) =>
    await web.ctx.db
      .selectFrom('tasks')
      .select(['status', 'error_msg'])
      .where('uuid', '=', uuid)
      .executeTakeFirst();

  it('fits a phone: my day and the task list, every control reachable', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/tasks');
    await page.getByRole('list', { name: 'To-dos of Sam Sender' }).getByRole('listitem').first().waitFor();
    await expectNoHorizontalOverflow(page, 'my day');
    await expectAccessible(page, 'my day on a phone');
    await page.getByRole('link', { name: 'All tasks' }).click();
    await page.getByRole('table', { name: 'Tasks' }).waitFor();
    await expectNoHorizontalOverflow(page, 'the task list');
    for (const name of ['Save as new view', 'Complete all that match', 'Skip all that match']) {
      const button = page.getByRole('button', { name });
      await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, `${name} within the screen`).toBe(true);
    }
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: /^Inbox/ }).waitFor();
    await expectNoHorizontalOverflow(page, 'the inbox');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('works my day from the keyboard, in the schedule’s order', async () => {
    await page.goto('/contacts');
    await page.getByRole('link', { name: 'Tasks' }).click();
    const list = page.getByRole('list', { name: 'To-dos of Sam Sender' });
    await list.getByRole('listitem').first().waitFor();
    await expect
      .poll(() =>
        list.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label'))),
      )
      .toEqual([
        'Send a LinkedIn message: Ada Lovelace',
        'Send a LinkedIn message: Alan Turing',
        'Send a LinkedIn message: Grace Hopper',
        'Send a LinkedIn message: Edsger Dijkstra',
      ]);
    await list.getByText(XSS).waitFor();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    await expectAccessible(page, 'my day');

    await page.keyboard.press('c');
    await expect.poll(async () => (await statusOf(todo.ada!))?.status).toBe('closed');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    await page.keyboard.press('s');
    await expect.poll(async () => (await statusOf(todo.alan!))?.status).toBe('skipped');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.keyboard.press('f');
    const dialog = page.getByRole('dialog', { name: 'Mark the task as failed' });
    await dialog.getByLabel('Why it failed').fill('Profile is gone');
    await dialog.getByRole('button', { name: 'Mark as failed' }).click();
    await expect
      .poll(() => statusOf(todo.grace!))
      .toEqual({ status: 'failed', error_msg: 'Profile is gone' });
  });

  it('moves all tasks that match the filters after confirming the count', async () => {
    await page.getByRole('link', { name: 'All tasks' }).click();
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.getByRole('cell', { name: 'Edsger Dijkstra', exact: true }).waitFor();
    await expectAccessible(page, 'task list');
    await page.getByRole('button', { name: 'Cancel all that match' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Cancel 1 task (all that match the filters)?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel 1' }).click();
    await expect.poll(async () => (await statusOf(todo.edsger!))?.status).toBe('canceled');
    await page.getByText('No task matches these filters').waitFor();

    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await table.getByRole('cell', { name: 'Profile is gone', exact: true }).waitFor();
  });

  it('continues the automation of a held contact', async () => {
    await page.getByRole('link', { name: 'Held contacts' }).click();
    await page.getByRole('cell', { name: 'Held Person', exact: true }).waitFor();
    await expectAccessible(page, 'held contacts');
    await page.getByRole('button', { name: 'Continue automation for Held Person' }).click();
    await page.getByText('1 contact continues in their flow.').waitFor();
    const row = await web.ctx.db
      .selectFrom('flow_leads')
      .select('wait')
      .where('uuid', '=', held.enrollment)
      .executeTakeFirstOrThrow();
    expect(row.wait).toMatchObject({ kind: 'hold', released: true });
  });
});
