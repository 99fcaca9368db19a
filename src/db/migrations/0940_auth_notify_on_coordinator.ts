import { type Kysely, sql } from 'kysely';

// On Citus, users, team_members and api_keys are reference tables: a copy on every node, each with the
// triggers of 0420. API processes listen on the coordinator, and a worker writes its copy inside a
// prepared (two-phase) transaction, where PostgreSQL refuses NOTIFY - so only the coordinator's copy
// notifies. On plain PostgreSQL there is only one copy and nothing changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function leadflow_notify_auth(user_id bigint, key_hash text) returns void
    language plpgsql volatile as $$
    declare
      on_coordinator boolean := true;
    begin
      if exists (select 1 from pg_extension where extname = 'citus') then
        execute 'select citus_is_coordinator()' into on_coordinator;
      end if;
      if on_coordinator then
        perform pg_notify('leadflow_auth', json_build_object('user_id', user_id, 'key_hash', key_hash)::text);
      end if;
    end $$;
  `.execute(db);
}
