// What a seat sent, stored once: the messages, InMails and noted invitations flows sent (the engine's
// sent-actions hook), as automation "auto" in the transaction that records the actions' outcomes.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SentActionsHook } from '../channels/driver.js';
import { upsertConversations } from './linkedin-ingest.js';

export type AutomatedMessage = {
  taskUuid: string;
  flowUuid: string | null;
  senderUuid: string;
  leadUuid: string;
  linkedinType: 'message' | 'InMail' | 'connection_note';
  text: string | null;
  subject: string | null;
  attachments: Array<{ uuid: string }>;
  remoteRef: string | null;
};

/**
 * The messages a flow sent (done LinkedIn message, InMail and noted invitation actions), stored as
 * automation "auto" in the transaction that records the actions' outcomes. Set-based: one statement
 * for the conversations of each sender, one for the messages; a task is stored once.
 */
export async function recordAutomatedMessages(
  trx: Executor,
  teamId: number,
  messages: AutomatedMessage[],
  now: Date,
) {
  if (messages.length === 0) return;
  const conversationOf = new Map<string, string>();
  for (const sender of new Set(messages.map((m) => m.senderUuid))) {
    const found = await upsertConversations(
      trx,
      teamId,
      sender,
      messages
        .filter((m) => m.senderUuid === sender)
        .map((m) => ({
          lead_uuid: m.leadUuid,
          conversation_hash: null,
          last_activity_at: now,
          synced: false,
        })),
      now,
    );
    for (const [lead, uuid] of found) conversationOf.set(`${sender}:${lead}`, uuid);
  }
  const rows = messages.map((m) => ({
    task_uuid: m.taskUuid,
    flow_uuid: m.flowUuid,
    sender_profile_uuid: m.senderUuid,
    lead_uuid: m.leadUuid,
    conversation_uuid: conversationOf.get(`${m.senderUuid}:${m.leadUuid}`) ?? null,
    linkedin_type: m.linkedinType,
    text: m.text,
    subject: m.subject,
    attachments: m.attachments.length > 0 ? m.attachments : null,
    message_hash: m.remoteRef,
  }));
  await sql`
    with ins as (
      insert into linkedin_messages (team_id, uuid, sender_profile_uuid, linkedin_conversation_uuid, lead_uuid,
        flow_uuid, task_uuid, message_hash, subject, text, attachments, type, automation, linkedin_type, status,
        taken_at, sent_at, created_at, updated_at)
      select ${teamId}, leadflow_uuid_v7(), v.sender_profile_uuid, v.conversation_uuid, v.lead_uuid, v.flow_uuid,
        v.task_uuid, v.message_hash, v.subject, v.text, v.attachments, 'outbox', 'auto', v.linkedin_type, 'done',
        ${now}, ${now}, ${now}, ${now}
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(task_uuid uuid, flow_uuid uuid,
        sender_profile_uuid uuid, lead_uuid uuid, conversation_uuid uuid, linkedin_type text, text text,
        subject text, attachments jsonb, message_hash text)
      -- An anti-join, not "not exists (...)": Citus refuses a correlated subquery beside a set-returning function.
      left join linkedin_messages m on m.team_id = ${teamId} and m.task_uuid = v.task_uuid
      where m.uuid is null
      on conflict (team_id, sender_profile_uuid, message_hash) where message_hash is not null do nothing
      returning linkedin_conversation_uuid
    )
    update linkedin_conversations c set event_count = c.event_count + n.n, updated_at = ${now}
    from (select linkedin_conversation_uuid as uuid, count(*)::int as n from ins
          where linkedin_conversation_uuid is not null group by 1) n
    where c.team_id = ${teamId} and c.uuid = n.uuid
  `.execute(trx);
}

/**
 * The LinkedIn channel's record of what flows sent (the engine's sent-actions hook, given by the
 * composition root): done messages, InMails and invitations with a note, stored as automation "auto".
 */
export const recordSentLinkedInMessages: SentActionsHook = (trx, teamId, sent, now) =>
  recordAutomatedMessages(
    trx,
    teamId,
    sent
      .filter(
        (d) =>
          d.senderProfileUuid &&
          (d.request.type === 'linkedin_send_message' ||
            d.request.type === 'linkedin_send_inmail' ||
            (d.request.type === 'linkedin_send_connection_request' && d.request.text)),
      )
      .map(({ taskUuid, flowUuid, senderProfileUuid, leadUuid, request, outcome }) => ({
        taskUuid,
        flowUuid,
        senderUuid: senderProfileUuid as string,
        leadUuid,
        linkedinType:
          request.type === 'linkedin_send_inmail'
            ? 'InMail'
            : request.type === 'linkedin_send_connection_request'
              ? 'connection_note'
              : 'message',
        text: request.text,
        subject: request.type === 'linkedin_send_inmail' ? request.subject : null,
        attachments: request.attachments,
        remoteRef:
          outcome.ok && outcome.remoteRef && outcome.remoteRef !== 'reconciled' ? outcome.remoteRef : null,
      })),
    now,
  );
