import { type Kysely, sql } from 'kysely';

// Rotating a webhook's signing secret: the previous secret keeps signing deliveries (next to the new
// one, as Standard Webhooks allows) until it expires, so receivers can switch without losing any.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhooks add column previous_secret text, add column previous_secret_expires_at timestamptz;
  `.execute(db);
}
