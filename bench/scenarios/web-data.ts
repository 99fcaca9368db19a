// Data for the web benchmark: contacts (crm-data.ts's seedLeads), LinkedIn conversations and e-mail threads
// with them (found by their `seed-<n>` LinkedIn handle), written with plain SQL (generate_series) in the
// shape the sync and the mail engine write; seedWebData fills the database `npm run bench -- web` keeps.
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/lib/ids.js';
import { defaultSchedule } from '../../src/lib/schedule.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import type { BenchDatabase } from '../lib.js';
import { seedLeads } from './crm-data.js';

/**
 * `conversations` LinkedIn conversations (two messages each, every 10th unread) with the seeded contacts
 * numbered from `firstLead`, alternating between the given senders.
 */
export async function seedLinkedinConversations(
  db: Database,
  o: { teamId: number; senders: string[]; firstLead: number; conversations: number },
): Promise<void> {
  await sql`
    with l as (
      select le.uuid, g.n from generate_series(0, ${o.conversations - 1}::int) g(n)
      join leads le on le.team_id = ${o.teamId} and le.linkedin = 'seed-' || (${o.firstLead}::int + g.n)
    )
    insert into linkedin_conversations (team_id, uuid, sender_profile_uuid, lead_uuid, unread_count,
      last_activity_at)
    select ${o.teamId}, md5('li' || n)::uuid, (${o.senders}::uuid[])[1 + n % ${o.senders.length}::int], uuid,
      case when n % 10 = 0 then 1 else 0 end, now() - make_interval(mins => n::int)
    from l`.execute(db);
  await sql`
    insert into linkedin_messages (team_id, uuid, sender_profile_uuid, linkedin_conversation_uuid, lead_uuid,
      type, automation, linkedin_type, status, text, sent_at, read_at)
    select c.team_id, leadflow_uuid_v7(), c.sender_profile_uuid, c.uuid, c.lead_uuid, m.type, 'synced',
      'message', 'done', m.text, c.last_activity_at - m.back,
      case when m.type = 'inbox' and c.unread_count = 0 then c.last_activity_at end
    from linkedin_conversations c
    cross join (values ('outbox', 'Hello, glad to connect!', interval '1 hour'),
                       ('inbox', 'Thanks - tell me more.', interval '0')) m(type, text, back)
    where c.team_id = ${o.teamId} and c.uuid in (
      select md5('li' || n)::uuid from generate_series(0, ${o.conversations - 1}::int) n)`.execute(db);
}

/**
 * `threads` e-mail threads of `perThread` messages (outbox first, then alternating replies; the last
 * reply of every 10th thread unread) with contacts numbered from `firstLead`, in `batch`-thread
 * statements so a million e-mails do not make one huge transaction.
 */
export async function seedEmailThreads(
  db: Database,
  o: {
    teamId: number;
    senders: string[];
    mailboxes: string[];
    firstLead: number;
    threads: number;
    perThread: number;
    /** Numbers the threads apart from earlier calls. */
    key: string;
    onBatch?: (done: number) => void;
  },
): Promise<void> {
  const batch = Math.max(1, Math.floor(100_000 / o.perThread));
  for (let from = 0; from < o.threads; from += batch) {
    const count = Math.min(batch, o.threads - from);
    await sql`
      with l as (
        select le.uuid, g.t from generate_series(${from}::int, ${from + count - 1}::int) g(t)
        join leads le on le.team_id = ${o.teamId} and le.linkedin = 'seed-' || (${o.firstLead}::int + g.t)
      )
      insert into emails (team_id, uuid, sender_profile_uuid, mailbox_uuid, lead_uuid, type, status,
        classification, from_email, to_email, subject, message_id, thread_uuid, sent_at, read_at)
      select ${o.teamId}, leadflow_uuid_v7(), (${o.senders}::uuid[])[1 + t % ${o.senders.length}::int],
        (${o.mailboxes}::uuid[])[1 + t % ${o.mailboxes.length}::int], l.uuid,
        case when m % 2 = 0 then 'outbox' else 'inbox' end, 'sent',
        case when m % 2 = 1 then 'reply' end, 'me@bench.test', 'lead' || t || '@bench.test',
        case when m = 0 then 'Intro ' || t else 'Re: Intro ' || t end,
        '<' || ${o.key}::text || '.' || t || '.' || m || '@bench.test>', md5(${o.key}::text || t)::uuid,
        at, case when m % 2 = 1 and not (t % 10 = 0 and m = ${o.perThread - 1}::int) then at end
      from l cross join generate_series(0, ${o.perThread - 1}::int) m
      cross join lateral (select now() - make_interval(mins => (t * 7 + ${o.perThread}::int - m)::int) as at) a`.execute(
      db,
    );
    o.onBatch?.(from + count);
  }
  await sql`analyze emails`.execute(db);
  await sql`analyze linkedin_conversations`.execute(db);
}

export const WEB_OWNER = 'web@example.test';
const SENDER_NAMES = ['Sender 1', 'Sender 2'];

/** Two sender profiles of the owner in the team. */
async function seedSenders(db: Database, teamId: number, ownerId: number): Promise<string[]> {
  const rows = await db
    .insertInto('sender_profiles')
    .values(
      SENDER_NAMES.map((first_name) => ({
        team_id: teamId,
        uuid: newId(),
        first_name,
        schedule: JSON.stringify(defaultSchedule()),
        assignee_user_id: ownerId,
      })),
    )
    .returning('uuid')
    .execute();
  return rows.map((r) => r.uuid);
}

/** `count` contacts in the team (crm-data's seedLeads, 100,000 per statement), then vacuum analyze. */
async function seedTeamLeads(db: Database, teamId: number, count: number, log: (line: string) => void) {
  const uuidOf = async (query: RawBuilder<{ uuid: string }>) => (await query.execute(db)).rows[0]!.uuid;
  const list = (name: string) =>
    uuidOf(
      sql`insert into lists (team_id, uuid, name) values (${teamId}, ${newId()}, ${name}) returning uuid`,
    );
  const options = {
    teamId,
    mainList: await list('Main'),
    rareList: await list('Rare'),
    stage: await selectInitialStageUuid(db, teamId, 'lead'),
    tenthTag: await uuidOf(
      sql`insert into tags (team_id, uuid, name) values (${teamId}, ${newId()}, 'Every tenth') returning uuid`,
    ),
  };
  for (let start = 0; start < count; start += 100_000) {
    const n = Math.min(100_000, count - start);
    await seedLeads(db, { ...options, start, count: n });
    log(`  seeded ${(start + n).toLocaleString('en-US')} contacts`);
  }
  await sql`vacuum analyze leads`.execute(db);
}

/**
 * The web benchmark's data: team "Web" of the owner with `contacts` contacts, two senders, 5,000 LinkedIn
 * conversations and 5,000 e-mail threads of 4 messages (10,000 conversations); with `emails` > 0 a second
 * team "Mailbox" of the same owner whose inbox holds `emails` e-mails in threads of 10 (one contact each).
 */
export async function seedWebData(
  deps: BenchDatabase,
  o: { contacts: number; emails: number },
  log: (line: string) => void,
): Promise<void> {
  const { db } = deps.handle;
  const owner = await deps.services.identity.createUserWithTeam({ email: WEB_OWNER, teamName: 'Web' });
  await seedTeamLeads(db, owner.team_id, o.contacts, log);
  const senders = await seedSenders(db, owner.team_id, owner.user_id);
  const mailboxes = [newId(), newId()];
  await seedLinkedinConversations(db, { teamId: owner.team_id, senders, firstLead: 0, conversations: 5_000 });
  const small = { teamId: owner.team_id, senders, mailboxes, firstLead: 5_000, threads: 5_000 };
  await seedEmailThreads(db, { ...small, perThread: 4, key: 'small' });
  log('  seeded the inbox: 5,000 LinkedIn conversations, 5,000 e-mail threads (20,000 e-mails)');
  const threads = Math.floor(o.emails / 10);
  if (threads === 0) return;
  const mailbox = await deps.services.identity.createUserWithTeam({
    email: WEB_OWNER,
    teamName: 'Mailbox',
    existingUser: true,
  });
  await seedTeamLeads(db, mailbox.team_id, threads, log);
  await seedEmailThreads(db, {
    teamId: mailbox.team_id,
    senders: await seedSenders(db, mailbox.team_id, owner.user_id),
    mailboxes,
    firstLead: 0,
    threads,
    perThread: 10,
    key: 'big',
    onBatch: (done) => log(`  seeded ${(done * 10).toLocaleString('en-US')} e-mails in team Mailbox`),
  });
}

export type WebTeam = { teamId: number; senders: string[] };

/** The owner, and team "Web" and (when seeded) team "Mailbox" with their senders, of a seeded database. */
export async function findWebData(db: Database) {
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', WEB_OWNER)
    .executeTakeFirstOrThrow();
  const team = async (name: string): Promise<WebTeam | undefined> => {
    const row = await db.selectFrom('teams').select('id').where('name', '=', name).executeTakeFirst();
    if (!row) return undefined;
    const senders = await db
      .selectFrom('sender_profiles')
      .select('uuid')
      .where('team_id', '=', row.id)
      .orderBy('first_name')
      .execute();
    return { teamId: row.id, senders: senders.map((s) => s.uuid) };
  };
  return { ownerId: owner.id, web: (await team('Web'))!, mailbox: await team('Mailbox') };
}
