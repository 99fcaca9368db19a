// A sender's LinkedIn read budget, kept in the database so enrichment and data sources of every process
// share it: one claim per read, `...IntervalMs` apart (times a random factor in [0.5, 1.5)), at most
// `...PerDay` per UTC day (0: no daily cap). A claim is one statement, so two processes can never both
// take the same slot. See CONTEXT.md, "Reading LinkedIn".
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ReadPace } from './reader.js';

export type ReadKind = 'profile' | 'search';

export type ReadClaim = { ok: true } | { ok: false; retryAt: Date; reason: 'interval' | 'daily_cap' };

const DAY_MS = 86_400_000;

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function paceOf(pace: ReadPace, kind: ReadKind): { intervalMs: number; perDay: number } {
  return kind === 'profile'
    ? { intervalMs: pace.profileIntervalMs, perDay: pace.profilesPerDay }
    : { intervalMs: pace.searchPageIntervalMs, perDay: pace.searchPagesPerDay };
}

/**
 * Takes the sender's next read slot of `kind` at `now`, or says when to come back. `random` is a uniform
 * number in [0, 1) (callers pass a deterministic one in tests and simulations) that spreads the gap.
 */
export async function claimRead(
  db: Database,
  input: {
    teamId: number;
    senderProfileUuid: string;
    kind: ReadKind;
    pace: ReadPace;
    now: Date;
    random: number;
  },
): Promise<ReadClaim> {
  const { intervalMs, perDay } = paceOf(input.pace, input.kind);
  const nextAt = new Date(input.now.getTime() + Math.round(intervalMs * (0.5 + input.random)));
  const day = utcDay(input.now);
  const claimed = await sql<{ next_at: Date }>`
    insert into linkedin_read_pace (team_id, sender_profile_uuid, kind, next_at, day, count)
    values (${input.teamId}, ${input.senderProfileUuid}, ${input.kind}, ${nextAt}, ${day}::date, 1)
    on conflict (team_id, sender_profile_uuid, kind) do update
      set next_at = excluded.next_at,
          count = case when linkedin_read_pace.day = excluded.day then linkedin_read_pace.count + 1 else 1 end,
          day = excluded.day
      where linkedin_read_pace.next_at <= ${input.now}
        and (${perDay}::int = 0 or linkedin_read_pace.day <> excluded.day or linkedin_read_pace.count < ${perDay}::int)
    returning next_at
  `.execute(db);
  if (claimed.rows.length > 0) return { ok: true };

  const row = await db
    .selectFrom('linkedin_read_pace')
    .select(['next_at', sql<string>`day::text`.as('day'), 'count'])
    .where('team_id', '=', input.teamId)
    .where('sender_profile_uuid', '=', input.senderProfileUuid)
    .where('kind', '=', input.kind)
    .executeTakeFirstOrThrow();
  if (perDay > 0 && row.day === day && row.count >= perDay) {
    const tomorrow = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
    return { ok: false, reason: 'daily_cap', retryAt: tomorrow > row.next_at ? tomorrow : row.next_at };
  }
  return { ok: false, reason: 'interval', retryAt: row.next_at };
}
