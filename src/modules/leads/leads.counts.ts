// Exact total of a team's contacts from the delta rows that statement triggers write (migration
// 0110), in one index range read instead of a count over every contact (src/db/count-deltas.ts).
import { leadCountDeltas, sumDeltas } from '../../db/count-deltas.js';
import type { Executor } from '../../db/database.js';

export async function teamLeadTotal(db: Executor, teamId: number): Promise<number> {
  const [total] = await sumDeltas(db, leadCountDeltas, teamId);
  return total?.count ?? 0;
}
