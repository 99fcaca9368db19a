import { type Kysely, sql } from 'kysely';

// The inbox's e-mail threads as rows (GET /leads/api/inbox): one per thread and contact - the thread is
// coalesce(thread_uuid, uuid) of its e-mails, bounce reports left out - with its latest sender and
// mailbox, first subject, latest message time and unread count. The inbox used to aggregate every e-mail
// of the team per request (about 0.5 s at 70,000 e-mails on the loaded 2-core machine, growing with the
// mailbox); it now reads these rows.
//
// Statement triggers on emails keep them: the threads a statement touched are recomputed from their
// e-mails (set-based: one delete and one insert per team and statement), whatever column changed, so
// every writer (sending, sync, mark read, deletion, contact deletion) stays right without knowing. A
// transaction lock per team and thread bucket serialises two writers of one thread, so the second
// recomputes after the first commits and sees its e-mails. As in 0960, each function first folds its
// transition table with a plain local query and then writes with statements naming one team (Citus
// routes them to that team's shard group).

const refresh = (fn: string, rows: string) => `
  create or replace function ${fn}() returns trigger language plpgsql
  set citus.allow_nested_distributed_execution = on as $$
  declare
    touched jsonb;
    g record;
  begin
    select jsonb_agg(t) into touched from (
      select team_id, array_agg(distinct k) as keys,
        array_agg(distinct abs(hashtext(k::text)) % 256 order by abs(hashtext(k::text)) % 256) as buckets
      from (${rows}) c group by team_id
    ) t;
    if touched is null then return null; end if;
    for g in select * from jsonb_to_recordset(touched) as r(team_id bigint, keys uuid[], buckets int[]) loop
      perform pg_advisory_xact_lock(g.team_id::int, 1210 * 1000 + b) from unnest(g.buckets) b;
      delete from email_threads where team_id = g.team_id and thread_uuid = any(g.keys);
      insert into email_threads (team_id, thread_uuid, lead_uuid, sender_profile_uuid, mailbox_uuid, subject,
        last_message_at, unread_count)
      select e.team_id, coalesce(e.thread_uuid, e.uuid), e.lead_uuid,
        (array_agg(e.sender_profile_uuid order by coalesce(e.sent_at, e.created_at) desc))[1],
        (array_agg(e.mailbox_uuid order by coalesce(e.sent_at, e.created_at) desc))[1],
        (array_agg(e.subject order by coalesce(e.sent_at, e.created_at)))[1],
        max(coalesce(e.sent_at, e.created_at)),
        (count(*) filter (where e.type = 'inbox' and e.read_at is null))::int
      from emails e
      where e.team_id = g.team_id and e.lead_uuid is not null and e.classification is distinct from 'bounce'
        and (e.thread_uuid = any(g.keys) or (e.thread_uuid is null and e.uuid = any(g.keys)))
        and exists (select 1 from teams t where t.id = g.team_id)
      group by e.team_id, coalesce(e.thread_uuid, e.uuid), e.lead_uuid;
    end loop;
    return null;
  end $$;`;

const keysOf = (table: string) => `select team_id, coalesce(thread_uuid, uuid) as k from ${table}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_threads (
      team_id bigint not null references teams (id) on delete cascade,
      thread_uuid uuid not null,
      lead_uuid uuid not null,
      sender_profile_uuid uuid,
      mailbox_uuid uuid,
      subject text,
      last_message_at timestamptz,
      unread_count integer not null default 0,
      primary key (team_id, thread_uuid, lead_uuid)
    );
    create index email_threads_team_inbox_idx
      on email_threads (team_id, (unread_count > 0) desc, last_message_at desc nulls last, thread_uuid);
    create index email_threads_team_sender_idx on email_threads (team_id, sender_profile_uuid);
    create index email_threads_team_lead_idx on email_threads (team_id, lead_uuid);
    -- The inbox's order on LinkedIn conversations too, so its page merges two index scans.
    create index linkedin_conversations_team_inbox_idx
      on linkedin_conversations (team_id, (unread_count > 0) desc, last_activity_at desc nulls last, uuid);

    insert into email_threads (team_id, thread_uuid, lead_uuid, sender_profile_uuid, mailbox_uuid, subject,
      last_message_at, unread_count)
    select e.team_id, coalesce(e.thread_uuid, e.uuid), e.lead_uuid,
      (array_agg(e.sender_profile_uuid order by coalesce(e.sent_at, e.created_at) desc))[1],
      (array_agg(e.mailbox_uuid order by coalesce(e.sent_at, e.created_at) desc))[1],
      (array_agg(e.subject order by coalesce(e.sent_at, e.created_at)))[1],
      max(coalesce(e.sent_at, e.created_at)),
      (count(*) filter (where e.type = 'inbox' and e.read_at is null))::int
    from emails e
    where e.lead_uuid is not null and e.classification is distinct from 'bounce'
    group by e.team_id, coalesce(e.thread_uuid, e.uuid), e.lead_uuid;
  `.execute(db);
  await sql
    .raw(
      [
        refresh('leadflow_email_threads_inserted', keysOf('leadflow_new_rows')),
        refresh('leadflow_email_threads_deleted', keysOf('leadflow_old_rows')),
        refresh(
          'leadflow_email_threads_updated',
          `${keysOf('leadflow_new_rows')} union all ${keysOf('leadflow_old_rows')}`,
        ),
        `create trigger emails_threads_inserted after insert on emails
           referencing new table as leadflow_new_rows
           for each statement execute function leadflow_email_threads_inserted();
         create trigger emails_threads_deleted after delete on emails
           referencing old table as leadflow_old_rows
           for each statement execute function leadflow_email_threads_deleted();
         create trigger emails_threads_updated after update on emails
           referencing old table as leadflow_old_rows new table as leadflow_new_rows
           for each statement execute function leadflow_email_threads_updated();`,
      ].join('\n'),
    )
    .execute(db);
}
