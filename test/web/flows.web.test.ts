// The flow builder in a real browser: a multi-branch flow built from an empty canvas with the mouse,
// a validation problem shown on its step and fixed, undo/redo, the draft kept across a reload, and
// axe on the list and the builder.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutomationEngine } from '../../src/deps.js';
import { manualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { makeContacts, makeFlow, makeSandboxSeat, makeSender } from '../automation-factories.js';
import { runEngine } from '../engine-harness.js';
import { expectAccessible, startWebHarness, type WebHarness, webTestsUnavailable } from './web-harness.js';

describe.skipIf(webTestsUnavailable)('web application: flows and the builder', { timeout: 180_000 }, () => {
  let web: WebHarness;
  let page: Page;
  let flowUuid: string;

  beforeAll(async () => {
    // The sandbox network accepts every invitation and answers every message, within a minute.
    web = await startWebHarness({
      env: {
        LEADFLOW_SANDBOX_ACCEPT_RATE: '1',
        LEADFLOW_SANDBOX_REPLY_RATE: '1',
        LEADFLOW_SANDBOX_PROFILE_MISSING_RATE: '0',
        LEADFLOW_SANDBOX_MIN_RESPONSE_SECONDS: '30',
        LEADFLOW_SANDBOX_MAX_RESPONSE_SECONDS: '60',
      },
    });
    page = await web.newPage({ width: 1440, height: 900 });
    await web.signInOwner(page);
  }, 180_000);
  afterAll(() => web?.close());

  /** Clicks the "+" of a branch and picks a step type from the palette. */
  async function addStep(after: string, type: string) {
    await page.getByRole('button', { name: `Add step after ${after}`, exact: true }).click();
    const palette = page.getByRole('dialog', { name: /Add a step after/ });
    await palette.getByRole('button', { name: type, exact: true }).click();
    await palette.waitFor({ state: 'hidden' });
  }

  it('creates a flow from the empty list and opens the builder', async () => {
    await page.getByRole('link', { name: 'Flows' }).click();
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    await page.getByText('No flows yet').waitFor();
    await expectAccessible(page, 'flows (empty)');
    await page.getByRole('button', { name: 'New flow' }).click();
    await page.getByRole('dialog', { name: 'New flow' }).getByLabel('Name').fill('DACH founders');
    await page.getByRole('button', { name: 'Create and open builder' }).click();
    await page.getByRole('heading', { name: 'DACH founders' }).waitFor();
    flowUuid = page.url().split('/flows/')[1] as string;
    expect(flowUuid).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Step 1: End' }).waitFor();
  });

  it('builds a branching flow with the mouse and shows the API problem on its step', async () => {
    await addStep('Start', 'Connection request');
    await addStep('step 2', 'Invitation accepted?');
    // The trigger's first branch continues to the end; its second got an end of its own.
    await page.getByText('accepted within 7 days', { exact: true }).waitFor();
    await page.getByText('not accepted within 7 days', { exact: true }).waitFor();
    await addStep('step 3 (accepted within 7 days)', 'LinkedIn message');
    await addStep('step 3 (not accepted within 7 days)', 'Visit profile');
    await expect.poll(() => page.getByRole('button', { name: /^Step \d+: / }).count()).toBe(6);

    // The message step has no text yet: saving answers 422, shown on the step.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'The flow was not saved' }).waitFor();
    const messageStep = page.getByRole('button', { name: /^Step 5: LinkedIn message \(has problems\)/ });
    await messageStep.waitFor();
    await expect
      .poll(() => page.getByRole('list', { name: 'Problems of step 5' }).textContent())
      .toMatch(/template/i);
    await expectAccessible(page, 'builder with a problem');

    await messageStep.click();
    const panel = page.getByRole('region', { name: 'Step 5: LinkedIn message' });
    await panel.getByLabel('Text', { exact: true }).fill('Thanks for connecting, {{first_name}}!');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Step 5: LinkedIn message', exact: true }).waitFor();

    const flow = await web.ctx.request(web.owner, { method: 'GET', url: `/flows/api/flows/${flowUuid}` });
    const nodes = flow.json().nodes as Array<{
      id: number;
      type: string;
      after: Array<{ node_id: number; branch_id: number }>;
    }>;
    expect(nodes.map((n) => n.type).sort()).toEqual(
      [
        'end',
        'end',
        'linkedin_send_connection_request',
        'linkedin_send_message',
        'linkedin_visit_profile',
        'trigger_linkedin_connection_request_accepted',
      ].sort(),
    );
    const trigger = nodes.find((n) => n.type === 'trigger_linkedin_connection_request_accepted');
    expect(trigger?.after.map((e) => e.branch_id).sort()).toEqual([1, 2]);
    expect(flow.json().contact_sources[0].after_id).toBe(
      nodes.find((n) => n.type === 'linkedin_send_connection_request')?.id,
    );
  });

  it('undoes and redoes, and keeps unsaved changes across a reload', async () => {
    await page.getByRole('button', { name: 'Step 6: Visit profile', exact: true }).click();
    await page.getByRole('button', { name: 'Delete step' }).click();
    await page
      .getByRole('button', { name: 'Step 6: Visit profile', exact: true })
      .waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Step 6: Visit profile', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Redo' }).click();
    await page
      .getByRole('button', { name: 'Step 6: Visit profile', exact: true })
      .waitFor({ state: 'detached' });
    await page.getByText('Unsaved changes').waitFor();

    // The browser asks before leaving a page with unsaved changes; the reload goes ahead.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await page.getByText(/Restored unsaved changes/).waitFor();
    expect(await page.getByRole('button', { name: 'Step 6: Visit profile', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Discard them' }).click();
    await page.getByRole('button', { name: 'Step 6: Visit profile', exact: true }).waitFor();
  });

  it('previews what will happen on the sandbox, then starts and takes contacts', async () => {
    const teamId = web.owner.teamId;
    const sender = await makeSender(web.ctx.db, teamId, { first_name: 'Sandy' });
    await makeSandboxSeat(web.ctx.db, teamId, sender.uuid);
    const leads = await makeContacts(web.ctx.db, teamId, 6, 'Robin');
    await page.reload();
    await page
      .getByRole('button', { name: /: contacts and senders$/ })
      .first()
      .click();
    const source = page.getByRole('region', { name: 'Contacts and senders' });
    await source.getByLabel('Senders').click();
    await page.getByRole('option', { name: /Sandy/ }).click();
    await page.keyboard.press('Escape');

    // The template editor completes variables and renders the text for a contact of the flow.
    await page.getByRole('button', { name: 'Step 5: LinkedIn message', exact: true }).click();
    const step = page.getByRole('region', { name: 'Step 5: LinkedIn message' });
    const text = step.getByRole('textbox', { name: 'Text' });
    await text.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' {{fir');
    await page
      .getByRole('option', { name: /first_name/ })
      .first()
      .click();
    await page.keyboard.type('}} {{nope}}');
    await step.getByText(/Not a variable: nope/).waitFor();
    await step.getByText(/For Robin/).waitFor();
    await expectAccessible(page, 'template editor');
    for (let i = 0; i < 9; i += 1) await page.keyboard.press('Backspace');

    // The unsaved draft is what the preview runs.
    await page.getByRole('button', { name: 'What will happen' }).click();
    const drawer = page.getByRole('dialog', { name: 'What will happen' });
    await drawer.getByLabel('Contacts').fill('6');
    await drawer.getByLabel('Days').fill('10');
    await drawer.getByLabel('Acceptance rate (%)').fill('100');
    await drawer.getByRole('button', { name: 'Run preview' }).click();
    await drawer.getByText(/6 contacts from/).waitFor();
    const chart = drawer.getByRole('region', { name: /^Actions per day of Sandy.* limits$/ });
    await chart.getByRole('img').waitFor();
    await chart.getByText('Table').click();
    const table = chart.getByRole('table');
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(1);
    await expect.poll(() => table.textContent()).toMatch(/Connection request/);
    await drawer.getByRole('button', { name: /Robin/ }).first().click();
    await drawer
      .getByText(/Thanks for connecting, Robin/)
      .first()
      .waitFor();
    await expectAccessible(page, 'preview');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const start = await web.ctx.request(web.owner, {
      method: 'PUT',
      url: `/flows/api/flows/${flowUuid}/start`,
    });
    expect(start.statusCode).toBeLessThan(300);
    for (const lead of leads) {
      const res = await web.ctx.request(web.owner, {
        method: 'POST',
        url: `/flows/api/flows/${flowUuid}/leads/${lead.uuid}`,
        payload: { contact_source_id: 1 },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }

    // The engine runs on simulated time (jumping to whatever is due next: the schedule, the sender's gaps,
    // the sandbox's answers); the funnel on the graph fills as the sandbox accepts and replies.
    await page.getByRole('button', { name: 'Statistics' }).click();
    const clock = manualClock(new Date());
    const engine = createAutomationEngine(
      { db: web.ctx.db, config: web.ctx.config, clock },
      createLogger('silent'),
      { sleep: async () => {} },
    );
    const events = async (name: string) =>
      Number(
        (
          await web.ctx.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('team_id', '=', teamId)
            .where('name', '=', name)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const closedTriggers = async () =>
      Number(
        (
          await web.ctx.db
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('team_id', '=', teamId)
            .where('type', '=', 'trigger_linkedin_connection_request_accepted')
            .where('status', '=', 'closed')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const funnelOf = (step: string) =>
      page.locator('.react-flow__node', { has: page.getByRole('button', { name: step, exact: true }) });
    const invitations = funnelOf('Step 2: Connection request');
    await runEngine(
      engine,
      clock,
      async () => (await events('sender_profile_sent_linkedin_connection_request')) > 0,
    );
    // Invitations sent, none answered yet.
    await expect.poll(() => invitations.textContent(), { timeout: 15_000 }).toMatch(/[1-6] done/);
    expect(await invitations.textContent()).not.toMatch(/accepted/);

    // Until every acceptance is seen and its trigger took the "accepted" branch.
    await runEngine(engine, clock, async () => (await closedTriggers()) === 6);
    await expect.poll(() => invitations.textContent(), { timeout: 15_000 }).toMatch(/6 done.*6 accepted/);
    // Every contact took the "accepted" branch.
    await expect
      .poll(() => page.locator('.lf-edge-label', { hasText: /^accepted within 7 days/ }).textContent(), {
        timeout: 15_000,
      })
      .toBe('accepted within 7 days6+');

    await runEngine(engine, clock, async () => (await events('contact_replied_linkedin_message')) === 6);
    await expect
      .poll(() => funnelOf('Step 5: LinkedIn message').textContent(), { timeout: 15_000 })
      .toMatch(/6 done.*6 replied/);
    await expectAccessible(page, 'builder with statistics');
  });

  it("lists the flow's contacts with their step and next action, stops one and moves one", async () => {
    // Two more contacts, in the flow but not yet taken by the engine; another flow to move one to.
    const teamId = web.owner.teamId;
    const [kim0, kim1] = await makeContacts(web.ctx.db, teamId, 2, 'Kim');
    for (const lead of [kim0!, kim1!]) {
      const res = await web.ctx.request(web.owner, {
        method: 'POST',
        url: `/flows/api/flows/${flowUuid}/leads/${lead.uuid}`,
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    const later = await makeFlow(web.ctx.db, teamId, {
      name: 'Later follow-up',
      nodes: [{ id: 1, type: 'end' }],
      senders: [],
      status: 'off',
    });

    await page.getByRole('link', { name: 'Contacts', exact: true }).last().click();
    await page.getByRole('heading', { name: 'Contacts in DACH founders' }).waitFor();
    const table = page.getByRole('table', { name: 'Contacts in this flow' });
    await expect.poll(() => table.getByRole('row').count()).toBe(9);
    await expect.poll(() => table.textContent()).toMatch(/Kim0 Test.*In progress/);
    await expect.poll(() => table.textContent()).toMatch(/Robin0 Test.*Ended: /);
    await expectAccessible(page, 'contacts of a flow');

    await page.getByRole('button', { name: 'Stop Kim0 Test' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('radio', { name: 'Stopped (1)' }).waitFor({ state: 'attached' });

    // Moving is one call: the contact leaves this flow and enters the other one together.
    await page.getByRole('button', { name: 'Move Kim1 Test to another flow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move Kim1 Test to another flow' });
    await dialog.getByRole('textbox', { name: 'Flow' }).click();
    await page.getByRole('option', { name: 'Later follow-up' }).click();
    await expectAccessible(page, 'move dialog');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page.getByText(/^Moved: /).waitFor();
    const moved = await web.ctx.db
      .selectFrom('flow_leads')
      .select(['flow_uuid', 'status', 'reason'])
      .where('lead_uuid', '=', kim1!.uuid)
      .execute();
    expect(moved).toEqual(
      expect.arrayContaining([
        { flow_uuid: flowUuid, status: 'canceled', reason: 'moved' },
        { flow_uuid: later.uuid, status: 'in_progress', reason: null },
      ]),
    );

    await page.getByText('Stopped (2)').click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await expect.poll(() => table.textContent()).toMatch(/Kim0 Test.*Stopped.*Ended: canceled/);
    await expect.poll(() => table.textContent()).toMatch(/Kim1 Test.*Stopped.*Ended: moved/);
  });
});
