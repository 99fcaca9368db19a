// The sandbox network's inbox: what its members answered a sandbox seat (replies, accepted
// invitations; written by sandbox-responder.ts), read in order with the row id as cursor - the way a
// real seat's inbox is read by the sync. Tests and the bench add messages here too.
import type { Database, Executor } from '../../../db/database.js';
import type { InboxItem, InboxMember, LinkedInInbox } from '../../channels/inbox.js';

export type SandboxInboxRow = {
  team_id: number;
  sender_profile_uuid: string;
  lead_uuid: string | null;
  kind: 'message' | 'accepted';
  conversation_id: string | null;
  member: InboxMember;
  text: string | null;
  subject: string | null;
  linkedin_type: string | null;
  occurred_at: Date;
};

/** Adds answers to the sandbox inbox (one insert); returns their ids, in order. */
export async function addToSandboxInbox(db: Executor, rows: SandboxInboxRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('sandbox_linkedin_inbox')
    .values(
      rows.map((r) => ({
        team_id: r.team_id,
        sender_profile_uuid: r.sender_profile_uuid,
        lead_uuid: r.lead_uuid,
        kind: r.kind,
        conversation_id: r.conversation_id,
        member: JSON.stringify(r.member) as unknown as Record<string, unknown>,
        text: r.text,
        subject: r.subject,
        linkedin_type: r.linkedin_type,
        occurred_at: r.occurred_at,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => Number(r.id));
}

/** The id a sandbox inbox row has on "LinkedIn" (what the sync stores it under). */
export const sandboxInboxItemId = (id: number) => `sandbox-inbox:${id}`;

export function toInboxItem(row: SandboxInboxRow & { id: number }): InboxItem {
  const id = sandboxInboxItemId(Number(row.id));
  if (row.kind === 'accepted') {
    return { kind: 'accepted', id, member: row.member, leadUuid: row.lead_uuid, at: row.occurred_at };
  }
  return {
    kind: 'message',
    id,
    conversationId: row.conversation_id,
    direction: 'inbox',
    member: row.member,
    leadUuid: row.lead_uuid,
    text: row.text,
    subject: row.subject,
    linkedinType: row.linkedin_type ?? 'MEMBER_TO_MEMBER',
    sentAt: row.occurred_at,
  };
}

export function createSandboxInbox(db: Database): LinkedInInbox {
  return {
    name: 'sandbox',
    async readSince(context, cursor, limit) {
      const after = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
      const rows = await db
        .selectFrom('sandbox_linkedin_inbox')
        .selectAll()
        .where('team_id', '=', context.teamId)
        .where('sender_profile_uuid', '=', context.senderProfileUuid)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        ok: true,
        value: {
          items: page.map((r) => toInboxItem(r as unknown as SandboxInboxRow & { id: number })),
          cursor: last ? String(last.id) : cursor,
          hasMore: rows.length > limit,
        },
      };
    },
  };
}
