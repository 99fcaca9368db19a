// The intent of a burst of the flows' actions (step 1 of never-twice, send-once.ts): taken_to_execute_at
// commits before the channel is called, for the tasks whose enrollment still runs.
import type { Database } from '../../../db/database.js';
import type { Candidate } from './ready-actions.js';
import type { StateRow } from './sender-state.js';

/**
 * Takes the intents of `tasks` in one commit and returns the uuids taken. A task whose enrollment is no
 * longer running is parked (and the enrollment woken, so the engine ends or resumes it for good); a
 * task that moved meanwhile is left alone. Nothing is taken when another dispatcher owns the sender now.
 */
export async function takeIntents(
  db: Database,
  state: StateRow,
  tasks: Candidate[],
  now: Date,
): Promise<Set<string>> {
  return db.transaction().execute(async (trx) => {
    const owned = await trx
      .updateTable('sender_channel_state')
      .set({ updated_at: now })
      .where('team_id', '=', state.team_id)
      .where('sender_profile_uuid', '=', state.sender_profile_uuid)
      .where('channel', '=', state.channel)
      .where('claim_token', '=', state.claim_token)
      .executeTakeFirst();
    if (Number(owned.numUpdatedRows) !== 1) return new Set<string>();
    const enrollments = tasks.map((t) => t.flow_lead_uuid as string);
    // Locks the enrollments: a reply or a cancel either commits before this (and we skip) or after.
    const live = await trx
      .selectFrom('flow_leads')
      .select(['uuid', 'status', 'flow_active'])
      .where('team_id', '=', state.team_id)
      .where('uuid', 'in', enrollments)
      .forUpdate()
      .execute();
    const running = new Set(
      live.filter((l) => l.status === 'in_progress' && l.flow_active).map((l) => l.uuid),
    );
    const gone = tasks.filter((t) => !running.has(t.flow_lead_uuid as string));
    if (gone.length > 0) {
      await trx
        .updateTable('tasks')
        .set({ schedule_at: null, updated_at: now })
        .where('team_id', '=', state.team_id)
        .where(
          'uuid',
          'in',
          gone.map((t) => t.uuid),
        )
        .where('taken_to_execute_at', 'is', null)
        .execute();
      await trx
        .updateTable('flow_leads')
        .set((eb) => ({ next_run_at: now, claim_token: eb('claim_token', '+', 1), lease_until: null }))
        .where('team_id', '=', state.team_id)
        .where(
          'uuid',
          'in',
          gone.map((t) => t.flow_lead_uuid as string),
        )
        .where('status', '=', 'in_progress')
        .execute();
    }
    const ready = tasks.filter((t) => running.has(t.flow_lead_uuid as string)).map((t) => t.uuid);
    if (ready.length === 0) return new Set<string>();
    const taken = await trx
      .updateTable('tasks')
      .set((eb) => ({ taken_to_execute_at: now, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('team_id', '=', state.team_id)
      .where('uuid', 'in', ready)
      .where('status', '=', 'in_progress')
      .where('taken_to_execute_at', 'is', null)
      .returning('uuid')
      .execute();
    return new Set(taken.map((t) => t.uuid));
  });
}
