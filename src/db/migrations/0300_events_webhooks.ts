import { type Kysely, sql } from 'kysely';

// The domain event outbox and webhooks. An event row is written in the transaction of the change it
// reports, with a snapshot of the objects involved (contact, company...) taken at that moment. Events
// that a webhook subscribes to carry a fan-out batch id; a background job turns each batch into one
// delivery per matching webhook, and each delivery is attempted by its own job until it succeeds or
// its retry schedule runs out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Percent-encodes a URL path segment the way JavaScript's encodeURIComponent does for the
    -- characters LinkedIn nicknames and company slugs use (letters of any script, digits, - _ . &).
    create or replace function leadflow_url_encode(value text) returns text
    language sql immutable strict parallel safe as $$
      select coalesce(string_agg(
        case when ch ~ '^[A-Za-z0-9_.!~*''()-]$' then ch
        else regexp_replace(upper(encode(convert_to(ch, 'UTF8'), 'hex')), '(..)', '%\\1', 'g') end,
        '' order by ord), '')
      from regexp_split_to_table(value, '') with ordinality as t(ch, ord)
    $$;

    create table events (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      name text not null,
      -- The contact the event is about (kept after the contact is deleted: the event is history).
      lead_uuid uuid,
      -- contact, account, sender_profile, automation and the per-event objects, as delivered. json, not
      -- jsonb: it is written once per event (a million at a time for exports) and read whole, and json
      -- keeps the key order receivers see.
      payload json not null,
      occurred_at timestamptz not null default now(),
      -- Set when a webhook subscribed to the event at the time it was recorded; the fan-out job
      -- walks one batch at a time.
      fanout_batch uuid,
      primary key (team_id, uuid)
    );
    create index events_team_fanout_idx on events (team_id, fanout_batch, uuid) where fanout_batch is not null;

    create table webhooks (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text not null,
      event text not null,
      request_method text not null default 'POST'
        check (request_method in ('POST', 'GET', 'PUT', 'PATCH', 'DELETE')),
      target_url text not null,
      filters jsonb,
      status text not null default 'on' check (status in ('on', 'off')),
      -- Standard Webhooks signing secret (whsec_...); needed in clear to sign, never shown after create.
      secret text not null,
      disabled_reason text,
      last_error text,
      last_error_at timestamptz,
      last_success_at timestamptz,
      -- First failure since the last success; a webhook failing for too long is switched off.
      failing_since timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index webhooks_team_created_idx on webhooks (team_id, created_at, uuid);
    create index webhooks_team_event_on_idx on webhooks (team_id, event) where status = 'on';

    create table webhook_deliveries (
      team_id bigint not null,
      uuid uuid not null,
      webhook_uuid uuid not null,
      event_uuid uuid not null,
      status text not null default 'pending'
        check (status in ('pending', 'retrying', 'succeeded', 'failed', 'canceled')),
      -- Attempts made so far; the next attempt's job carries attempt + 1 and only it may record.
      attempt integer not null default 0,
      status_code integer,
      duration_ms integer,
      error text,
      last_attempt_at timestamptz,
      next_retry_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid),
      -- One delivery per event and webhook, so a repeated fan-out cannot deliver twice.
      unique (team_id, webhook_uuid, event_uuid),
      foreign key (team_id, webhook_uuid) references webhooks (team_id, uuid) on delete cascade,
      foreign key (team_id, event_uuid) references events (team_id, uuid) on delete cascade
    );
    create index webhook_deliveries_team_webhook_created_idx
      on webhook_deliveries (team_id, webhook_uuid, created_at, uuid);
  `.execute(db);
}
