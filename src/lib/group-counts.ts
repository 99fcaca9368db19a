// Group-counts answers (tasks, LinkedIn messages): group value -> count, from the rows of one grouped query.

/** Group value -> count; an unset value (no flow, no error code...) is the key "". */
export type GroupCounts = Record<string, number>;

/** Folds grouped rows into a map with its keys in order (days chronologically); empty groups are left out. */
export function toGroupCounts(rows: Array<{ key: unknown; count: number | string }>): GroupCounts {
  const counts: GroupCounts = {};
  for (const row of rows) {
    const count = Number(row.count);
    if (count === 0) continue;
    const key = row.key === null || row.key === undefined ? '' : String(row.key);
    counts[key] = (counts[key] ?? 0) + count;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
