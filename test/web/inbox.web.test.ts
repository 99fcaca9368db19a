// The inbox in a real browser: a sandbox seat's reply (synced from the seat's inbox) read and answered
// through the seat, from a template with variables and a preview of what will be sent, marked read on
// opening and unread again, the contact's flows stopped; an e-mail's HTML in a sandboxed frame;
// stored <img onerror> in a LinkedIn message and in an e-mail never runs; the phone layout - with
// axe-core on each view.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedInMessageDeps } from '../../src/deps.js';
import { systemClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { addToSandboxInbox } from '../../src/modules/browsers/sandbox/sandbox-inbox.js';
import { syncSeat } from '../../src/modules/linkedin-messages/linkedin-sync.js';
import { enroll, makeFlow, makeSandboxSeat } from '../automation-factories.js';
import { makeLeads, makeList } from '../factories.js';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  startWebHarness,
  type WebHarness,
  webTestsUnavailable,
} from './web-harness.js';

const XSS = '<img src=x onerror="window.__xss=1">';

describe.skipIf(webTestsUnavailable)('web application: inbox', { timeout: 120_000 }, () => {
  let web: WebHarness;
  let page: Page;
  let sender: string;
  let ada: string;
  let enrollment: string;

  beforeAll(async () => {
    web = await startWebHarness();
    const { ctx, owner } = web;
    const db = ctx.db;
    const team = owner.teamId;
    const created = await ctx.request(owner, {
      method: 'POST',
      url: '/flows/api/sender-profiles',
      payload: { first_name: 'Sam', last_name: 'Sender' },
    });
    sender = created.json().uuid;
    await makeSandboxSeat(db, team, sender);
    const list = await makeList(db, team);
    const [adaRow, alanRow] = await makeLeads(db, team, list.uuid, [
      { first_name: 'Ada', last_name: 'Lovelace', linkedin: 'ada-lovelace' },
      { first_name: 'Alan', last_name: 'Turing', work_email: 'alan@example.test' },
    ]);
    ada = adaRow!.uuid;
    const flow = await makeFlow(db, team, {
      senders: [sender],
      name: 'Welcome flow',
      nodes: [
        { id: 1, type: 'util_timer', payload: { wait_time: 86_400 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    enrollment = (await enroll(db, team, flow, [ada]))[0]!.uuid;
    // Ada answers on LinkedIn; the seat's sync stores the reply.
    await addToSandboxInbox(db, [
      {
        team_id: team,
        sender_profile_uuid: sender,
        lead_uuid: ada,
        kind: 'message',
        conversation_id: 'conv-ada',
        member: { linkedin: 'ada-lovelace', full_name: 'Ada Lovelace' },
        text: `Happy to talk! ${XSS}`,
        subject: null,
        linkedin_type: 'MEMBER_TO_MEMBER',
        occurred_at: new Date(),
      },
    ]);
    const sync = await syncSeat(
      linkedInMessageDeps({ db, config: ctx.config, clock: systemClock }),
      team,
      sender,
      new Date(),
    );
    expect(sync).toMatchObject({ stored: 1, error: null });
    // Alan's e-mail answer, whose HTML carries a script in an onerror attribute.
    const body = newId();
    await db
      .insertInto('email_bodies')
      .values({
        team_id: team,
        uuid: body,
        subject: 'Re: Intro',
        body: `<p>Sounds <b>good</b></p>${XSS}`,
        text_body: 'Sounds good',
      })
      .execute();
    await db
      .insertInto('emails')
      .values({
        team_id: team,
        uuid: newId(),
        sender_profile_uuid: sender,
        mailbox_uuid: newId(),
        email_body_uuid: body,
        lead_uuid: alanRow!.uuid,
        type: 'inbox',
        status: 'sent',
        from_name: 'Alan Turing',
        from_email: 'alan@example.test',
        subject: 'Re: Intro',
        message_id: `<${newId()}@example.test>`,
        thread_uuid: newId(),
        sent_at: new Date(Date.now() - 60_000),
      })
      .execute();
    const template = await ctx.request(owner, {
      method: 'POST',
      url: '/flows/api/ai-templates',
      payload: { name: 'Thanks', type: 'message', is_public: 1, body: 'Thanks {{first_name}}!' },
    });
    expect(template.statusCode, template.body).toBe(201);
    page = await web.newPage();
    await web.signInOwner(page);
  }, 180_000);
  afterAll(() => web?.close());

  const xssRan = (target: Page | ReturnType<Page['frames']>[number]) =>
    target.evaluate(() => (window as { __xss?: number }).__xss);

  it('reads a sandbox seat’s reply and answers it through the seat', async () => {
    await page.getByRole('link', { name: 'Inbox' }).click();
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('button', { name: 'Ada Lovelace, LinkedIn, 1 unread' }).waitFor();
    await list.getByRole('button', { name: 'Alan Turing, e-mail, 1 unread' }).waitFor();
    await expectAccessible(page, 'inbox');

    await list.getByRole('button', { name: /^Ada Lovelace/ }).click();
    const thread = page.getByRole('list', { name: 'Messages with Ada Lovelace' });
    await thread.getByText(`Happy to talk! ${XSS}`).waitFor();
    expect(await xssRan(page)).toBeUndefined();
    await page.getByRole('complementary', { name: 'Contact' }).getByText('Welcome flow · running').waitFor();
    await expectAccessible(page, 'inbox thread');

    await page.getByLabel('Reply on LinkedIn').fill('Great, how about Tuesday?');
    await page.getByRole('button', { name: 'Send LinkedIn message' }).click();
    await thread.getByText('Great, how about Tuesday?').waitFor();
    const sent = await web.ctx.db
      .selectFrom('linkedin_messages')
      .select(['type', 'automation', 'lead_uuid', 'sender_profile_uuid', 'status'])
      .where('text', '=', 'Great, how about Tuesday?')
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({
      type: 'outbox',
      automation: 'manual',
      lead_uuid: ada,
      sender_profile_uuid: sender,
    });
  });

  it('replies from a template with a variable, showing what will be sent', async () => {
    await page.getByRole('textbox', { name: 'Reply template' }).click();
    await page.getByRole('option', { name: 'Thanks' }).click();
    const reply = page.getByLabel('Reply on LinkedIn');
    await expect.poll(() => reply.inputValue()).toBe('Thanks {{first_name}}!');
    await page.getByRole('textbox', { name: 'Insert variable' }).fill('last_name');
    await page.getByRole('option', { name: /^last_name / }).click();
    await expect.poll(() => reply.inputValue()).toBe('Thanks {{first_name}}!{{last_name}}');
    const preview = page.getByRole('region', { name: 'Preview of what will be sent' });
    await preview.getByText('Thanks Ada!Lovelace').waitFor();
    await expectAccessible(page, 'a reply with a preview');
    await page.getByRole('button', { name: 'Send LinkedIn message' }).click();
    await page
      .getByRole('list', { name: 'Messages with Ada Lovelace' })
      .getByText('Thanks Ada!Lovelace')
      .waitFor();
  });

  it('opening marked the conversation read; marks it unread and stops the contact’s flows', async () => {
    const unread = () =>
      web.ctx.db
        .selectFrom('linkedin_conversations')
        .select('unread_count')
        .where('lead_uuid', '=', ada)
        .executeTakeFirstOrThrow()
        .then((r) => r.unread_count);
    await page.getByRole('button', { name: 'Ada Lovelace, LinkedIn', exact: true }).waitFor();
    expect(await unread()).toBe(0);
    await page.getByRole('button', { name: 'Mark unread' }).click();
    await page.getByRole('button', { name: 'Ada Lovelace, LinkedIn, 1 unread' }).waitFor();
    expect(await unread()).toBe(1);
    await page.getByRole('button', { name: 'Mark read' }).click();
    await page.getByRole('button', { name: 'Ada Lovelace, LinkedIn', exact: true }).waitFor();
    const panel = page.getByRole('complementary', { name: 'Contact' });

    await panel.getByRole('button', { name: 'Stop flows' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Remove Ada Lovelace from 1 flow?').waitFor();
    await confirm.getByRole('button', { name: 'Stop flows' }).click();
    await panel.getByText('In no flow.').waitFor();
    const ended = await web.ctx.db
      .selectFrom('flow_leads')
      .select('status')
      .where('uuid', '=', enrollment)
      .executeTakeFirstOrThrow();
    expect(ended.status).toBe('canceled');
  });

  it('shows e-mail HTML in a sandboxed frame where scripts do not run', async () => {
    await page.getByRole('button', { name: /^Alan Turing, e-mail/ }).click();
    const frameElement = page.getByTitle('E-mail from Alan Turing <alan@example.test>');
    await frameElement.waitFor();
    expect(await frameElement.getAttribute('sandbox')).toBe('');
    const frame = page.frames().find((f) => f.parentFrame() !== null);
    expect(frame).toBeDefined();
    await expect.poll(() => frame!.locator('b').textContent()).toBe('good');
    expect(await frame!.locator('img').count()).toBe(1);
    expect(await xssRan(frame!)).toBeUndefined();
    expect(await xssRan(page)).toBeUndefined();
    await page.getByLabel('Reply by e-mail').waitFor();
  });

  it('fits a phone: the list, then the thread with a way back', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('button', { name: /^Ada Lovelace/ }).waitFor();
    await expectNoHorizontalOverflow(page, 'the conversations on a phone');
    await page.getByRole('button', { name: /^Ada Lovelace/ }).click();
    await page.getByRole('list', { name: 'Messages with Ada Lovelace' }).waitFor();
    await expectNoHorizontalOverflow(page, 'a thread on a phone');
    const send = page.getByRole('button', { name: 'Send LinkedIn message' });
    await send.scrollIntoViewIfNeeded();
    const box = await send.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await expectAccessible(page, 'inbox on a phone');
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await page.getByRole('list', { name: 'Conversations' }).waitFor();
  });
});
