// Deleting history older than a retention period (events, LLM log entries): the age is read from the
// rows' time-ordered uuid (v7), so each team's batch is a range of its primary key, and short batches
// team by team never hold long locks or touch another team's shard group.
import type { Database } from './database.js';

export const RETENTION_BATCH = 5000;

/** The smallest uuid v7 of `before`'s millisecond: every row recorded earlier sorts below it. */
export const uuidV7Before = (before: Date): string =>
  `${before.getTime().toString(16).padStart(12, '0')}${'0'.repeat(20)}`;

/**
 * Runs `deleteBatch` (one statement deleting at most RETENTION_BATCH rows of a team below `bound`, and
 * answering how many it deleted) team by team until a team has none left; returns the total.
 */
export async function pruneTeamByTeam(
  db: Database,
  before: Date,
  deleteBatch: (teamId: number, bound: string) => Promise<number>,
): Promise<number> {
  const bound = uuidV7Before(before);
  const teams = await db.selectFrom('teams').select('id').orderBy('id').execute();
  let deleted = 0;
  for (const { id: teamId } of teams) {
    for (;;) {
      const count = await deleteBatch(teamId, bound);
      deleted += count;
      if (count < RETENTION_BATCH) break;
    }
  }
  return deleted;
}
