import { type Kysely, sql } from 'kysely';

// Enrichment: the team's credit ledger (every grant, reservation and refund is a row; the balance on
// `teams.credits_advanced_enrichment` moves in the same transaction and never goes below 0) and the
// enrichment queue (one row per contact or company to read from LinkedIn). See
// src/modules/enrichment/CONTEXT.md.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table teams add constraint teams_credits_advanced_enrichment_nonnegative
      check (credits_advanced_enrichment >= 0) not valid;

    create table credit_ledger (
      team_id bigint not null references teams (id) on delete cascade,
      id bigint generated always as identity,
      delta bigint not null,
      reason text not null check (reason in ('opening_balance', 'grant', 'enrichment_reserve', 'enrichment_refund')),
      reference text,
      balance_after bigint not null,
      created_at timestamptz not null default now(),
      primary key (team_id, id)
    );
    -- A queue entry is refunded at most once.
    create unique index credit_ledger_refund_key on credit_ledger (team_id, reference)
      where reason = 'enrichment_refund';

    -- Balances held before the ledger existed, so the ledger sums to the balance.
    insert into credit_ledger (team_id, delta, reason, reference, balance_after)
    select id, credits_advanced_enrichment, 'opening_balance', null, credits_advanced_enrichment
    from teams where credits_advanced_enrichment <> 0;

    create table enrichment_queue (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      object text not null check (object in ('lead', 'company')),
      object_uuid uuid not null,
      status text not null default 'pending' check (status in ('pending', 'processing', 'done', 'failed')),
      error text,
      refresh boolean not null default false,
      source text not null check (source in ('api', 'flow')),
      request_uuid uuid not null,
      sender_profile_uuid uuid,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      claimed_at timestamptz,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      primary key (team_id, uuid)
    );
    -- A record is in the queue at most once while it waits or is being read.
    create unique index enrichment_queue_open_key on enrichment_queue (team_id, object, object_uuid)
      where status in ('pending', 'processing');
    -- What workers claim: due pending entries (and processing ones whose worker died).
    create index enrichment_queue_pending_idx on enrichment_queue (team_id, next_attempt_at)
      where status in ('pending', 'processing');
    -- The list (newest first) and the month's count.
    create index enrichment_queue_team_created_idx on enrichment_queue (team_id, created_at, uuid);
    -- The list's filters: object_uuid (also gs_enqueue_for_enrichment outdated_only: the record's last
    -- finished enrichment), status, object.
    create index enrichment_queue_team_object_uuid_idx on enrichment_queue (team_id, object_uuid, finished_at);
    create index enrichment_queue_team_status_idx on enrichment_queue (team_id, status, created_at, uuid);
    create index enrichment_queue_team_object_idx on enrichment_queue (team_id, object, created_at, uuid);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table enrichment_queue;
    drop table credit_ledger;
    alter table teams drop constraint teams_credits_advanced_enrichment_nonnegative;
  `.execute(db);
}
