// The sandbox network answering: invitations accepted and messages replied to when their time has
// come, delivered to the engine as signals - in the same transaction that marks them answered, so an
// answer is delivered exactly once whatever crashes.
import { sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import { newId } from '../../../lib/ids.js';
import { uniformInt } from '../rng.js';
import { type IncomingSignal, ingestSignalsIn } from '../signals.js';

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

/** Delivers up to `limit` due answers; returns how many. */
export async function deliverSandboxResponses(db: Database, now: Date, limit = 1000): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await sql<Due>`
      with due as (
        select team_id, id from sandbox_linkedin_actions
        where responded_at is null and respond_at is not null and respond_at <= ${now}
        order by respond_at limit ${limit}
        for update skip locked
      )
      update sandbox_linkedin_actions s set responded_at = ${now}
      from due where s.team_id = due.team_id and s.id = due.id
      returning s.team_id, s.id, s.sender_profile_uuid, s.lead_uuid, s.action, s.response, s.respond_at
    `.execute(trx);
    const byTeam = new Map<number, IncomingSignal[]>();
    for (const row of due.rows) {
      const signal: IncomingSignal =
        row.response === 'accept'
          ? {
              kind: 'connection_accepted',
              leadUuid: row.lead_uuid,
              senderProfileUuid: row.sender_profile_uuid,
              occurredAt: row.respond_at,
              externalKey: `sandbox:${row.id}`,
            }
          : {
              kind: row.action === 'linkedin_send_inmail' ? 'linkedin_inmail_replied' : 'linkedin_replied',
              leadUuid: row.lead_uuid,
              senderProfileUuid: row.sender_profile_uuid,
              occurredAt: row.respond_at,
              externalKey: `sandbox:${row.id}`,
              payload: {
                message_uuid: newId(),
                text: REPLIES[uniformInt(0, REPLIES.length - 1, 'reply-text', row.id)],
                linkedin_type: row.action === 'linkedin_send_inmail' ? 'InMail' : 'MEMBER_TO_MEMBER',
              },
            };
      byTeam.set(row.team_id, [...(byTeam.get(row.team_id) ?? []), signal]);
    }
    for (const [teamId, signals] of byTeam) await ingestSignalsIn(trx, teamId, now, signals);
    return due.rows.length;
  });
}

/** The earliest pending answer (the simulation jumps its clock there). */
export async function nextSandboxResponseAt(db: Database): Promise<Date | null> {
  const row = await sql<{ at: Date | null }>`
    select min(respond_at) as at from sandbox_linkedin_actions where responded_at is null and respond_at is not null
  `.execute(db);
  return row.rows[0]?.at ?? null;
}
