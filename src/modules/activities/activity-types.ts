// The activity types Leadflow records itself (a user may record any other type, e.g. call or meeting),
// and which event of the channels becomes which activity. The first eleven are the hosted service's
// names; the others are ours for what it leaves unnamed.
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { ActivityInput } from './activities.repository.js';

export const SYSTEM_ACTIVITY_TYPES = {
  pipeline_stage_changed: 'The pipeline stage changed (payload: from, to; flow_uuid when a flow did it)',
  linkedin_message_sent:
    'A LinkedIn message was sent (payload: sender_profile_uuid, linkedin_message_uuid, text)',
  linkedin_message_replied: 'A LinkedIn message from the contact arrived',
  linkedin_connection_request_sent: 'A LinkedIn connection request was sent',
  linkedin_connection_request_accepted: 'The contact accepted a LinkedIn connection request',
  email_sent: 'An e-mail was sent (payload: sender_profile_uuid, email_uuid, subject)',
  email_replied: 'An e-mail from the contact arrived',
  email_opened: 'The contact opened an e-mail',
  email_clicked: 'The contact clicked a link of an e-mail',
  email_bounced: 'An e-mail to the contact bounced',
  contact_enriched: 'The contact (or company) was filled from LinkedIn',
  linkedin_inmail_sent: 'An InMail was sent',
  linkedin_inmail_replied: 'An InMail from the contact arrived',
  email_unsubscribed: 'The contact unsubscribed',
  list_changed: 'The contact moved to another list (payload: from, to)',
  tags_added: 'Tags were added (payload: tag_uuids)',
  tags_removed: 'Tags were removed (payload: tag_uuids)',
  flow_enrolled: 'The contact entered a flow (payload: flow_uuid, flow_lead_uuid, added_by)',
  flow_finished: 'The contact finished a flow (payload: flow_uuid, reason: completed, replied...)',
  flow_canceled: 'The contact was taken out of a flow (payload: flow_uuid, reason)',
  flow_failed: 'The contact\u2019s run through a flow failed (payload: flow_uuid, reason)',
  note_added: 'A note was written (payload: note_uuid, note)',
} as const;

export type SystemActivityType = keyof typeof SYSTEM_ACTIVITY_TYPES;

/** Events of the catalog (src/modules/events) that belong on a contact's timeline. */
const ACTIVITY_OF_EVENT: Record<string, SystemActivityType> = {
  sender_profile_sent_linkedin_connection_request: 'linkedin_connection_request_sent',
  sender_profile_sent_linkedin_message: 'linkedin_message_sent',
  sender_profile_sent_linkedin_inmail: 'linkedin_inmail_sent',
  sender_profile_sent_email: 'email_sent',
  contact_accepted_linkedin_connection_request: 'linkedin_connection_request_accepted',
  contact_replied_linkedin_message: 'linkedin_message_replied',
  contact_replied_linkedin_inmail: 'linkedin_inmail_replied',
  contact_replied_email: 'email_replied',
  contact_opened_email: 'email_opened',
  contact_clicked_email: 'email_clicked',
  contact_unsubscribed_email: 'email_unsubscribed',
  email_bounced: 'email_bounced',
  contact_enriched: 'contact_enriched',
};

export function activityOfEvent(name: string): SystemActivityType | undefined {
  return ACTIVITY_OF_EVENT[name];
}

/** An event as recorded: its name, contact, time and objects (sender_profile, automation, email...). */
export type EventFact = {
  name: string;
  lead_uuid: string | null;
  occurred_at: string | null;
  objects: Record<string, unknown>;
};

type Obj = Record<string, unknown> | null | undefined;

export function eventPayload(objects: Record<string, unknown>): Record<string, unknown> {
  const sender = objects.sender_profile as Obj;
  const automation = objects.automation as Obj;
  const message = objects.linkedin_message as Obj;
  const email = objects.email as Obj;
  return {
    sender_profile_uuid: sender?.uuid ?? null,
    ...(automation ? { flow_uuid: automation.uuid, flow_origin: 'automation' } : {}),
    ...(message
      ? {
          linkedin_message_uuid: message.uuid ?? null,
          linkedin_type: message.linkedin_type ?? null,
          subject: message.subject ?? null,
          text: message.text ?? null,
        }
      : {}),
    ...(email ? { email_uuid: email.uuid ?? null, subject: email.subject ?? null } : {}),
  };
}

/** The activities the given events record: one per event about a contact that belongs on a timeline. */
export function eventActivities(events: EventFact[]): ActivityInput[] {
  return events.flatMap((event) => {
    const type = activityOfEvent(event.name);
    if (!type || !event.lead_uuid) return [];
    return [
      {
        type,
        objectType: 'lead' as const,
        objectUuid: event.lead_uuid,
        payload: eventPayload(event.objects),
        createdAt: event.occurred_at,
      },
    ];
  });
}

/**
 * The select list of an activity source (see activityCtes) from SQL expressions: callers write
 * `select ${activityColumns({...})} from <their rows>`.
 */
export function activityColumns(columns: {
  objectType: 'lead' | 'company';
  objectUuid: RawBuilder<unknown>;
  type: string | RawBuilder<unknown>;
  companyUuid?: RawBuilder<unknown>;
  payload?: RawBuilder<unknown>;
  userId?: number | null;
  createdAt?: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  return sql`null::uuid as uuid, ${columns.objectType}::text as object_type, ${columns.objectUuid} as object_uuid,
    ${columns.companyUuid ?? sql`null::uuid`} as company_uuid, ${columns.type}::text as type,
    ${columns.payload ?? sql`'{}'::jsonb`} as payload, ${columns.userId ?? null}::bigint as user_id,
    ${columns.createdAt ?? sql`null::timestamptz`} as created_at`;
}

/** The activity of an enrollment that ended with `status` (finished, canceled, failed). */
export function flowEndActivityType(status: 'finished' | 'canceled' | 'failed'): SystemActivityType {
  return `flow_${status}`;
}

/** The payload of a flow activity (what enrollments record: entering, finishing, leaving a flow). */
export const flowActivityPayload = (columns: {
  flowUuid: RawBuilder<unknown>;
  flowLeadUuid: RawBuilder<unknown>;
  reason?: RawBuilder<unknown>;
  addedBy?: RawBuilder<unknown>;
}) =>
  sql`jsonb_strip_nulls(jsonb_build_object('flow_uuid', ${columns.flowUuid}, 'flow_lead_uuid', ${columns.flowLeadUuid},
    'reason', ${columns.reason ?? sql`null::text`}, 'added_by', ${columns.addedBy ?? sql`null::text`}))`;
