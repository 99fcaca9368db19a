import { type Kysely, sql } from 'kysely';

// API processes cache browser sessions like API keys (modules/identity/auth-cache.ts): an ended session
// (sign-out, sign-out everywhere, a password change or reset, or plain SQL) notifies `leadflow_auth` with
// the user and the token hash, in the deleting transaction, so every process drops it at once. Sliding
// the expiry forward (an update) needs no notification.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function leadflow_user_sessions_ended() returns trigger language plpgsql as $$
    begin
      perform leadflow_notify_auth(old.user_id, old.token_hash);
      return null;
    end $$;

    create trigger user_sessions_auth_ended after delete on user_sessions
      for each row execute function leadflow_user_sessions_ended();
  `.execute(db);
}
