// Each running seat's inbox is read periodically (LEADFLOW_LINKEDIN_SYNC_SECONDS): new messages are
// stored once (automation "synced"), attached to their contact and conversation, and replies and
// accepted invitations become the engine's signals (linkedin-ingest.ts). The cursor moves in the same
// transaction that stores a page, so a crash re-reads that page and stores nothing twice.
//
// A scheduled job ticks every minute; each tick claims the seats whose next sync is due (a lease in
// linkedin_sync_state, SKIP LOCKED, so worker processes share them) and syncs them.
import { type SqlBool, sql } from 'kysely';
import { crossTeam } from '../../db/citus.js';
import { claimAcrossTeams } from '../../db/team-claims.js';
import type { InboxRegistry } from '../channels/inbox.js';
import { isSeatFailure } from '../channels/reader.js';
import { recordInboxListing } from './linkedin-inbox-health.js';
import { type IngestResult, ingestInbox } from './linkedin-ingest.js';
import { reconcileStaleMessages, type SendDeps } from './linkedin-send.js';

export type SyncDeps = SendDeps & {
  inboxes: InboxRegistry;
  syncIntervalMs: number;
  /** Inbox items per page (one transaction each). */
  pageSize: number;
  /** Pages per seat and round (the rest waits for the next round). */
  maxPages: number;
};

export type SeatSyncResult = IngestResult & { pages: number; error: string | null };

const LEASE_MS = 10 * 60_000;

/** Reads a seat's inbox from its cursor and stores what is new. */
export async function syncSeat(
  deps: SyncDeps,
  teamId: number,
  senderUuid: string,
  now: Date,
): Promise<SeatSyncResult> {
  const { db } = deps;
  const total: SeatSyncResult = {
    items: 0,
    stored: 0,
    replies: 0,
    accepted: 0,
    read: 0,
    pages: 0,
    error: null,
  };
  await reconcileStaleMessages(deps, teamId, senderUuid, now);
  const inbox = await deps.inboxes.resolve(teamId, senderUuid);
  if ('unavailable' in inbox) {
    total.error = inbox.unavailable;
    return total;
  }
  await db
    .insertInto('linkedin_sync_state')
    .values({ team_id: teamId, sender_profile_uuid: senderUuid, next_sync_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'sender_profile_uuid']).doNothing())
    .execute();
  for (let page = 0; page < deps.maxPages; page += 1) {
    const state = await db
      .selectFrom('linkedin_sync_state')
      .select('cursor')
      .where('team_id', '=', teamId)
      .where('sender_profile_uuid', '=', senderUuid)
      .executeTakeFirstOrThrow();
    const read = await inbox.readSince(
      { teamId, senderProfileUuid: senderUuid, at: now },
      state.cursor,
      deps.pageSize,
    );
    if (!read.ok) {
      total.error = `${read.reason}: ${read.message}`;
      if (isSeatFailure(read.reason)) {
        await db
          .updateTable('linkedin_browsers')
          .set({ status: 'login_issue', error_reason: read.message, updated_at: now })
          .where('team_id', '=', teamId)
          .where('sender_profile_uuid', '=', senderUuid)
          .where('status', '=', 'running')
          .execute();
      }
      break;
    }
    const result = await db.transaction().execute(async (trx) => {
      const stored = await ingestInbox(trx, teamId, senderUuid, read.value.items, now);
      await trx
        .updateTable('linkedin_sync_state')
        .set({ cursor: read.value.cursor, last_synced_at: now, last_error: null })
        .where('team_id', '=', teamId)
        .where('sender_profile_uuid', '=', senderUuid)
        .execute();
      if (page === 0 && read.value.conversations !== undefined) {
        await recordInboxListing(trx, teamId, senderUuid, read.value.conversations, now);
      }
      return stored;
    });
    total.pages += 1;
    total.items += result.items;
    total.stored += result.stored;
    total.replies += result.replies;
    total.accepted += result.accepted;
    total.read += result.read;
    if (!read.value.hasMore) break;
  }
  if (total.error) {
    await db
      .updateTable('linkedin_sync_state')
      .set({ last_error: total.error })
      .where('team_id', '=', teamId)
      .where('sender_profile_uuid', '=', senderUuid)
      .execute();
  }
  return total;
}

/** One round: every running seat whose sync is due, a few at a time. Returns the seats synced. */
export async function syncDueSeats(deps: SyncDeps, now: Date, limit = 50): Promise<number> {
  const { db } = deps;
  // Seats that run get a sync state (due now); the others keep theirs for when they run again.
  await sql`
    ${crossTeam('linkedin-sync-seats')} insert into linkedin_sync_state (team_id, sender_profile_uuid, next_sync_at)
    select distinct b.team_id, b.sender_profile_uuid, ${now}::timestamptz from linkedin_browsers b
    where b.status = 'running'
    on conflict (team_id, sender_profile_uuid) do nothing
  `.execute(db);
  const due = (alias: 't' | 'st') => {
    const c = (column: string) => sql.ref(`${alias}.${column}`);
    return sql<SqlBool>`${c('next_sync_at')} <= ${now} and (${c('leased_until')} is null or ${c('leased_until')} <= ${now})
      and exists (select 1 from linkedin_browsers b where b.team_id = ${c('team_id')}
        and b.sender_profile_uuid = ${c('sender_profile_uuid')} and b.status = 'running')`;
  };
  const seats = await claimAcrossTeams({
    db,
    mark: 'linkedin-sync-claim',
    table: 'linkedin_sync_state',
    due: due('t'),
    order: sql`t.next_sync_at`,
    limit,
    async claim(teamId, teamLimit) {
      const claimed = await sql<{ team_id: number; sender_profile_uuid: string }>`
        update linkedin_sync_state s set leased_until = ${new Date(now.getTime() + LEASE_MS)},
          next_sync_at = ${new Date(now.getTime() + deps.syncIntervalMs)}
        where s.team_id = ${teamId} and s.sender_profile_uuid in (
          select st.sender_profile_uuid from linkedin_sync_state st
          where st.team_id = ${teamId} and ${due('st')}
          order by st.next_sync_at limit ${teamLimit}
          for update skip locked
        )
        returning s.team_id, s.sender_profile_uuid
      `.execute(db);
      return claimed.rows;
    },
  });
  for (const seat of seats) {
    try {
      await syncSeat(deps, Number(seat.team_id), seat.sender_profile_uuid, now);
    } catch (error) {
      deps.log.error({ err: error, sender: seat.sender_profile_uuid }, 'LinkedIn inbox sync failed');
    } finally {
      await db
        .updateTable('linkedin_sync_state')
        .set({ leased_until: null })
        .where('team_id', '=', seat.team_id)
        .where('sender_profile_uuid', '=', seat.sender_profile_uuid)
        .execute();
    }
  }
  return seats.length;
}
