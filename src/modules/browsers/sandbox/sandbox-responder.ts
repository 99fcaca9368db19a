// The sandbox network answering: invitations accepted and messages replied to when their time has
// come, written to the sandbox inbox and ingested like a seat's sync ingests its inbox (stored
// messages, signals) - in the same transaction that marks them answered, so an answer is delivered
// exactly once whatever crashes. The ingestion is the channel's inbox sink (the LinkedIn messages
// module's, given by the composition root), so the sandbox knows nothing of what a reply moves.
import { type SqlBool, sql } from 'kysely';
import { crossTeam } from '../../../db/citus.js';
import type { Database } from '../../../db/database.js';
import { claimAcrossTeams } from '../../../db/team-claims.js';
import { uniformInt } from '../../../lib/rng.js';
import type { ChannelPush } from '../../channels/driver.js';
import type { InboxItem, InboxMember, InboxSink } from '../../channels/inbox.js';
import { addToSandboxInbox, type SandboxInboxRow, toInboxItem } from './sandbox-inbox.js';

const REPLIES = [
  'Thanks for reaching out - happy to chat next week.',
  'Not the right time for us, sorry.',
  'Interesting! Can you send more details?',
  'Please talk to my colleague in procurement.',
  'Sounds good, let us set up a call.',
];

type Due = {
  team_id: number;
  id: number;
  sender_profile_uuid: string;
  lead_uuid: string;
  action: string;
  response: 'accept' | 'reply';
  respond_at: Date;
};

/** The sandbox network's answers as the engine's loops deliver them (a channel push). */
export function sandboxResponder(db: Database, ingest: InboxSink): ChannelPush {
  return {
    deliver: (now) => deliverSandboxResponses(db, ingest, now),
    nextAt: () => nextSandboxResponseAt(db),
  };
}

/** Delivers up to `limit` due answers, team by team (src/db/team-claims.ts); returns how many. */
export async function deliverSandboxResponses(
  db: Database,
  ingest: InboxSink,
  now: Date,
  limit = 1000,
): Promise<number> {
  const delivered = await claimAcrossTeams({
    db,
    mark: 'sandbox-responses',
    table: 'sandbox_linkedin_actions',
    due: sql<SqlBool>`t.responded_at is null and t.respond_at is not null and t.respond_at <= ${now}`,
    order: sql`t.respond_at`,
    limit,
    claim: (teamId, teamLimit) => deliverTeamResponses(db, ingest, teamId, now, teamLimit),
  });
  return delivered.length;
}

async function deliverTeamResponses(
  db: Database,
  ingest: InboxSink,
  teamId: number,
  now: Date,
  limit: number,
): Promise<Due[]> {
  return db.transaction().execute(async (trx) => {
    const due = await sql<Due>`
      with due as (
        select team_id, id from sandbox_linkedin_actions
        where team_id = ${teamId} and responded_at is null and respond_at is not null and respond_at <= ${now}
        order by respond_at limit ${limit}
        for update skip locked
      )
      update sandbox_linkedin_actions s set responded_at = ${now}
      from due where s.team_id = ${teamId} and s.id = due.id
      returning s.team_id, s.id, s.sender_profile_uuid, s.lead_uuid, s.action, s.response, s.respond_at
    `.execute(trx);
    if (due.rows.length === 0) return [];
    // The answers land in the sandbox inbox, as a real member's would in the seat's inbox...
    const members = await sql<{ team_id: number; uuid: string; member: InboxMember }>`
      select l.team_id, l.uuid, jsonb_build_object('ln_member_id', l.ln_member_id, 'ln_id', l.ln_id,
        'sn_id', l.sn_id, 'linkedin', l.linkedin, 'full_name', l.name) as member
      from leads l
      where l.team_id = ${teamId} and l.uuid = any(${[...new Set(due.rows.map((r) => r.lead_uuid))]}::uuid[])
    `.execute(trx);
    const memberOf = new Map(members.rows.map((m) => [`${m.team_id}:${m.uuid}`, m.member]));
    const rows: SandboxInboxRow[] = due.rows.map((row) => ({
      team_id: Number(row.team_id),
      sender_profile_uuid: row.sender_profile_uuid,
      lead_uuid: row.lead_uuid,
      kind: row.response === 'accept' ? 'accepted' : 'message',
      conversation_id:
        row.response === 'accept' ? null : `sandbox:${row.sender_profile_uuid}:${row.lead_uuid}`,
      member: memberOf.get(`${row.team_id}:${row.lead_uuid}`) ?? {},
      text:
        row.response === 'accept'
          ? null
          : (REPLIES[uniformInt(0, REPLIES.length - 1, 'reply-text', row.id)] ?? null),
      subject: null,
      linkedin_type:
        row.response === 'accept'
          ? null
          : row.action === 'linkedin_send_inmail'
            ? 'InMail'
            : 'MEMBER_TO_MEMBER',
      occurred_at: row.respond_at,
    }));
    const ids = await addToSandboxInbox(trx, rows);
    // ...and reach the product through the same ingestion as the seat's sync, at once (the sandbox
    // pushes; the periodic sync of the seat finds them stored and stores nothing twice).
    const bySender = new Map<string, { teamId: number; sender: string; items: InboxItem[] }>();
    rows.forEach((row, i) => {
      const key = `${row.team_id}:${row.sender_profile_uuid}`;
      const group = bySender.get(key) ?? { teamId: row.team_id, sender: row.sender_profile_uuid, items: [] };
      group.items.push(toInboxItem({ ...row, id: ids[i]! }));
      bySender.set(key, group);
    });
    for (const group of bySender.values()) await ingest(trx, group.teamId, group.sender, group.items, now);
    return due.rows;
  });
}

/** The earliest pending answer (the simulation jumps its clock there). */
export async function nextSandboxResponseAt(db: Database): Promise<Date | null> {
  const row = await sql<{ at: Date | null }>`
    ${crossTeam('sandbox-next-response')} select min(respond_at) as at from sandbox_linkedin_actions where responded_at is null and respond_at is not null
  `.execute(db);
  return row.rows[0]?.at ?? null;
}
