import { type Kysely, sql } from 'kysely';

// API processes cache key lookups and user records. Every change that affects them - a key created or
// revoked, a membership added or removed, a user changed - notifies channel `leadflow_auth` from a
// trigger, so the notification is part of the changing transaction (delivered at its commit, never
// without it) whoever makes the change: the API, `leadflow admin` in another process, or plain SQL.
// The payload names the user (and the key hash, so a cached "unknown key" is dropped too).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function leadflow_notify_auth(user_id bigint, key_hash text) returns void
    language sql volatile as $$
      select pg_notify('leadflow_auth', json_build_object('user_id', user_id, 'key_hash', key_hash)::text)
    $$;

    create function leadflow_api_keys_changed() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then perform leadflow_notify_auth(old.user_id, old.key_hash); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform leadflow_notify_auth(new.user_id, new.key_hash); end if;
      return null;
    end $$;

    create function leadflow_team_members_changed() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then perform leadflow_notify_auth(old.user_id, null); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform leadflow_notify_auth(new.user_id, null); end if;
      return null;
    end $$;

    create function leadflow_users_changed() returns trigger language plpgsql as $$
    begin
      perform leadflow_notify_auth(case when tg_op = 'DELETE' then old.id else new.id end, null);
      return null;
    end $$;

    create trigger api_keys_auth_inserted after insert or delete on api_keys
      for each row execute function leadflow_api_keys_changed();
    -- last_used_at is touched once a minute per key in use; only changes that matter to auth notify.
    create trigger api_keys_auth_updated after update on api_keys
      for each row
      when (old.revoked_at is distinct from new.revoked_at
        or old.user_id is distinct from new.user_id
        or old.key_hash is distinct from new.key_hash)
      execute function leadflow_api_keys_changed();
    create trigger team_members_auth_changed after insert or update or delete on team_members
      for each row execute function leadflow_team_members_changed();
    create trigger users_auth_changed after update or delete on users
      for each row execute function leadflow_users_changed();
  `.execute(db);
}
