// Exact total of a team's contacts from the delta rows that statement triggers write (migration
// 0110), in one index range read instead of a count over every contact.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** Above this many delta rows a read folds them into one. */
const COMPACT_ABOVE = 64;

export async function teamLeadTotal(db: Executor, teamId: number): Promise<number> {
  const result = await sql<{ total: number; rows: number }>`
    select coalesce(sum(delta), 0)::bigint as total, count(*)::int as rows
    from lead_count_deltas where team_id = ${teamId}
  `.execute(db);
  const { total, rows } = result.rows[0] ?? { total: 0, rows: 0 };
  if (rows > COMPACT_ABOVE) await compactLeadCount(db, teamId);
  return total;
}

/**
 * Replaces the team's delta rows with their sum, in one statement so readers see the total before or
 * after, never in between. Rows another compaction holds are skipped rather than waited for.
 */
export async function compactLeadCount(db: Executor, teamId: number): Promise<void> {
  await sql`
    with folded as (
      delete from lead_count_deltas d
      where d.team_id = ${teamId} and d.id in (
        select id from lead_count_deltas where team_id = ${teamId} for update skip locked
      )
      returning d.delta
    )
    insert into lead_count_deltas (team_id, delta)
    select ${teamId}, sum(delta) from folded having count(*) > 0
  `.execute(db);
}
