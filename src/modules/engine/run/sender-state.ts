// The dispatcher's per-sender-and-channel state (sender_channel_state): claimed with a lease and a claim
// token, written back on release - by the dispatcher holding the token only.
import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { claimAcrossTeams } from '../../../db/team-claims.js';
import type { Channel } from '../../channels/driver.js';

export type StateRow = {
  team_id: number;
  sender_profile_uuid: string;
  channel: Channel;
  next_slot_at: Date | null;
  paused_until: Record<string, string>;
  flow_turns: Record<string, string>;
  actions_done: number;
  claim_token: number;
};

export async function claimSenders(
  db: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<StateRow[]> {
  const due = (alias: 't' | 'd') => {
    const c = (column: string) => sql.ref(`${alias}.${column}`);
    return sql<SqlBool>`${c('next_dispatch_at')} is not null and ${c('next_dispatch_at')} <= ${now}
      and (${c('leased_until')} is null or ${c('leased_until')} <= ${now})`;
  };
  return claimAcrossTeams({
    db,
    mark: 'engine-dispatch-claim',
    table: 'sender_channel_state',
    due: due('t'),
    order: sql`t.next_dispatch_at`,
    limit,
    async claim(teamId, teamLimit) {
      const result = await sql<StateRow>`
        with due as (
          select d.team_id, d.sender_profile_uuid, d.channel from sender_channel_state d
          where d.team_id = ${teamId} and ${due('d')}
          order by d.next_dispatch_at
          limit ${teamLimit}
          for update skip locked
        )
        update sender_channel_state s set leased_until = ${new Date(now.getTime() + leaseMs)},
          claim_token = s.claim_token + 1, pending_dispatch_at = null
        from due
        where s.team_id = ${teamId} and s.sender_profile_uuid = due.sender_profile_uuid and s.channel = due.channel
        returning s.team_id, s.sender_profile_uuid, s.channel, s.next_slot_at, s.paused_until, s.flow_turns,
          s.actions_done, s.claim_token
      `.execute(db);
      return result.rows;
    },
  });
}

/**
 * Writes the sender's state back (as the dispatcher changed it in memory) and lets other dispatchers
 * have it from `nextDispatchAt` on. Nothing is written when another dispatcher owns it by now.
 */
export async function release(
  db: Executor,
  state: StateRow,
  set: { nextDispatchAt: Date | null; nextSlotAt?: Date; pausedUntil?: Record<string, string> },
): Promise<boolean> {
  if (set.nextSlotAt) state.next_slot_at = set.nextSlotAt;
  if (set.pausedUntil) state.paused_until = set.pausedUntil;
  const next = set.nextDispatchAt ?? 'infinity';
  const result = await sql`
    update sender_channel_state set
      -- Actions made ready while we held the sender are not lost.
      next_dispatch_at = nullif(least(${next}::timestamptz, coalesce(pending_dispatch_at, 'infinity')), 'infinity'),
      pending_dispatch_at = null, leased_until = null, next_slot_at = ${state.next_slot_at},
      flow_turns = ${JSON.stringify(state.flow_turns)}::jsonb, paused_until = ${JSON.stringify(state.paused_until)}::jsonb,
      actions_done = ${state.actions_done}, updated_at = now()
    where team_id = ${state.team_id} and sender_profile_uuid = ${state.sender_profile_uuid}
      and channel = ${state.channel} and claim_token = ${state.claim_token}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}
