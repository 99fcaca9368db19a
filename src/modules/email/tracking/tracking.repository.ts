// SQL of the tracking endpoints (tracking.service.ts): the outgoing e-mail a token names, and its first
// open or click.
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { TrackingClaim } from './tracking-links.js';

/** The sent e-mail (type outbox) a token names, or undefined. */
export async function outgoingEmail(db: Executor, claim: TrackingClaim) {
  return db
    .selectFrom('emails')
    .selectAll()
    .where('team_id', '=', claim.teamId)
    .where('uuid', '=', claim.emailUuid)
    .where('type', '=', 'outbox')
    .executeTakeFirst();
}

/** Sets opened_at or clicked_at (the first one stays) of the e-mail a token names; undefined when none. */
export async function markTracked(db: Executor, claim: TrackingClaim, now: Date) {
  return db
    .updateTable('emails')
    .set(
      claim.kind === 'open'
        ? { opened_at: sql`coalesce(opened_at, ${now})` }
        : { clicked_at: sql`coalesce(clicked_at, ${now})` },
    )
    .where('team_id', '=', claim.teamId)
    .where('uuid', '=', claim.emailUuid)
    .where('type', '=', 'outbox')
    .returningAll()
    .executeTakeFirst();
}
