// A team's time zone: what schedules default to when a client does not send one. A team has no zone
// field of its own on the wire, so it is `config.timezone` when set (and valid), else its owner's
// time zone (users.timezone, UTC unless changed).
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isValidTimeZone } from '../../lib/schedule.js';

export async function teamTimeZone(db: Executor, teamId: number): Promise<string> {
  const result = await sql<{ team_zone: unknown; owner_zone: string | null }>`
    select t.config -> 'timezone' as team_zone, u.timezone as owner_zone
    from teams t left join users u on u.id = t.user_id
    where t.id = ${teamId}
  `.execute(db);
  const row = result.rows[0];
  if (isValidTimeZone(row?.team_zone)) return row.team_zone;
  if (isValidTimeZone(row?.owner_zone)) return row.owner_zone;
  return 'UTC';
}
