// Storing what a seat's inbox shows (the sync), once; what the seat sent: linkedin-sent.ts.
// Set-based: a page of inbox items is matched to contacts in one statement, their conversations
// upserted in one, the messages inserted in one (ON CONFLICT DO NOTHING on the remote id: a message
// is stored once whatever the retries), and only the messages that were new become signals - replies
// and acceptances go through the engine's signal path (triggers, stop rule, events) in one call.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { InboxItem } from '../channels/inbox.js';
import { type IncomingSignal, ingestSignalsIn } from '../engine/index.js';

export type IngestResult = { items: number; stored: number; replies: number; accepted: number; read: number };

type Matched = { i: number; lead_uuid: string | null };

/** The contact of each item: the channel's hint if it is a contact of the team, else by LinkedIn identifiers. */
async function matchContacts(
  trx: Executor,
  teamId: number,
  items: InboxItem[],
): Promise<Array<string | null>> {
  const rows = items.map((item, i) => ({
    i,
    lead_uuid: item.leadUuid ?? null,
    ln_member_id: item.member.ln_member_id ?? null,
    ln_id: item.member.ln_id ?? null,
    sn_id: item.member.sn_id ?? null,
    linkedin: item.member.linkedin?.toLowerCase() ?? null,
  }));
  const result = await sql<Matched>`
    select v.i, coalesce(
      (select l.uuid from leads l where v.lead_uuid is not null and l.team_id = ${teamId} and l.uuid = v.lead_uuid),
      (select l.uuid from leads l
        where v.ln_member_id is not null and l.team_id = ${teamId} and l.ln_member_id = v.ln_member_id),
      (select l.uuid from leads l where v.ln_id is not null and l.team_id = ${teamId} and l.ln_id = v.ln_id),
      (select l.uuid from leads l where v.sn_id is not null and l.team_id = ${teamId} and l.sn_id = v.sn_id),
      (select l.uuid from leads l where v.linkedin is not null and l.team_id = ${teamId} and l.linkedin = v.linkedin)
    ) as lead_uuid
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as v(i int, lead_uuid uuid, ln_member_id bigint, ln_id text, sn_id text, linkedin text)
  `.execute(trx);
  const leads: Array<string | null> = new Array(items.length).fill(null);
  for (const row of result.rows) leads[row.i] = row.lead_uuid;
  return leads;
}

/**
 * The conversation of each (sender, contact), created when missing, its activity moved on; returns
 * contact -> conversation uuid. One statement for any number of contacts.
 */
export async function upsertConversations(
  trx: Executor,
  teamId: number,
  senderUuid: string,
  rows: Array<{
    lead_uuid: string;
    conversation_hash: string | null;
    last_activity_at: Date;
    synced: boolean;
  }>,
  now: Date,
): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  // One row per contact (the latest activity, the first remote id).
  const byLead = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const seen = byLead.get(row.lead_uuid);
    if (!seen) byLead.set(row.lead_uuid, { ...row });
    else {
      if (row.last_activity_at > seen.last_activity_at) seen.last_activity_at = row.last_activity_at;
      seen.conversation_hash ??= row.conversation_hash;
      seen.synced ||= row.synced;
    }
  }
  const result = await sql<{ uuid: string; lead_uuid: string }>`
    insert into linkedin_conversations as c (team_id, uuid, sender_profile_uuid, lead_uuid, conversation_hash,
      ln_id, ln_member_id, sn_id, lead_nickname, last_activity_at, last_msg_sync_at, created_at, updated_at)
    select ${teamId}, leadflow_uuid_v7(), ${senderUuid}, v.lead_uuid, v.conversation_hash,
      l.ln_id, l.ln_member_id, l.sn_id, l.linkedin, v.last_activity_at,
      case when v.synced then ${now}::timestamptz end, ${now}, ${now}
    from jsonb_to_recordset(${JSON.stringify([...byLead.values()])}::jsonb)
      as v(lead_uuid uuid, conversation_hash text, last_activity_at timestamptz, synced boolean)
    join leads l on l.team_id = ${teamId} and l.uuid = v.lead_uuid
    on conflict (team_id, sender_profile_uuid, lead_uuid) do update set
      conversation_hash = coalesce(c.conversation_hash, excluded.conversation_hash),
      last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at),
      last_msg_sync_at = coalesce(excluded.last_msg_sync_at, c.last_msg_sync_at),
      updated_at = excluded.updated_at
    returning c.uuid, c.lead_uuid
  `.execute(trx);
  return new Map(result.rows.map((r) => [r.lead_uuid, r.uuid]));
}

type Inserted = {
  uuid: string;
  lead_uuid: string | null;
  type: 'inbox' | 'outbox';
  linkedin_type: string;
  text: string | null;
  subject: string | null;
  sent_at: Date;
  message_hash: string;
};

/**
 * From when a listed connection counts as an accepted invitation. A browser seat reads LinkedIn's
 * connections page, which also lists people who connected long before the seat existed (or who invited the
 * account): only connections made since the seat was created can answer its invitations. The sandbox lists
 * acceptances of its own invitations only (null: every one counts).
 */
async function acceptancesCountSince(
  trx: Executor,
  teamId: number,
  senderUuid: string,
  items: InboxItem[],
): Promise<Date | null> {
  if (!items.some((item) => item.kind === 'accepted')) return null;
  const seat = await trx
    .selectFrom('linkedin_browsers')
    .select(['driver', 'created_at'])
    .where('team_id', '=', teamId)
    .where('sender_profile_uuid', '=', senderUuid)
    .orderBy('id')
    .executeTakeFirst();
  return seat && seat.driver !== 'sandbox' ? seat.created_at : null;
}

/** Stores one page of a seat's inbox; new replies and acceptances become signals. Caller's transaction. */
export async function ingestInbox(
  trx: Executor,
  teamId: number,
  senderUuid: string,
  all: InboxItem[],
  now: Date,
): Promise<IngestResult> {
  const result: IngestResult = { items: all.length, stored: 0, replies: 0, accepted: 0, read: 0 };
  if (all.length === 0) return result;
  // Messages stored before (a re-read page) are left out at once: one index lookup for the page.
  const ids = all.flatMap((item) => (item.kind === 'message' ? [item.id] : []));
  const known = new Set(
    ids.length > 0
      ? (
          await trx
            .selectFrom('linkedin_messages')
            .select('message_hash')
            .where('team_id', '=', teamId)
            .where('sender_profile_uuid', '=', senderUuid)
            .where('message_hash', 'in', ids)
            .execute()
        ).map((r) => r.message_hash)
      : [],
  );
  const items = all.filter((item) => item.kind !== 'message' || !known.has(item.id));
  if (items.length === 0) return result;
  const leads = await matchContacts(trx, teamId, items);

  const messages = items.flatMap((item, i) =>
    item.kind === 'message' ? [{ item, lead: leads[i] ?? null }] : [],
  );
  const conversations = await upsertConversations(
    trx,
    teamId,
    senderUuid,
    messages.flatMap(({ item, lead }) =>
      lead
        ? [
            {
              lead_uuid: lead,
              conversation_hash: item.conversationId,
              last_activity_at: item.sentAt,
              synced: true,
            },
          ]
        : [],
    ),
    now,
  );
  const rows = messages.map(({ item, lead }) => ({
    message_hash: item.id,
    lead_uuid: lead,
    conversation_uuid: lead ? (conversations.get(lead) ?? null) : null,
    type: item.direction,
    linkedin_type: item.linkedinType,
    text: item.text,
    subject: item.subject,
    sent_at: item.sentAt,
  }));
  let inserted: Inserted[] = [];
  if (rows.length > 0) {
    const stored = await sql<Inserted>`
      with ins as (
        insert into linkedin_messages (team_id, uuid, sender_profile_uuid, linkedin_conversation_uuid, lead_uuid,
          message_hash, subject, text, type, automation, linkedin_type, status, sent_at, created_at, updated_at)
        select ${teamId}, leadflow_uuid_v7(), ${senderUuid}, v.conversation_uuid, v.lead_uuid, v.message_hash,
          v.subject, v.text, v.type, 'synced', v.linkedin_type, 'done', v.sent_at, ${now}, ${now}
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(message_hash text, lead_uuid uuid,
          conversation_uuid uuid, type text, linkedin_type text, text text, subject text, sent_at timestamptz)
        on conflict (team_id, sender_profile_uuid, message_hash) where message_hash is not null do nothing
        returning uuid, lead_uuid, linkedin_conversation_uuid, type, linkedin_type, text, subject, sent_at, message_hash
      ),
      counted as (
        -- Messages the contact sent are unread until someone marks them read (contact_mark_read).
        update linkedin_conversations c set event_count = c.event_count + n.n,
          unread_count = c.unread_count + n.inbox,
          last_stored_message_at = greatest(c.last_stored_message_at, n.last), updated_at = ${now}
        from (select linkedin_conversation_uuid as uuid, count(*)::int as n,
                count(*) filter (where type = 'inbox')::int as inbox, max(sent_at) as last from ins
              where linkedin_conversation_uuid is not null group by 1) n
        where c.team_id = ${teamId} and c.uuid = n.uuid
        returning 1
      )
      select uuid, lead_uuid, type, linkedin_type, text, subject, sent_at, message_hash from ins
    `.execute(trx);
    inserted = stored.rows;
  }
  result.stored = inserted.length;

  const signals: IncomingSignal[] = [];
  for (const message of inserted) {
    if (message.type !== 'inbox' || !message.lead_uuid) continue;
    const inmail = message.linkedin_type.toLowerCase() === 'inmail';
    signals.push({
      kind: inmail ? 'linkedin_inmail_replied' : 'linkedin_replied',
      leadUuid: message.lead_uuid,
      senderProfileUuid: senderUuid,
      occurredAt: new Date(message.sent_at),
      externalKey: `linkedin-message:${senderUuid}:${message.message_hash}`,
      payload: {
        message_uuid: message.uuid,
        text: message.text,
        subject: message.subject,
        linkedin_type: message.linkedin_type,
      },
    });
  }
  result.replies = signals.length;
  const acceptedSince = await acceptancesCountSince(trx, teamId, senderUuid, items);
  items.forEach((item, i) => {
    const lead = leads[i];
    if (item.kind !== 'accepted' || !lead) return;
    if (acceptedSince && item.at < acceptedSince) return;
    result.accepted += 1;
    signals.push({
      kind: 'connection_accepted',
      leadUuid: lead,
      senderProfileUuid: senderUuid,
      occurredAt: item.at,
      // One acceptance per sender and contact, however often the channel lists it.
      externalKey: `linkedin-accepted:${senderUuid}:${lead}`,
      payload: { full_name: item.member.full_name ?? null, nickname: item.member.linkedin ?? null },
    });
  });
  await ingestSignalsIn(trx, teamId, now, signals);
  result.read = await markRead(
    trx,
    teamId,
    senderUuid,
    items.flatMap((item, i) =>
      item.kind === 'seen' && leads[i] ? [{ lead_uuid: leads[i], at: item.at }] : [],
    ),
    now,
  );
  return result;
}

/**
 * Read receipts: the seat's sent messages to each contact up to the time the contact read the
 * conversation get that `read_at` (only once: a message already read keeps its time). One statement.
 */
async function markRead(
  trx: Executor,
  teamId: number,
  senderUuid: string,
  receipts: Array<{ lead_uuid: string; at: Date }>,
  now: Date,
): Promise<number> {
  if (receipts.length === 0) return 0;
  const updated = await sql`
    update linkedin_messages m set read_at = v.at, updated_at = ${now}
    from (select lead_uuid, max(at) as at
          from jsonb_to_recordset(${JSON.stringify(receipts)}::jsonb) as r(lead_uuid uuid, at timestamptz)
          group by 1) v
    where m.team_id = ${teamId} and m.lead_uuid = v.lead_uuid and m.sender_profile_uuid = ${senderUuid}
      and m.type = 'outbox' and m.status = 'done' and m.read_at is null and m.sent_at <= v.at
  `.execute(trx);
  return Number(updated.numAffectedRows ?? 0);
}
