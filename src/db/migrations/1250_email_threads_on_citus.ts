import { type Kysely, sql } from 'kysely';

// The email_threads triggers of 1210, in a form Citus runs. On Citus a trigger fires on the worker that
// holds the e-mail's shard. 1210's functions named the team and threads through PL/pgSQL variables, which
// Citus plans as parameters: it could not prune the INSERT ... SELECT from emails to one shard, ran it on
// every shard over new connections inside the shard's own transaction (which cannot see its uncommitted
// e-mails) and a worker crashed at COMMIT PREPARED. Now, as in 0960, the threads are first read with a
// plain SELECT that names the team and thread keys as literals (`format` with %s/%L, so Citus routes it to
// the team's shard, executed locally in the writing transaction), then written from that result; no
// INSERT ... SELECT reads a distributed table inside the trigger. On plain PostgreSQL the result is the
// same (a few statements per write, set-based per team as before).

const refresh = (fn: string, rows: string) => `
  create or replace function ${fn}() returns trigger language plpgsql
  set citus.allow_nested_distributed_execution = on as $$
  declare
    touched jsonb;
    threads jsonb;
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
      execute format(
        'delete from email_threads where team_id = %s and thread_uuid = any(%L::uuid[])', g.team_id, g.keys);
      execute format($q$
        select jsonb_agg(t) from (
          select e.team_id, coalesce(e.thread_uuid, e.uuid) as thread_uuid, e.lead_uuid,
            (array_agg(e.sender_profile_uuid order by coalesce(e.sent_at, e.created_at) desc))[1]
              as sender_profile_uuid,
            (array_agg(e.mailbox_uuid order by coalesce(e.sent_at, e.created_at) desc))[1] as mailbox_uuid,
            (array_agg(e.subject order by coalesce(e.sent_at, e.created_at)))[1] as subject,
            max(coalesce(e.sent_at, e.created_at)) as last_message_at,
            (count(*) filter (where e.type = 'inbox' and e.read_at is null))::int as unread_count
          from emails e
          where e.team_id = %s and e.lead_uuid is not null and e.classification is distinct from 'bounce'
            and (e.thread_uuid = any(%L::uuid[]) or (e.thread_uuid is null and e.uuid = any(%L::uuid[])))
          group by e.team_id, coalesce(e.thread_uuid, e.uuid), e.lead_uuid
        ) t$q$, g.team_id, g.keys, g.keys) into threads;
      if threads is not null then
        insert into email_threads (team_id, thread_uuid, lead_uuid, sender_profile_uuid, mailbox_uuid, subject,
          last_message_at, unread_count)
        select r.team_id, r.thread_uuid, r.lead_uuid, r.sender_profile_uuid, r.mailbox_uuid, r.subject,
          r.last_message_at, r.unread_count
        from jsonb_to_recordset(threads) as r(team_id bigint, thread_uuid uuid, lead_uuid uuid,
          sender_profile_uuid uuid, mailbox_uuid uuid, subject text, last_message_at timestamptz,
          unread_count integer)
        where r.team_id in (select id from teams);
      end if;
    end loop;
    return null;
  end $$;`;

const keysOf = (table: string) => `select team_id, coalesce(thread_uuid, uuid) as k from ${table}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      [
        refresh('leadflow_email_threads_inserted', keysOf('leadflow_new_rows')),
        refresh('leadflow_email_threads_deleted', keysOf('leadflow_old_rows')),
        refresh(
          'leadflow_email_threads_updated',
          `${keysOf('leadflow_new_rows')} union all ${keysOf('leadflow_old_rows')}`,
        ),
      ].join('\n'),
    )
    .execute(db);
}
