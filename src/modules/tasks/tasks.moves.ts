// Status moves by hand (spec 3.3). Each move says which statuses it leaves, which it reaches, and
// whether an automation's task may take it: complete, cancel and fail are for to-dos only (a flow's
// task is the engine's to run); retry and skip also apply to a flow's task that its contact is still
// at (or ended at, when that task failed), and then resume and wake the enrollment so the engine moves
// on (skip) or runs the step again (retry).
// A move only touches tasks it actually changes, so `affected` counts real changes and running it
// again is harmless (background operations rely on that).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { resumeFailedEnrollments, wakeEnrollments } from '../enrollments/enrollment-signals.js';
import type { TaskStatusValue } from './tasks.filter.js';
import { countTasksUpTo } from './tasks.repository.js';

export type MoveName = 'complete' | 'cancel' | 'fail' | 'retry' | 'skip';

export type Move = {
  name: MoveName;
  to: TaskStatusValue;
  from: readonly TaskStatusValue[];
  /** Only to-dos move this way; an automation's task is refused (one task) or left out (a selection). */
  manualOnly: boolean;
  /** Further condition on `t` for the task to be movable. */
  extra?: RawBuilder<SqlBool>;
  /**
   * The columns the move sets besides status and updated_at. The time is a value, not now() inside
   * coalesce: Citus refuses non-immutable functions within CASE or COALESCE of an UPDATE.
   */
  set?: (now: Date) => RawBuilder<unknown>;
};

export const MOVES: Record<MoveName, Move> = {
  complete: {
    name: 'complete',
    to: 'closed',
    from: ['in_progress', 'failed'],
    manualOnly: true,
    set: (now) => sql`executed_at = coalesce(t.executed_at, ${now}::timestamptz)`,
  },
  cancel: { name: 'cancel', to: 'canceled', from: ['in_progress', 'failed'], manualOnly: true },
  fail: { name: 'fail', to: 'failed', from: ['in_progress'], manualOnly: true },
  retry: {
    name: 'retry',
    to: 'in_progress',
    from: ['failed'],
    manualOnly: false,
    // A step that failed because the contact replied is not tried again.
    extra: sql<SqlBool>`t.automation_error_code is distinct from 'replied'`,
    // Attempts are kept; the outcome of the failed run is cleared so the engine runs it afresh.
    set: () => sql`error_msg = null, automation_error_code = null, executed_at = null, taken_to_execute_at = null,
      remote_ref = null`,
  },
  skip: {
    name: 'skip',
    to: 'skipped',
    from: ['in_progress', 'failed'],
    manualOnly: false,
    // An action already handed to its channel cannot be skipped any more: its outcome decides.
    extra: sql<SqlBool>`(t.status = 'failed' or t.taken_to_execute_at is null)`,
  },
};

/**
 * Whether a task of `t` can take `move`: a to-do in a source status, or (for moves automations allow)
 * a flow's task in a source status whose enrollment is still at the task's step - live, or ended by
 * the engine because this very task failed (the engine ends an enrollment whose action failed).
 */
export function movable(move: Move, teamId: number): RawBuilder<SqlBool> {
  const automation = move.manualOnly
    ? sql<SqlBool>`t.automation = 'manual'`
    : sql<SqlBool>`(t.automation = 'manual' or exists (
        select 1 from flow_leads fl
        where fl.team_id = ${teamId} and fl.uuid = t.flow_lead_uuid and fl.step = t.step
          and fl.flow_node_id is not distinct from t.flow_node_id
          and (fl.status in ('in_progress', 'paused') or (fl.status = 'failed' and t.status = 'failed'))
      ))`;
  const status = sql<SqlBool>`t.status = any(${[...move.from]}::text[])`;
  return move.extra
    ? sql<SqlBool>`${status} and ${automation} and ${move.extra}`
    : sql<SqlBool>`${status} and ${automation}`;
}

/** One task, as the `where` of applyMove. */
export const oneTask = (uuid: string) => sql<SqlBool>`t.uuid = ${uuid}`;

/** How many of the team's tasks matching `where` can take `move`, counting up to `cap`. */
export function countMovable(
  db: Executor,
  teamId: number,
  move: Move,
  where: RawBuilder<SqlBool>,
  cap: number,
): Promise<number> {
  return countTasksUpTo(db, teamId, sql<SqlBool>`${where} and ${movable(move, teamId)}`, cap);
}

/**
 * Applies `move` to the team's tasks matching `where` (alias `t`) that can take it, then wakes the
 * enrollments whose current task moved. Returns the uuids of the tasks changed. Run it in a
 * transaction.
 */
export async function applyMove(
  trx: Executor,
  teamId: number,
  move: Move,
  where: RawBuilder<SqlBool>,
  options: { errorMsg?: string | null; forkResult?: number } = {},
): Promise<string[]> {
  const now = new Date();
  const sets = [sql`status = ${move.to}`, sql`updated_at = ${now}`];
  if (move.set) sets.push(move.set(now));
  if (options.forkResult !== undefined) sets.push(sql`fork_result = ${options.forkResult}`);
  if (options.errorMsg !== undefined && options.errorMsg !== null)
    sets.push(sql`error_msg = ${options.errorMsg}`);
  const { rows } = await sql<{ uuid: string; flow_lead_uuid: string | null; automation: string }>`
    update tasks t set ${sql.join(sets)}
    where t.team_id = ${teamId} and ${where} and ${movable(move, teamId)}
    returning t.uuid, t.flow_lead_uuid, t.automation
  `.execute(trx);
  const automated = rows.filter((row) => row.automation === 'auto' && row.flow_lead_uuid);
  if (automated.length > 0) {
    // A failed action ended its enrollment: retrying or skipping it brings the contact back.
    await resumeFailedEnrollments(
      trx,
      teamId,
      automated.map((row) => row.uuid),
    );
  }
  // A flow's step moved by hand - an action, or a to-do the flow waits on (a manual router) -: the
  // engine looks at its enrollment now.
  const enrollments = [...new Set(rows.flatMap((row) => (row.flow_lead_uuid ? [row.flow_lead_uuid] : [])))];
  if (enrollments.length > 0) await wakeEnrollments(trx, teamId, { uuids: enrollments });
  return rows.map((row) => row.uuid);
}
