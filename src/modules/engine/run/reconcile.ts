// After a crash between an action's intent and its recorded outcome, or an action the channel answered
// `unconfirmed` (it passed its irreversible step without a confirmation), the task stays taken without
// an outcome. Once nobody can still be working on it, the reconciler asks the channel whether the action
// happened: done -> recorded as sent; not done -> back to the dispatcher (the channel is sure; failed
// `too_many_attempts` once the attempts are used up); unknown -> failed with `unknown_outcome`. It never
// acts again on a guess.
import type { Logger } from 'pino';
import { crossTeam } from '../../../db/citus.js';
import type { Database } from '../../../db/database.js';
import {
  channelOf,
  type DriverRegistry,
  isActionType,
  type OutcomeCheck,
  type SentActionsHook,
} from '../../channels/driver.js';
import { buildRequest } from './action-requests.js';
import { recordOutcomes, wakeEnrollment } from './outcomes.js';
import { askOutcome } from './send-once.js';
import type { TaskRow } from './work.js';

export type ReconcileDeps = {
  db: Database;
  log: Logger;
  drivers: DriverRegistry;
  onSent: SentActionsHook[];
  reconcileAfterMs: number;
  maxAttempts: number;
};

async function check(deps: ReconcileDeps, task: TaskRow, now: Date): Promise<OutcomeCheck | 'later'> {
  if (!isActionType(task.type) || !task.sender_profile_uuid) return 'unknown';
  const answer = await askOutcome(
    deps,
    { teamId: task.team_id, senderProfileUuid: task.sender_profile_uuid, channel: channelOf(task.type) },
    () => buildRequest(deps.db, task, now),
  );
  // A seat in live view cannot be asked now; ask again on a later round rather than give up.
  return typeof answer === 'string' ? answer : 'later';
}

function unknownOutcomeMessage(task: TaskRow): string {
  const cause = task.error_msg?.startsWith('unconfirmed:')
    ? `${task.error_msg.replace(/\.$/, '')}.`
    : 'The worker stopped while this action was being sent.';
  return `${cause} The channel cannot tell whether it went out; it is not sent again.`;
}

export async function reconcileUnconfirmed(deps: ReconcileDeps, now: Date, limit = 100): Promise<number> {
  const { db } = deps;
  const stale = await db
    .selectFrom('tasks')
    .selectAll()
    .modifyFront(crossTeam('engine-reconcile'))
    .where('status', '=', 'in_progress')
    .where('taken_to_execute_at', 'is not', null)
    .where('taken_to_execute_at', '<', new Date(now.getTime() - deps.reconcileAfterMs))
    .orderBy('taken_to_execute_at')
    .limit(limit)
    .execute();
  for (const task of stale) {
    const outcome = await check(deps, task, now);
    if (outcome === 'later') continue;
    if (outcome === 'done') {
      const request = await buildRequest(db, task, now);
      if (request) {
        await recordOutcomes(
          db,
          [{ task, request, outcome: { ok: true, remoteRef: 'reconciled' } }],
          now,
          deps.maxAttempts,
          deps.onSent,
        );
        continue;
      }
    }
    await db.transaction().execute(async (trx) => {
      if (outcome === 'not_done' && task.attempts < deps.maxAttempts) {
        await trx
          .updateTable('tasks')
          .set({ taken_to_execute_at: null, schedule_at: now, updated_at: now })
          .where('team_id', '=', task.team_id)
          .where('uuid', '=', task.uuid)
          .where('status', '=', 'in_progress')
          .execute();
        await trx
          .updateTable('sender_channel_state')
          .set({ next_dispatch_at: now, pending_dispatch_at: now })
          .where('team_id', '=', task.team_id)
          .where('sender_profile_uuid', '=', task.sender_profile_uuid as string)
          .execute();
        return;
      }
      const failed = await trx
        .updateTable('tasks')
        .set({
          status: 'failed',
          ...(outcome === 'not_done'
            ? { automation_error_code: 'too_many_attempts', error_msg: task.error_msg }
            : { automation_error_code: 'unknown_outcome', error_msg: unknownOutcomeMessage(task) }),
          executed_at: now,
          updated_at: now,
        })
        .where('team_id', '=', task.team_id)
        .where('uuid', '=', task.uuid)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      if (Number(failed.numUpdatedRows) === 1) await wakeEnrollment(trx, task, now);
    });
  }
  return stale.length;
}
