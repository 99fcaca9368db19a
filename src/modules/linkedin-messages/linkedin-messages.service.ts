// The LinkedIn messages API: list (bracket filters), queue a message to send through the sender's seat
// (sent by a job: linkedin-send.ts), delete a record; and the conversations list.
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { toGroupCounts } from '../../lib/group-counts.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import type { AiTemplatesService } from '../ai-templates/ai-templates.service.js';
import { enqueueSend } from './linkedin-messages.jobs.js';
import * as repo from './linkedin-messages.repository.js';
import type { SendLinkedInMessageBody, WireLinkedInMessage } from './linkedin-messages.schemas.js';

type ListParams = PageParams & { filter?: unknown };

export function presentMessage(row: repo.LinkedInMessageRow): WireLinkedInMessage {
  return {
    uuid: row.uuid,
    team_id: Number(row.team_id),
    sender_profile_uuid: row.sender_profile_uuid,
    linkedin_account_uuid: row.sender_profile_uuid,
    linkedin_conversation_uuid: row.linkedin_conversation_uuid,
    lead_uuid: row.lead_uuid,
    task_pipeline_uuid: row.task_uuid,
    flow_uuid: row.flow_uuid,
    template_uuid: row.template_uuid,
    message_hash: row.message_hash,
    subject: row.subject,
    text: row.text,
    custom_content: null,
    attachments: row.attachments,
    type: row.type,
    automation: row.automation,
    linkedin_type: row.linkedin_type,
    status: row.status,
    fail_reason: row.fail_reason,
    read_at: row.read_at as unknown as string | null,
    sent_at: row.sent_at as unknown as string | null,
    user_id: row.user_id === null ? null : Number(row.user_id),
    created_at: row.created_at as unknown as string,
    updated_at: row.updated_at as unknown as string,
  };
}

function presentConversation(row: repo.LinkedInConversationRow) {
  return {
    ...row,
    id: Number(row.id),
    team_id: Number(row.team_id),
    ln_member_id: row.ln_member_id === null ? null : Number(row.ln_member_id),
    linkedin_account_uuid: row.sender_profile_uuid,
    group_context: null,
    need_to_sync: false,
  };
}

const NOTE_MAX = 300;

export function createLinkedInMessagesService(deps: {
  db: Database;
  clock: Clock;
  aiTemplates: AiTemplatesService;
}) {
  const { db } = deps;

  return {
    async listMessages(teamId: number, params: ListParams) {
      const page = resolvePage(params, repo.messageSort);
      const { rows, total } = await repo.selectMessages(db, teamId, params.filter, page);
      return envelope(rows.map(presentMessage), total, page);
    },

    async listConversations(teamId: number, params: ListParams) {
      const page = resolvePage(params, repo.conversationSort);
      const { rows, total } = await repo.selectConversations(db, teamId, params.filter, page);
      return envelope(rows.map(presentConversation), total, page);
    },

    /** A failed message queued again: back to new, sent by the same job as a fresh one. */
    async retryMessage(teamId: number, uuid: string) {
      const row = await db.transaction().execute(async (trx) => {
        const requeued = await repo.requeueFailedMessage(trx, teamId, uuid, deps.clock.now());
        if (requeued) await enqueueSend(trx, requeued);
        return requeued;
      });
      if (row) return presentMessage(row);
      const current = await repo.selectMessage(db, teamId, uuid);
      if (!current) throw notFound('LinkedIn message');
      if (current.status === 'failed') {
        throw invalidField(
          'status',
          'status: this message failed with unknown_outcome - it may already have gone out, so it is never sent again; queue a new message if you are sure it did not.',
        );
      }
      throw invalidField(
        'status',
        `status: only a failed message can be retried (this one is ${current.status}); retryable statuses: failed.`,
      );
    },

    /** Messages per status, type or sender among those matching the filter (one grouped query). */
    async groupCounts(teamId: number, input: { group_field: repo.MessageGroupField; filter?: unknown }) {
      return toGroupCounts(await repo.groupMessageCounts(db, teamId, input.group_field, input.filter));
    },

    async deleteMessage(teamId: number, uuid: string) {
      if (!(await repo.deleteMessage(db, teamId, uuid))) throw notFound('LinkedIn message');
    },

    /** Queues a message (status new); a job sends it through the sender's seat. */
    async queueMessage(auth: AuthContext, body: SendLinkedInMessageBody) {
      const teamId = auth.teamId;
      const [sender, lead] = await Promise.all([
        db
          .selectFrom('sender_profiles')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where('uuid', '=', body.sender_profile_uuid)
          .executeTakeFirst(),
        db
          .selectFrom('leads')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where('uuid', '=', body.lead_uuid)
          .executeTakeFirst(),
      ]);
      if (!sender) {
        throw invalidField(
          'sender_profile_uuid',
          `sender_profile_uuid: no sender profile of yours has the UUID ${body.sender_profile_uuid}.`,
        );
      }
      if (!lead)
        throw invalidField('lead_uuid', `lead_uuid: no contact of yours has the UUID ${body.lead_uuid}.`);
      const linkedinType = body.linkedin_type ?? 'message';
      const templateUuid = body.template_uuid ?? null;
      let text = body.text?.trim() ? body.text : null;
      let subject = body.subject ?? null;
      if (templateUuid) {
        const template = await db
          .selectFrom('ai_templates')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where('uuid', '=', templateUuid)
          .executeTakeFirst();
        if (!template)
          throw invalidField(
            'template_uuid',
            `template_uuid: no AI template of yours has the UUID ${templateUuid}.`,
          );
        if (text === null) {
          const composed = await deps.aiTemplates.renderAiTemplate(
            { teamId, userId: auth.userId },
            { uuid: templateUuid, lead_uuid: body.lead_uuid, sender_profile_uuid: body.sender_profile_uuid },
          );
          text = composed.final_body?.trim() ? composed.final_body : null;
          subject ??= composed.rendered_subject;
          if (text === null) {
            throw invalidField(
              'template_uuid',
              `template_uuid: the template composed no text for this contact${composed.handling_error ? ` (${composed.handling_error})` : ''}.`,
            );
          }
          if (text.length > 8000)
            throw invalidField(
              'template_uuid',
              'template_uuid: the composed text is longer than 8000 characters.',
            );
        }
      }
      if (text === null) throw invalidField('text', 'text is required (unless template_uuid composes it).');
      if (linkedinType === 'connection_note' && text.length > NOTE_MAX) {
        throw invalidField('text', `text: a connection note has at most ${NOTE_MAX} characters.`);
      }
      if (subject !== null && subject.length > 511)
        throw invalidField('subject', 'subject has at most 511 characters.');
      const attachments = body.attachments ?? [];
      if (attachments.length > 0) {
        const found = await db
          .selectFrom('attachments')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where(
            'uuid',
            'in',
            attachments.map((a) => a.uuid),
          )
          .execute();
        const known = new Set(found.map((f) => f.uuid));
        const missing = attachments.findIndex((a) => !known.has(a.uuid));
        if (missing >= 0) {
          throw new AppError(
            'validation_error',
            `attachments.${missing}.uuid: no attachment of yours has the UUID ${attachments[missing]!.uuid}.`,
            {
              [`attachments.${missing}.uuid`]: ['unknown attachment'],
            },
          );
        }
      }
      const now = deps.clock.now();
      const row = await db.transaction().execute(async (trx) => {
        const conversation = await trx
          .selectFrom('linkedin_conversations')
          .select('uuid')
          .where('team_id', '=', teamId)
          .where('sender_profile_uuid', '=', body.sender_profile_uuid)
          .where('lead_uuid', '=', body.lead_uuid)
          .executeTakeFirst();
        const inserted = await repo.insertManualMessage(
          trx,
          {
            team_id: teamId,
            uuid: newId(),
            sender_profile_uuid: body.sender_profile_uuid,
            lead_uuid: body.lead_uuid,
            user_id: auth.userId,
            template_uuid: templateUuid,
            subject: linkedinType === 'InMail' ? subject : null,
            text: text as string,
            attachments: attachments.length > 0 ? attachments.map((a) => ({ uuid: a.uuid })) : null,
            linkedin_type: linkedinType,
            linkedin_conversation_uuid: conversation?.uuid ?? null,
          },
          now,
        );
        await enqueueSend(trx, inserted);
        return inserted;
      });
      return presentMessage(row);
    },
  };
}

export type LinkedInMessagesService = ReturnType<typeof createLinkedInMessagesService>;
