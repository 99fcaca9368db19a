// A sender that cannot act (disabled, no seat or mailbox, the seat logged out) parks the enrollments
// waiting for its actions: they show status `paused` with the reason, and their ready tasks leave the
// dispatcher's index (schedule_at null). When the cause goes away everything parked for it resumes.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { CHANNEL_SPECS } from '../channels/channel-specs.js';
import type { Channel } from '../channels/driver.js';

/** Reasons a sender's enrollments are parked for, with what clears each (the channels' own in their spec). */
export const SENDER_PAUSE_REASONS = {
  sender_disabled: 'the sender profile is enabled again',
  ...CHANNEL_SPECS.linkedin.pauseReasons,
  ...CHANNEL_SPECS.email.pauseReasons,
} as const;

export type SenderPauseReason = keyof typeof SENDER_PAUSE_REASONS;

/** Parks the sender's enrollments waiting for a `channel` action. Returns how many. */
export async function parkSenderActions(
  db: Executor,
  teamId: number,
  senderUuid: string,
  channel: Channel,
  reason: SenderPauseReason,
): Promise<number> {
  const result = await sql`
    with parked as (
      update tasks t set schedule_at = null, updated_at = now()
      where t.team_id = ${teamId} and t.sender_profile_uuid = ${senderUuid} and t.status = 'in_progress'
        and t.automation = 'auto' and t.taken_to_execute_at is null and t.schedule_at is not null
        and ${CHANNEL_SPECS[channel].taskTypes}
      returning t.flow_lead_uuid
    )
    update flow_leads fl set status = 'paused', reason = ${reason}, next_run_at = null, updated_at = now(),
      claim_token = fl.claim_token + 1, lease_until = null
    from parked
    where fl.team_id = ${teamId} and fl.uuid = parked.flow_lead_uuid and fl.status = 'in_progress'
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Resumes the sender's enrollments parked for one of `reasons` (all sender reasons by default): they
 * run again at once, their parked actions go back to the dispatcher. Returns how many resumed.
 */
export async function resumeSenderActions(
  db: Executor,
  teamId: number,
  senderUuid: string,
  reasons: SenderPauseReason[] = Object.keys(SENDER_PAUSE_REASONS) as SenderPauseReason[],
  at?: Date,
): Promise<number> {
  const now = at ?? sql`now()`;
  const result = await sql<{ resumed: number }>`
    with resumed as (
      update flow_leads fl set status = 'in_progress', reason = null, next_run_at = ${now}, updated_at = ${now},
        claim_token = fl.claim_token + 1, lease_until = null
      where fl.team_id = ${teamId} and fl.status = 'paused' and fl.reason = any(${reasons}::text[])
        and (fl.sender_profile_uuid = ${senderUuid} or fl.sender_profile_uuid is null)
      returning fl.uuid
    ),
    tasks_back as (
      update tasks t set schedule_at = ${now}, updated_at = ${now}
      from resumed
      where t.team_id = ${teamId} and t.flow_lead_uuid = resumed.uuid and t.status = 'in_progress'
        and t.schedule_at is null
      returning 1
    ),
    state as (
      update sender_channel_state s set next_dispatch_at = ${now}, pending_dispatch_at = ${now},
        paused_until = s.paused_until - '*'
      where s.team_id = ${teamId} and s.sender_profile_uuid = ${senderUuid}
      returning 1
    )
    select (select count(*) from resumed)::int as resumed, (select count(*) from tasks_back) as t,
      (select count(*) from state) as s
  `.execute(db);
  return result.rows[0]?.resumed ?? 0;
}
