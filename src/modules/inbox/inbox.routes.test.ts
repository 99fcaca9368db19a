// GET /leads/api/inbox: LinkedIn conversations and e-mail threads in one list, unread first then the
// latest, with each one's last message; filters by channel, sender, contact and unread; team scope;
// bounce reports are no conversation; the query is closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList, makeSenderProfile } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const ids = {} as Record<
  'sam' | 'kim' | 'ada' | 'alan' | 'grace' | 'adaConv' | 'graceConv' | 'thread',
  string
>;

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
  const team = alice.teamId;
  const db = ctx.db;
  ids.sam = (await makeSenderProfile(db, team, { first_name: 'Sam' })).uuid;
  ids.kim = (await makeSenderProfile(db, team, { first_name: 'Kim' })).uuid;
  const list = await makeList(db, team);
  const [ada, alan, grace] = await makeLeads(db, team, list.uuid, [
    { first_name: 'Ada' },
    { first_name: 'Alan' },
    { first_name: 'Grace' },
  ]);
  ids.ada = ada!.uuid;
  ids.alan = alan!.uuid;
  ids.grace = grace!.uuid;
  ids.adaConv = newId();
  ids.graceConv = newId();
  ids.thread = newId();
  // Ada wrote to Sam on LinkedIn an hour ago (unread); Grace and Kim talked a minute ago (read).
  await db
    .insertInto('linkedin_conversations')
    .values([
      {
        team_id: team,
        uuid: ids.adaConv,
        sender_profile_uuid: ids.sam,
        lead_uuid: ids.ada,
        unread_count: 1,
        last_activity_at: minutesAgo(60),
      },
      {
        team_id: team,
        uuid: ids.graceConv,
        sender_profile_uuid: ids.kim,
        lead_uuid: ids.grace,
        unread_count: 0,
        last_activity_at: minutesAgo(1),
      },
    ])
    .execute();
  const message = (
    conv: string,
    lead: string,
    sender: string,
    type: 'inbox' | 'outbox',
    text: string,
    at: Date,
  ) => ({
    team_id: team,
    uuid: newId(),
    sender_profile_uuid: sender,
    linkedin_conversation_uuid: conv,
    lead_uuid: lead,
    type,
    automation: 'synced' as const,
    linkedin_type: 'message',
    status: 'done' as const,
    text,
    sent_at: at,
  });
  await db
    .insertInto('linkedin_messages')
    .values([
      message(ids.adaConv, ids.ada, ids.sam, 'outbox', 'Hello Ada', minutesAgo(120)),
      message(ids.adaConv, ids.ada, ids.sam, 'inbox', 'Happy to talk', minutesAgo(60)),
      message(ids.graceConv, ids.grace, ids.kim, 'outbox', 'See you then', minutesAgo(1)),
    ])
    .execute();
  // Alan answered Sam's e-mail 30 minutes ago (unread); a bounce report of the same thread is no message.
  const body = newId();
  await db
    .insertInto('email_bodies')
    .values({
      team_id: team,
      uuid: body,
      subject: 'Re: Intro',
      text_body: 'Sounds good, call me',
      body: '<p>x</p>',
    })
    .execute();
  const email = (type: 'inbox' | 'outbox', at: Date, more: Record<string, unknown> = {}) => ({
    team_id: team,
    uuid: newId(),
    sender_profile_uuid: ids.sam,
    mailbox_uuid: newId(),
    lead_uuid: ids.alan,
    type,
    status: 'sent' as const,
    subject: type === 'outbox' ? 'Intro' : 'Re: Intro',
    message_id: `<${newId()}@example.test>`,
    thread_uuid: ids.thread,
    sent_at: at,
    ...more,
  });
  await db
    .insertInto('emails')
    .values([
      email('outbox', minutesAgo(90)),
      email('inbox', minutesAgo(30), { email_body_uuid: body }),
      email('inbox', minutesAgo(5), { classification: 'bounce' }),
    ])
    .execute();
});
afterAll(() => ctx.close());

async function inbox(user: TestUser, query = '') {
  const res = await ctx.request(user, { method: 'GET', url: `/leads/api/inbox${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    total: number;
    has_more: boolean;
    data: { channel: string; uuid: string; lead_uuid: string; unread_count: number; [k: string]: unknown }[];
  };
}

describe('GET /leads/api/inbox', () => {
  it('lists conversations of both channels, unread first then the latest, with their last message', async () => {
    const page = await inbox(alice);
    expect(page.total).toBe(3);
    expect(page.data.map((c) => [c.channel, c.lead_uuid, c.unread_count])).toEqual([
      ['email', ids.alan, 1],
      ['linkedin', ids.ada, 1],
      ['linkedin', ids.grace, 0],
    ]);
    expect(page.data[0]).toMatchObject({
      uuid: ids.thread,
      sender_profile_uuid: ids.sam,
      subject: 'Intro',
      last_message: { direction: 'inbox', snippet: 'Sounds good, call me' },
    });
    expect(page.data[1]).toMatchObject({
      uuid: ids.adaConv,
      subject: null,
      last_message: { direction: 'inbox', snippet: 'Happy to talk' },
    });
    expect(page.data[2]?.last_message).toMatchObject({ direction: 'outbox', snippet: 'See you then' });
  });

  it('filters by channel, sender profile, contact and unread, and pages', async () => {
    expect((await inbox(alice, '?channel=email')).data.map((c) => c.lead_uuid)).toEqual([ids.alan]);
    expect((await inbox(alice, `?sender_profile_uuid=${ids.kim}`)).data.map((c) => c.lead_uuid)).toEqual([
      ids.grace,
    ]);
    const both = await inbox(alice, `?sender_profile_uuid=${ids.kim}&sender_profile_uuid=${ids.sam}`);
    expect(both.total).toBe(3);
    expect((await inbox(alice, `?lead_uuid=${ids.ada}`)).data.map((c) => c.uuid)).toEqual([ids.adaConv]);
    expect((await inbox(alice, '?unread=true')).data.map((c) => c.lead_uuid)).toEqual([ids.alan, ids.ada]);
    expect((await inbox(alice, '?unread=false')).data.map((c) => c.lead_uuid)).toEqual([ids.grace]);
    const second = await inbox(alice, '?limit=2&offset=2');
    expect(second).toMatchObject({ total: 3, has_more: false });
    expect(second.data.map((c) => c.lead_uuid)).toEqual([ids.grace]);
    expect(await inbox(alice, '?limit=1&offset=5')).toMatchObject({ total: 3, data: [] });
  });

  it('marking the contact read moves the conversation below the unread ones', async () => {
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/leads/mass-action',
      payload: { type: 'contact_mark_read', filter: { ids: [ids.alan] } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await inbox(alice);
    expect(page.data.map((c) => [c.lead_uuid, c.unread_count])).toEqual([
      [ids.ada, 1],
      [ids.grace, 0],
      [ids.alan, 0],
    ]);
  });

  it('shows another team nothing and refuses unknown parameters', async () => {
    expect(await inbox(bob)).toMatchObject({ total: 0, data: [] });
    const unknown = await ctx.request(alice, { method: 'GET', url: '/leads/api/inbox?folder=x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('folder');
    const bad = await ctx.request(alice, { method: 'GET', url: '/leads/api/inbox?channel=fax' });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.body).toContain('channel');
  });
});

describe('PUT /leads/api/inbox/read', () => {
  const setRead = (user: TestUser, payload: Record<string, unknown>) =>
    ctx.request(user, { method: 'PUT', url: '/leads/api/inbox/read', payload });

  it('marks one conversation unread again and read, leaving the contact’s other conversations', async () => {
    // Alan's thread was read above: unread again is its latest e-mail from Alan (not the bounce report).
    const unread = await setRead(alice, {
      channel: 'email',
      uuid: ids.thread,
      lead_uuid: ids.alan,
      read: false,
    });
    expect(unread.statusCode, unread.body).toBe(200);
    expect(unread.json()).toMatchObject({ channel: 'email', uuid: ids.thread, unread_count: 1 });
    expect((await inbox(alice, '?unread=true')).data.map((c) => c.lead_uuid)).toEqual([ids.alan, ids.ada]);

    const read = await setRead(alice, {
      channel: 'linkedin',
      uuid: ids.adaConv,
      lead_uuid: ids.ada,
      read: true,
    });
    expect(read.json()).toMatchObject({ unread_count: 0 });
    const messages = await ctx.db
      .selectFrom('linkedin_messages')
      .select('read_at')
      .where('linkedin_conversation_uuid', '=', ids.adaConv)
      .where('type', '=', 'inbox')
      .execute();
    expect(messages.every((m) => m.read_at !== null)).toBe(true);
    expect((await inbox(alice, '?unread=true')).data.map((c) => c.lead_uuid)).toEqual([ids.alan]);

    const again = await setRead(alice, {
      channel: 'linkedin',
      uuid: ids.adaConv,
      lead_uuid: ids.ada,
      read: false,
    });
    expect(again.json()).toMatchObject({ unread_count: 1 });
    const mailRead = await setRead(alice, {
      channel: 'email',
      uuid: ids.thread,
      lead_uuid: ids.alan,
      read: true,
    });
    expect(mailRead.json()).toMatchObject({ unread_count: 0 });
  });

  it('refuses a conversation the contact never wrote in (409), another team’s (404) and bad bodies (4xx)', async () => {
    const nothing = await setRead(alice, {
      channel: 'linkedin',
      uuid: ids.graceConv,
      lead_uuid: ids.grace,
      read: false,
    });
    expect(nothing.statusCode).toBe(409);
    const foreign = await setRead(bob, {
      channel: 'linkedin',
      uuid: ids.adaConv,
      lead_uuid: ids.ada,
      read: true,
    });
    expect(foreign.statusCode).toBe(404);
    const wrongContact = await setRead(alice, {
      channel: 'email',
      uuid: ids.thread,
      lead_uuid: ids.ada,
      read: true,
    });
    expect(wrongContact.statusCode).toBe(404);
    const bad = await setRead(alice, { channel: 'fax', uuid: ids.thread, lead_uuid: ids.alan, read: true });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('channel');
  });
});
