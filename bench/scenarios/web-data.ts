// Data for the web benchmark's inbox: LinkedIn conversations and e-mail threads with contacts seeded by
// crm-data.ts's seedLeads (found by their `seed-<n>` LinkedIn handle), written with plain SQL
// (generate_series) in the shape the sync and the mail engine write.
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

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
