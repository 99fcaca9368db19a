// Opens, clicks and one-click unsubscribes end to end: a flow with tracking switched on sends through
// a real SMTP server into Dovecot; the test reads the delivered message like a mail client and follows
// its pixel, its links and its List-Unsubscribe header through the public endpoints.
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALWAYS,
  enroll,
  makeFlow,
  makeSender,
  type NodeSpec,
} from '../../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../../test/engine-harness.js';
import { makeLeads, makeList } from '../../../../test/factories.js';
import {
  MAIL_TEST_ENV,
  type MailSystem,
  mailServersAvailable,
  startMailSystem,
} from '../../../../test/mail/mail-system.js';
import { newId } from '../../../lib/ids.js';

let h: EngineHarness;
let mail: MailSystem;
const db = () => h.ctx.db;
const team = () => h.user.teamId;

type Account = { email: string; password: string };

const MAIL = mailServersAvailable('the e-mail tracking tests');

describe.skipIf(!MAIL)('e-mail tracking and one-click unsubscribe (flows, SMTP, Dovecot)', () => {
  beforeAll(async () => {
    mail = await startMailSystem();
    h = await createEngineHarness({
      env: { ...MAIL_TEST_ENV, LEADFLOW_PUBLIC_URL: 'https://track.leadflow.test' },
    });
  });
  afterAll(async () => {
    await h?.close();
    await mail?.close();
  });

  async function setup(nodes: NodeSpec[], tracking: Record<string, boolean>) {
    const sender = await makeSender(db(), team(), { schedule: ALWAYS, action_interval_seconds: 0 });
    const account = await mail.account();
    const res = await h.ctx.request(h.user, {
      method: 'POST',
      url: '/emails/api/mailboxes',
      payload: {
        email: account.email,
        sender_name: 'Sam Sender',
        sender_profile_uuid: sender.uuid,
        connection_settings: mail.settings(account),
        automation_task_interval: 0,
      },
    });
    expect(res.json().status).toBe('active');
    const person = await mail.account();
    const list = await makeList(db(), team(), `list ${newId()}`);
    const [lead] = await makeLeads(db(), team(), list.uuid, [
      { first_name: 'Ann', last_name: 'Lee', work_email: person.email },
    ]);
    const flow = await makeFlow(db(), team(), { senders: [sender.uuid], nodes });
    // The switches as PUT /flows/api/flows/{uuid} stores them (tested through the API above; the
    // factory's nodes carry no timestamps, so the flow's detail answer would not serialise).
    await db()
      .updateTable('flows')
      .set({ settings: JSON.stringify(tracking) })
      .where('team_id', '=', team())
      .where('uuid', '=', flow.uuid)
      .execute();
    const [row] = await enroll(db(), team(), flow, [lead!.uuid], { at: h.clock.now() });
    return { flow, lead: lead!, person, enrollment: row! };
  }

  async function delivered(who: Account) {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: mail.dovecot.imapPort,
      secure: false,
      auth: { user: who.email, pass: who.password },
      logger: false,
    });
    await client.connect();
    const lock = await client.getMailboxLock('INBOX');
    try {
      const messages = await client.fetchAll('1:*', { source: true });
      return Promise.all(
        messages.map(async (m) =>
          Object.assign(await simpleParser(m.source as Buffer), { raw: (m.source as Buffer).toString() }),
        ),
      );
    } catch {
      return [];
    } finally {
      lock.release();
      await client.logout();
    }
  }

  const events = async (name: string, leadUuid: string) =>
    db()
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', team())
      .where('name', '=', name)
      .where('lead_uuid', '=', leadUuid)
      .execute();

  const enrollment = async (uuid: string) =>
    db()
      .selectFrom('flow_leads')
      .select(['status', 'flow_node_id'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();

  const get = (url: string) => h.ctx.request(null, { method: 'GET', url });
  const local = (url: string) => url.replace('https://track.leadflow.test', '');

  it('is off by default and switched on per flow', async () => {
    const create = await h.ctx.request(h.user, {
      method: 'POST',
      url: '/flows/api/flows',
      payload: { name: 'Plain', schedule: ALWAYS },
    });
    expect(create.statusCode, create.body).toBe(201);
    expect(create.json()).toMatchObject({
      email_track_opens: false,
      email_track_clicks: false,
      email_unsubscribe_link: false,
    });
    const on = await h.ctx.request(h.user, {
      method: 'PUT',
      url: `/flows/api/flows/${create.json().uuid}`,
      payload: { email_track_clicks: true },
    });
    expect(on.json()).toMatchObject({ email_track_opens: false, email_track_clicks: true });
    const stored = await db()
      .selectFrom('flows')
      .select('settings')
      .where('uuid', '=', create.json().uuid)
      .executeTakeFirstOrThrow();
    expect(stored.settings).toEqual({ email_track_clicks: true });
  });

  it('records an open and a click once each, takes the trigger branches, and refuses forged tokens', async () => {
    const {
      lead,
      person,
      enrollment: row,
    } = await setup(
      [
        {
          id: 1,
          type: 'email_send_message',
          payload: {
            subject: 'Pricing',
            template:
              '<p>Hi {{first_name}}, see <a href="https://example.com/pricing?a=1&amp;b=2">our prices</a>.</p>',
          },
          next: { 1: 2 },
        },
        {
          id: 2,
          type: 'trigger_email_opened',
          payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 3 * 86_400 } }] },
          next: { 1: 3, 2: 5 },
        },
        {
          id: 3,
          type: 'trigger_link_clicked',
          payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 3 * 86_400 } }] },
          next: { 1: 4, 2: 5 },
        },
        {
          id: 4,
          type: 'email_send_message',
          payload: { subject: 'Thanks for looking', template: '<p>Questions?</p>' },
          next: { 1: 5 },
        },
        { id: 5, type: 'end' },
      ],
      { email_track_opens: true, email_track_clicks: true },
    );
    await h.run(async () => (await enrollment(row.uuid)).flow_node_id === 2, { stepMs: 60_000 });
    const [message] = await delivered(person);
    const html = String(message!.html);
    const pixel = html.match(/<img src="([^"]+\/emails\/t\/o\/[^"]+\.gif)"/)?.[1];
    const link = html.match(/<a href="([^"]+\/emails\/t\/c\/[^"]+)"/)?.[1];
    expect(pixel).toMatch(/^https:\/\/track\.leadflow\.test\/emails\/t\/o\//);
    expect(link).toBeDefined();
    expect(html).not.toContain('https://example.com/pricing');
    // Unsubscribe was not switched on for this flow.
    expect(message!.raw).not.toMatch(/^List-Unsubscribe/m);

    // Forged, tampered, or of another kind: 404, nothing recorded.
    const token = local(pixel!).split('/').pop()!.replace('.gif', '');
    const tampered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect((await get(`/emails/t/o/${tampered}.gif`)).statusCode).toBe(404);
    expect((await get('/emails/t/o/forged.gif')).statusCode).toBe(404);
    expect((await get(`/emails/t/c/${token}`)).statusCode).toBe(404);
    expect(
      (
        await h.ctx.request(null, {
          method: 'POST',
          url: `/emails/t/u/${token}`,
          payload: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(404);
    // A HEAD (a prefetcher) answers without counting.
    expect((await h.ctx.request(null, { method: 'HEAD', url: local(pixel!) })).statusCode).toBe(200);
    const before = await db()
      .selectFrom('emails')
      .select(['opened_at', 'clicked_at'])
      .where('lead_uuid', '=', lead.uuid)
      .executeTakeFirstOrThrow();
    expect(before).toEqual({ opened_at: null, clicked_at: null });
    expect(await events('contact_opened_email', lead.uuid)).toHaveLength(0);

    const open = await get(local(pixel!));
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toBe('image/gif');
    expect(open.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    await get(local(pixel!));
    expect(await events('contact_opened_email', lead.uuid)).toHaveLength(1);
    expect((await events('contact_opened_email', lead.uuid))[0]!.payload.email).toMatchObject({
      subject: 'Pricing',
    });
    await h.run(async () => (await enrollment(row.uuid)).flow_node_id === 3, { stepMs: 60_000 });

    const click = await get(local(link!));
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://example.com/pricing?a=1&b=2');
    await get(local(link!));
    expect(await events('contact_clicked_email', lead.uuid)).toHaveLength(1);
    await h.run(async () => (await enrollment(row.uuid)).status === 'finished', { stepMs: 60_000 });
    expect((await delivered(person)).map((m) => m.subject)).toEqual(['Pricing', 'Thanks for looking']);
    const marked = await db()
      .selectFrom('emails')
      .select(['opened_at', 'clicked_at'])
      .where('lead_uuid', '=', lead.uuid)
      .where('subject', '=', 'Pricing')
      .executeTakeFirstOrThrow();
    expect(marked.opened_at).not.toBeNull();
    expect(marked.clicked_at).not.toBeNull();
  }, 120_000);

  it('unsubscribes in one click (RFC 8058): blacklisted address, no more e-mail, one event', async () => {
    const {
      lead,
      person,
      enrollment: row,
    } = await setup(
      [
        {
          id: 1,
          type: 'email_send_message',
          payload: { subject: 'Hello', template: '<p>Hi</p>' },
          next: { 1: 2 },
        },
        {
          id: 2,
          type: 'email_send_message',
          delay_in_seconds: 2 * 86_400,
          payload: { subject: '', template: '<p>Following up</p>' },
          next: { 1: 3 },
        },
        { id: 3, type: 'end' },
      ],
      { email_unsubscribe_link: true },
    );
    await h.run(
      async () =>
        (
          await db()
            .selectFrom('emails')
            .select('status')
            .where('lead_uuid', '=', lead.uuid)
            .executeTakeFirst()
        )?.status === 'sent',
      { stepMs: 60_000 },
    );
    const [message] = await delivered(person);
    // On one line (a folded List-Unsubscribe breaks DKIM at some MTAs).
    const url = message!.raw.match(/^List-Unsubscribe: <([^>\r\n]+)>\r?$/m)?.[1] as string;
    expect(url).toMatch(/^https:\/\/track\.leadflow\.test\/emails\/t\/u\//);
    expect(message!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // The body's own unsubscribe link (sealed separately, so another token for the same e-mail).
    expect(String(message!.html)).toMatch(
      /<a href="https:\/\/track\.leadflow\.test\/emails\/t\/u\/[^"]+">Unsubscribe<\/a>/,
    );
    // No tracking pixel: only unsubscribe was switched on.
    expect(String(message!.html)).not.toContain('/emails/t/o/');

    // The page asks and changes nothing (link scanners follow links).
    const page = await get(local(url));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect(await events('contact_unsubscribed_email', lead.uuid)).toHaveLength(0);

    const post = () =>
      h.ctx.request(null, {
        method: 'POST',
        url: local(url),
        payload: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(200);
    expect(await events('contact_unsubscribed_email', lead.uuid)).toHaveLength(1);
    const contact = await db()
      .selectFrom('leads')
      .select(['email_status', 'is_blacklisted'])
      .where('uuid', '=', lead.uuid)
      .executeTakeFirstOrThrow();
    expect(contact).toEqual({ email_status: 'unsubscribed', is_blacklisted: true });
    const entries = await h.ctx.request(h.user, {
      method: 'GET',
      url: `/leads/api/leads-blacklist?filter[email]=${person.email}`,
    });
    expect(entries.json().total).toBe(1);

    // The address is on the contact blacklist, so the contact is blacklisted: the engine ends its
    // enrollments (e-mail steps planned meanwhile were skipped by the unsubscribe itself).
    await h.run(async () => (await enrollment(row.uuid)).status !== 'in_progress', { maxTicks: 200 });
    expect(
      await db()
        .selectFrom('flow_leads')
        .select(['status', 'reason'])
        .where('uuid', '=', row.uuid)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'canceled', reason: 'blacklisted' });
    const steps = await db()
      .selectFrom('tasks')
      .select('status')
      .where('flow_lead_uuid', '=', row.uuid)
      .where('type', '=', 'email_send_message')
      .execute();
    expect(steps.filter((t) => t.status === 'closed')).toHaveLength(1);
    expect((await delivered(person)).length).toBe(1);
  }, 120_000);
});
