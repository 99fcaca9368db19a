import { type Kysely, sql } from 'kysely';

// The names of the files the sandbox network received with a message or InMail (in the order sent),
// as a real conversation shows them; null when the action carried none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sandbox_linkedin_actions add column attachment_names text[]`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sandbox_linkedin_actions drop column attachment_names`.execute(db);
}
