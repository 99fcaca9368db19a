import type { ImportRowError } from './files.tables.js';

/** A data row of the file: its row number as a spreadsheet shows it (header = 1) and its cells. */
export type SourceRow = { row: number; cells: string[] };

/** What happened to the rows of one chunk. */
export type ChunkCounts = {
  created: number;
  updated: number;
  duplicate: number;
  blacklisted: number;
  /** Of the created rows, those without a key to deduplicate by (a name only). */
  undeduplicated: number;
  errors: ImportRowError[];
};

export const emptyCounts = (): ChunkCounts => ({
  created: 0,
  updated: 0,
  duplicate: 0,
  blacklisted: 0,
  undeduplicated: 0,
  errors: [],
});
