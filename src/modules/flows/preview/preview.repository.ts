// The reads of a flow preview (preview.service.ts): senders, their seats and mailboxes, the contacts'
// signals and senders in other flows, the flow's contact source rotation, and which contacts a filter
// selects. A preview only reads.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';

export function selectSenders(db: Executor, teamId: number, uuids: string[]) {
  return db
    .selectFrom('sender_profiles')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
}

/** The seats (oldest first) and mailboxes of the senders. */
export function selectSeatsAndMailboxes(db: Executor, teamId: number, senders: string[]) {
  return Promise.all([
    db
      .selectFrom('linkedin_browsers')
      .select(['sender_profile_uuid', 'status'])
      .where('team_id', '=', teamId)
      .where('sender_profile_uuid', 'in', senders)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('mailboxes')
      .select(['sender_profile_uuid', 'status'])
      .where('team_id', '=', teamId)
      .where('sender_profile_uuid', 'in', senders)
      .execute(),
  ]);
}

export function selectSignals(db: Executor, teamId: number, leadUuids: string[]) {
  return db
    .selectFrom('lead_signals')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('lead_uuid', 'in', leadUuids)
    .execute();
}

/** The senders the contacts have in the team's other flows, newest enrollment first. */
export function selectOtherFlowSenders(
  db: Executor,
  teamId: number,
  flowUuid: string,
  leadUuids: string[],
  senders: string[],
) {
  return db
    .selectFrom('flow_leads')
    .select(['lead_uuid', 'sender_profile_uuid'])
    .where('team_id', '=', teamId)
    .where('lead_uuid', 'in', leadUuids)
    .where('sender_profile_uuid', 'in', senders)
    .where('flow_uuid', '<>', flowUuid)
    .orderBy('created_at', 'desc')
    .execute();
}

export function selectRotation(db: Executor, teamId: number, flowUuid: string) {
  return db
    .selectFrom('contact_source_rotation')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('flow_uuid', '=', flowUuid)
    .execute();
}

/** Which of the contacts `where` (a compiled contact filter, alias `l`; none: all) selects. */
export async function selectMatchingContacts(
  db: Executor,
  teamId: number,
  leads: string[],
  where: RawBuilder<SqlBool> | undefined,
): Promise<Set<string>> {
  const rows = await sql<{ uuid: string }>`
    select l.uuid from leads l
    where l.team_id = ${teamId} and l.uuid = any(${leads}::uuid[]) and ${where ?? sql<SqlBool>`true`}
  `.execute(db);
  return new Set(rows.rows.map((r) => r.uuid));
}
