// Outreach actions through the sender's channel (LinkedIn through a seat, e-mail through a mailbox): a
// visit renders the text, plans the task at the first open instant of the schedule and leaves it to
// the dispatcher (run/dispatch.ts), which executes it; the next visit reads the task's outcome.
import { type TSchema, Type } from 'typebox';
import { nextOpenInstant } from '../../../lib/schedule.js';
import { channelOf, isActionType, TEXT_ACTIONS } from '../../channels/driver.js';
import type { ComposedAction } from '../render.js';
import type { BatchContext, Work, WorkStep } from '../run/work.js';
import { defineNode, type NodeDefinition, type NodeOf, type Reference } from './define.js';
import {
  closed,
  EMAIL_BODY_MAX,
  INMAIL_SUBJECT_MAX,
  LINEAR,
  LINKEDIN_TEXT_MAX,
  noPayload,
  nullable,
  one,
  opt,
  text,
  textFields,
  uuid,
} from './payload.js';

const templateUuid = opt(nullable(uuid('AI template rendered for each contact (instead of template)')));
const stopOnReply = opt(
  Type.String({
    maxLength: 64,
    description: 'When a reply stops the flow for the contact; observed: always',
  }),
);
const attachments = opt(
  Type.Array(
    Type.Union([uuid('Attachment UUID'), closed({ uuid: uuid('Attachment UUID') })], {
      description: 'An attachment UUID, or {"uuid": ...}',
    }),
    { maxItems: 10, description: 'Uploaded attachments sent with the message' },
  ),
);

type ActionPayload = {
  template?: string;
  subject?: string;
  fallback_send?: boolean;
  template_uuid?: string | null;
};

/** The saved AI template an action node composes its message from (`template_uuid`), if any. */
export function aiTemplateOf(node: { payload: { template_uuid?: unknown } }): string | undefined {
  const uuid = node.payload.template_uuid;
  return typeof uuid === 'string' && uuid !== '' ? uuid.toLowerCase() : undefined;
}

function attachmentRefs(payload: Record<string, unknown>): Reference[] {
  const list = Array.isArray(payload.attachments) ? payload.attachments : [];
  return list.flatMap((item, index) => {
    const value = typeof item === 'string' ? item : (item as { uuid?: unknown } | null)?.uuid;
    return typeof value === 'string'
      ? [{ kind: 'attachment' as const, uuid: value, path: `payload.attachments.${index}` }]
      : [];
  });
}

const withTemplate = (payload: Record<string, unknown>) => [
  ...one('ai_template', 'template_uuid')(payload),
  ...attachmentRefs(payload),
];

/** A text that cannot be sent fails the step, visibly: the task and the enrollment say why. */
function templateFailure(reason: string): WorkStep {
  return {
    type: 'end',
    status: 'failed',
    reason: 'template_error',
    outcome: { status: 'failed', automation_error_code: 'template_error', error_msg: reason },
  };
}

const isBlank = (value: string | null | undefined) => !value || value.trim() === '';
const written = (value: string | undefined) => typeof value === 'string' && value.trim() !== '';

/**
 * Why a rendered action has nothing to send, if it has not: a message, InMail, comment or e-mail
 * without text, or a subject or connection note written in the node that rendered blank for this
 * contact (a note may go without its text when fallback_send says so; no subject at all is an e-mail
 * reply in its thread).
 */
function blankText(
  node: NodeOf<ActionPayload>,
  rendered: ComposedAction,
  fallbackSend: boolean,
): string | undefined {
  if (TEXT_ACTIONS.has(node.type) && isBlank(rendered.text)) {
    return written(node.payload.template) || aiTemplateOf(node)
      ? 'The text rendered empty for this contact; nothing was sent.'
      : 'The node has no text to send (payload.template or payload.template_uuid).';
  }
  if (aiTemplateOf(node)) return undefined;
  if (written(node.payload.template) && isBlank(rendered.text) && !fallbackSend) {
    return 'payload.template rendered empty for this contact and fallback_send is off; nothing was sent.';
  }
  if (written(node.payload.subject) && isBlank(rendered.subject)) {
    return 'payload.subject rendered empty for this contact; nothing was sent.';
  }
  return undefined;
}

/** The task's outcome, once the dispatcher has recorded it; a wait while it has not. */
function afterDispatch(work: Work, node: NodeOf<ActionPayload>, ctx: BatchContext): WorkStep {
  const task = work.task!;
  switch (task.status) {
    case 'closed':
    case 'skipped':
      return { type: 'advance', branch: 1 };
    case 'failed':
      return { type: 'end', status: 'failed', reason: task.automation_error_code ?? 'action_failed' };
    case 'canceled':
      return { type: 'end', status: 'canceled', reason: 'task_canceled' };
    default: {
      // Still the dispatcher's: keep waiting (a spurious wake-up).
      const channel = channelOf(node.type as never);
      return {
        type: 'wait',
        nextRunAt: null,
        wait: { kind: 'action', channel },
        dispatch: { channel, at: task.schedule_at ?? ctx.now },
      };
    }
  }
}

function runAction(work: Work, node: NodeOf<ActionPayload>, ctx: BatchContext): WorkStep {
  if (work.task) return afterDispatch(work, node, ctx);
  const senderUuid = work.fl.sender_profile_uuid;
  if (!senderUuid) return { type: 'need', need: { kind: 'sender' } };
  const sender = ctx.senders.get(senderUuid);
  if (!sender) {
    // The sender was deleted since it was assigned: rotate again.
    work.fl.sender_profile_uuid = null;
    return { type: 'need', need: { kind: 'sender' } };
  }
  if (sender.status !== 'enabled') return { type: 'pause', reason: 'sender_disabled' };
  const { schedule, zone } = ctx.scheduleOf(work);
  const planned = nextOpenInstant(schedule, ctx.now, zone);
  if (!planned) return { type: 'pause', reason: 'schedule_has_no_window' };
  const aiTemplate = aiTemplateOf(node);
  const rendered = aiTemplate ? ctx.composed.get(`${work.fl.uuid}:${node.id}`) : ctx.render(work, node);
  if (!rendered) return { type: 'need', need: { kind: 'message', node } };
  if (rendered.error) return templateFailure(rendered.error);
  const fallbackSend = node.payload.fallback_send === true;
  if (rendered.missing.length > 0 && !fallbackSend) {
    return {
      type: 'advance',
      branch: 1,
      outcome: {
        status: 'skipped',
        automation_error_code: 'missing_variables',
        error_msg: `The template uses values this contact does not have (${rendered.missing.join(', ')}) and fallback_send is off.`,
      },
    };
  }
  const blank = blankText(node, rendered, fallbackSend);
  if (blank) return templateFailure(blank);
  const channel = channelOf(node.type as never);
  return {
    type: 'wait',
    nextRunAt: null,
    wait: { kind: 'action', channel },
    dispatch: { channel, at: planned },
    task: {
      schedule_at: planned,
      timezone: zone,
      sender_profile_uuid: senderUuid,
      payload: {
        ...node.payload,
        template: node.payload.template ?? null,
        rendered_text: isBlank(rendered.text) ? null : rendered.text,
        rendered_subject: rendered.subject,
        missing_variables: rendered.missing,
        ...(aiTemplate
          ? { message_source: rendered.source ?? null, message_note: rendered.note ?? null }
          : {}),
      },
    },
  };
}

/** A message, InMail, comment or e-mail carries its text or an AI template. */
function textRequired(payload: ActionPayload) {
  const hasText = typeof payload.template === 'string' && payload.template.trim() !== '';
  return !hasText && !payload.template_uuid
    ? [
        {
          field: 'payload.template',
          message: 'payload.template (the text) or payload.template_uuid (an AI template) is required.',
        },
      ]
    : [];
}

function action<P extends TSchema>(
  type: string,
  description: string,
  payload: P,
  extra: Pick<NodeDefinition<P>, 'references' | 'texts'> = {},
): NodeDefinition<P> {
  if (!isActionType(type)) throw new Error(`${type} is not an action of a channel (channels/driver.ts)`);
  return defineNode<P>({
    types: { [type]: description },
    category: 'action',
    branches: LINEAR,
    needs: ['sender', 'message'],
    payload,
    ...extra,
    ...(TEXT_ACTIONS.has(type) ? { rules: textRequired as NodeDefinition<P>['rules'] } : {}),
    run: runAction,
  });
}

const linkedinText = (description: string) => opt(text(LINKEDIN_TEXT_MAX, description));
const templateTexts = { references: withTemplate, texts: textFields('template') };

const CONNECTION_REQUEST = action(
  'linkedin_send_connection_request',
  'Sends a LinkedIn connection request, with a note when template is set',
  closed({
    template: linkedinText('Note text (Liquid template)'),
    fallback_send: opt(Type.Boolean({ description: 'Send without the note when the note cannot be sent' })),
    template_uuid: templateUuid,
  }),
  templateTexts,
);

const LINKEDIN_ACTIONS = [
  CONNECTION_REQUEST,
  action(
    'linkedin_send_message',
    'Sends a LinkedIn message',
    closed({
      template: linkedinText('Message text (Liquid template)'),
      attachments,
      template_uuid: templateUuid,
      stop_on_reply_level: stopOnReply,
    }),
    templateTexts,
  ),
  action(
    'linkedin_send_inmail',
    'Sends a LinkedIn InMail',
    closed({
      subject: opt(text(INMAIL_SUBJECT_MAX, 'InMail subject')),
      template: linkedinText('InMail text (Liquid template)'),
      attachments,
      template_uuid: templateUuid,
      stop_on_reply_level: stopOnReply,
    }),
    { references: withTemplate, texts: textFields('subject', 'template') },
  ),
  action('linkedin_visit_profile', "Visits the contact's LinkedIn profile", noPayload),
  action('linkedin_like_latest_post', "Likes the contact's latest LinkedIn post", noPayload),
  action(
    'linkedin_comment_latest_post',
    "Comments on the contact's latest LinkedIn post",
    closed({ template: linkedinText('Comment text (Liquid template)'), template_uuid: templateUuid }),
    templateTexts,
  ),
  action(
    'linkedin_endorse_skills',
    "Endorses the contact's skills",
    closed({
      number: opt(Type.Integer({ minimum: 1, maximum: 50, description: 'How many skills to endorse' })),
    }),
  ),
  action(
    'linkedin_withdraw_connection_request',
    'Withdraws a pending connection request',
    closed({
      note: opt(nullable(text(LINKEDIN_TEXT_MAX, 'Note'))),
      withdraw_key: opt(nullable(text(255, 'Which request to withdraw'))),
    }),
  ),
];

const EMAIL_ACTIONS = [
  action(
    'email_send_message',
    'Sends an e-mail from the sender profile mailbox',
    closed({
      subject: opt(text(998, 'Subject (Liquid template); empty replies in the thread of the last e-mail')),
      template: opt(text(EMAIL_BODY_MAX, 'Body, HTML (Liquid template)')),
      add_history: opt(
        Type.Union([Type.Literal(0), Type.Literal(1), Type.Boolean()], {
          description: 'Quote the earlier e-mails of the thread',
        }),
      ),
      attachments,
      email_field: opt(
        Type.Union([Type.Literal('work_email'), Type.Literal('personal_email'), Type.Literal('')], {
          description: 'Address to use; "" = work e-mail, else personal',
        }),
      ),
      cc: opt(
        Type.Array(
          closed({
            to_name: opt(nullable(text(255, 'Name'))),
            to_email: Type.String({ format: 'email', maxLength: 320, description: 'Address' }),
          }),
          { maxItems: 20, description: 'Copies' },
        ),
      ),
      template_uuid: templateUuid,
      stop_on_reply_level: stopOnReply,
    }),
    { references: withTemplate, texts: textFields('subject', 'template') },
  ),
];

export const ACTION_NODES = [...LINKEDIN_ACTIONS, ...EMAIL_ACTIONS];
