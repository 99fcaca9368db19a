// Mass moves of tasks: a selection ({uuids} and/or a task filter) and a move. Up to the synchronous
// limit they run in the request, above it as a background bulk operation in batches, like contact
// mass actions.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { and } from '../../lib/filter.js';
import { applyInBatches, type BulkOperationRunner } from '../bulk-operations/bulk-operations.jobs.js';
import { compileTaskFilter } from './tasks.filter.js';
import { applyMove, MOVES, type MoveName, movable } from './tasks.moves.js';

export const MASS_MOVES = ['cancel', 'complete', 'retry', 'skip'] as const satisfies readonly MoveName[];
export type MassMoveName = (typeof MASS_MOVES)[number];

/** Bulk operation type of a mass move (what GET /leads/api/bulk-operations/{uuid} shows). */
export const massMoveOperationType = (move: MassMoveName) => `task_mass_${move}`;

export type TaskSelection = { uuids?: string[]; filter?: Record<string, unknown> | null };

/** The tasks a mass move is about, as a condition on `t`. Nothing to go on is a 422. */
export function compileTaskSelection(selection: TaskSelection): RawBuilder<SqlBool> {
  const conditions: RawBuilder<SqlBool>[] = [];
  if (selection.uuids !== undefined) {
    conditions.push(sql<SqlBool>`t.uuid = any(${selection.uuids.map((u) => u.toLowerCase())}::uuid[])`);
  }
  const filtered = compileTaskFilter(selection.filter ?? undefined).tasks;
  if (filtered) conditions.push(filtered);
  const where = and(conditions);
  if (!where) {
    throw new AppError(
      'validation_error',
      'Say which tasks: uuids (task UUIDs) and/or a filter with at least one key (e.g. {"automation": "manual"}).',
      { uuids: ['uuids or a non-empty filter is required'] },
    );
  }
  return where;
}

/** Runs stored task mass moves, in batches that drain the selection through its index. */
export function taskMassMoveRunner(deps: {
  db: Database;
  config: Pick<Config, 'massActionSyncLimit'>;
}): BulkOperationRunner {
  const batchSize = Math.min(5000, deps.config.massActionSyncLimit);
  return {
    types: MASS_MOVES.map(massMoveOperationType),
    async run(operation, progress) {
      const move = MOVES[operation.type.replace('task_mass_', '') as MassMoveName];
      const where = compileTaskSelection((operation.filter ?? {}) as TaskSelection);
      await applyInBatches(
        deps.db,
        {
          table: 'tasks',
          alias: 't',
          teamId: operation.team_id,
          where: sql<SqlBool>`${where} and ${movable(move, operation.team_id)}`,
        },
        batchSize,
        async (trx, batch) => (await applyMove(trx, operation.team_id, move, batch)).length,
        progress,
        { drain: true },
      );
    },
  };
}
