// The team dashboard in a real browser: the empty state, then a sender's actions against its limits,
// acceptance and reply rates and a seat that needs a login, each chart's numbers in its Table view; axe.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { makeSender } from '../automation-factories.js';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

describe.skipIf(webTestsUnavailable)('web application: analytics', { timeout: 120_000 }, () => {
  let web: WebHarness;
  let page: Page;

  beforeAll(async () => {
    web = await startWebHarness();
    page = await web.newPage({ width: 1440, height: 900 });
    await web.signInOwner(page);
  }, 120_000);
  afterAll(() => web?.close());

  it('says what to do while the team has no sender', async () => {
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await page.getByText('No sender yet.').waitFor();
    await page.getByText(/every seat and mailbox can act/).waitFor();
    await expectAccessible(page, 'analytics (empty)');
  });

  it("draws a sender's actions against its limits and the rates, with the numbers in tables", async () => {
    const { db } = web.ctx;
    const teamId = web.owner.teamId;
    const sender = await makeSender(db, teamId, {
      first_name: 'Dana',
      limits: { linkedin_send_connection_request: 15 },
    });
    await db
      .insertInto('linkedin_browsers')
      .values({
        team_id: teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'sandbox',
        status: 'login_issue',
        name: 'Dana seat',
      })
      .execute();
    const now = new Date();
    const flow = newId();
    await db
      .insertInto('tasks')
      .values(
        Array.from({ length: 4 }, () => ({
          team_id: teamId,
          uuid: newId(),
          lead_uuid: newId(),
          flow_uuid: flow,
          flow_node_id: 1,
          sender_profile_uuid: sender.uuid,
          type: 'linkedin_send_connection_request',
          automation: 'auto' as const,
          status: 'closed' as const,
          taken_to_execute_at: now,
          executed_at: now,
        })),
      )
      .execute();
    const conversion = (channel: string, kind: string, delta: number) => ({
      team_id: teamId,
      flow_uuid: flow,
      flow_node_id: 1,
      contact_source_id: 1,
      sender_profile_uuid: sender.uuid,
      channel,
      kind,
      delta,
      occurred_at: now,
    });
    await db
      .insertInto('flow_conversion_deltas')
      .values([
        conversion('linkedin_connection_request', 'sent', 4),
        conversion('linkedin_connection_request', 'accepted', 1),
        conversion('linkedin_message', 'sent', 2),
        conversion('linkedin_message', 'replied', 1),
      ])
      .execute();

    await page.reload();
    const figures = (label: string) => page.getByRole('group', { name: label });
    await expect.poll(() => figures('Actions').textContent()).toMatch(/Actions4$/);
    await expect.poll(() => figures('Acceptance rate').textContent()).toMatch(/25 %of 4 requests/);
    await expect.poll(() => figures('Reply rate').textContent()).toMatch(/50 %of 2 messages/);
    await page.getByRole('link', { name: /Dana seat needs a login/ }).waitFor();

    const limits = page.getByRole('region', { name: 'Connection requests per day against the limits' });
    await limits.getByRole('img').waitFor();
    await limits.getByText('Table').click();
    const today = limits.getByRole('row').last();
    await expect.poll(() => today.textContent()).toMatch(/^\d{4}-\d\d-\d\d4041561125 %50 %$/);

    const results = page.getByRole('region', { name: 'Results per sender' });
    await results.getByText('Table').click();
    await expect.poll(() => results.getByRole('table').textContent()).toMatch(/Dana Sender41 ?25 %21 ?50 %/);
    await expectAccessible(page, 'analytics');
  });
});
