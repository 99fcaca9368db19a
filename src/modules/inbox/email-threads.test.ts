// email_threads (migration 1210) follows every write to emails: after inserts, read marks, a bounce, a
// contact change, deletions and two concurrent writers of one thread, its rows equal the aggregate of the
// e-mails computed from scratch.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList, makeSenderProfile } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

let ctx: TestContext;
let user: TestUser;
let sender: string;
let leads: string[];
const mailbox = newId();

beforeAll(async () => {
  ctx = await createTestContext();
  user = await ctx.createUser('Threads');
  sender = (await makeSenderProfile(ctx.db, user.teamId, { first_name: 'Sam' })).uuid;
  const list = await makeList(ctx.db, user.teamId);
  leads = (await makeLeads(ctx.db, user.teamId, list.uuid, [{ first_name: 'A' }, { first_name: 'B' }])).map(
    (l) => l.uuid,
  );
});
afterAll(() => ctx?.close());

const email = (thread: string | null, lead: string | null, type: 'inbox' | 'outbox', minutesAgo: number) => ({
  team_id: user.teamId,
  uuid: newId(),
  sender_profile_uuid: sender,
  mailbox_uuid: mailbox,
  lead_uuid: lead,
  type,
  status: 'sent' as const,
  subject: `${type} ${minutesAgo}`,
  message_id: `<${newId()}@example.test>`,
  thread_uuid: thread,
  sent_at: new Date(Date.now() - minutesAgo * 60_000),
});

const kept = () =>
  sql<Record<string, unknown>>`
    select thread_uuid, lead_uuid, sender_profile_uuid, mailbox_uuid, subject, last_message_at, unread_count
    from email_threads where team_id = ${user.teamId} order by thread_uuid, lead_uuid`
    .execute(ctx.db)
    .then((r) => r.rows);
const fromScratch = () =>
  sql<Record<string, unknown>>`
    select coalesce(e.thread_uuid, e.uuid) as thread_uuid, e.lead_uuid,
      (array_agg(e.sender_profile_uuid order by coalesce(e.sent_at, e.created_at) desc))[1] as sender_profile_uuid,
      (array_agg(e.mailbox_uuid order by coalesce(e.sent_at, e.created_at) desc))[1] as mailbox_uuid,
      (array_agg(e.subject order by coalesce(e.sent_at, e.created_at)))[1] as subject,
      max(coalesce(e.sent_at, e.created_at)) as last_message_at,
      (count(*) filter (where e.type = 'inbox' and e.read_at is null))::int as unread_count
    from emails e
    where e.team_id = ${user.teamId} and e.lead_uuid is not null and e.classification is distinct from 'bounce'
    group by 1, 2 order by 1, 2`
    .execute(ctx.db)
    .then((r) => r.rows);

describe('email_threads', () => {
  it('follows inserts, read marks, bounces, contact changes and deletions', async () => {
    const thread = newId();
    const rows = [
      email(thread, leads[0]!, 'outbox', 60),
      email(thread, leads[0]!, 'inbox', 30),
      email(thread, leads[0]!, 'inbox', 10),
      email(null, leads[1]!, 'outbox', 5),
    ];
    await ctx.db.insertInto('emails').values(rows).execute();
    const after = await kept();
    expect(after).toHaveLength(2);
    expect(after.find((r) => r.thread_uuid === thread)).toMatchObject({
      unread_count: 2,
      subject: 'outbox 60',
    });
    expect(after).toEqual(await fromScratch());

    await ctx.db
      .updateTable('emails')
      .set({ read_at: new Date() })
      .where('uuid', '=', rows[1]!.uuid)
      .execute();
    await ctx.db
      .updateTable('emails')
      .set({ classification: 'bounce' })
      .where('uuid', '=', rows[2]!.uuid)
      .execute();
    expect((await kept()).find((r) => r.thread_uuid === thread)).toMatchObject({ unread_count: 0 });
    await ctx.db
      .updateTable('emails')
      .set({ lead_uuid: leads[1]! })
      .where('uuid', '=', rows[0]!.uuid)
      .execute();
    expect(await kept()).toEqual(await fromScratch());
    expect((await kept()).filter((r) => r.thread_uuid === thread)).toHaveLength(2);

    await ctx.db.deleteFrom('emails').where('thread_uuid', '=', thread).execute();
    expect(await kept()).toEqual(await fromScratch());
    expect((await kept()).some((r) => r.thread_uuid === thread)).toBe(false);
  });

  it('counts both of two transactions writing one thread at once', async () => {
    const thread = newId();
    await ctx.db
      .insertInto('emails')
      .values(email(thread, leads[0]!, 'outbox', 100))
      .execute();
    let releaseFirst!: () => void;
    const firstWrote = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let finishFirst!: () => void;
    const hold = new Promise<void>((resolve) => {
      finishFirst = resolve;
    });
    const first = ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('emails')
        .values(email(thread, leads[0]!, 'inbox', 50))
        .execute();
      releaseFirst();
      await hold;
    });
    await firstWrote;
    // The second writer waits for the first one's lock, then recomputes with both replies.
    const second = ctx.db
      .insertInto('emails')
      .values(email(thread, leads[0]!, 'inbox', 40))
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 200));
    finishFirst();
    await Promise.all([first, second]);
    expect((await kept()).find((r) => r.thread_uuid === thread)).toMatchObject({ unread_count: 2 });
    expect(await kept()).toEqual(await fromScratch());
  });
});
