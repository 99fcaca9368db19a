// Contact markers: per contact and sender profile, the counters and dates the hosted service shows on a
// contact (e-mails sent/received/opened/clicked, LinkedIn messages, connection dates). They move with
// the channel activities that record those facts (activityCtes), so they are never counted on read and
// never disagree with the timeline.
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** The activity types that move markers, by what they count. */
export const MARKER_ACTIVITY_TYPES = {
  emailSent: ['email_sent'],
  emailReceived: ['email_replied'],
  emailOpened: ['email_opened'],
  emailClicked: ['email_clicked'],
  connectionSent: ['linkedin_connection_request_sent'],
  connectionAccepted: ['linkedin_connection_request_accepted'],
  linkedinSent: ['linkedin_message_sent', 'linkedin_inmail_sent'],
  linkedinReceived: ['linkedin_message_replied', 'linkedin_inmail_replied'],
} as const;

const ALL = Object.values(MARKER_ACTIVITY_TYPES).flat();
const MESSAGING = [
  ...MARKER_ACTIVITY_TYPES.emailSent,
  ...MARKER_ACTIVITY_TYPES.emailReceived,
  ...MARKER_ACTIVITY_TYPES.linkedinSent,
  ...MARKER_ACTIVITY_TYPES.linkedinReceived,
];

const count = (types: readonly string[]) => sql`count(*) filter (where r.type = any(${types}::text[]))::int`;
const at = (fn: 'min' | 'max', types: readonly string[]) =>
  sql`${sql.raw(fn)}(r.created_at) filter (where r.type = any(${types}::text[]))`;

/**
 * The marker upsert for the activities of `source` (columns lead_uuid, type, payload, created_at): one
 * row per contact and sender (payload.sender_profile_uuid), counts added, dates kept first/last.
 */
export function markerUpsert(teamId: number, source: RawBuilder<unknown>): RawBuilder<unknown> {
  const m = MARKER_ACTIVITY_TYPES;
  return sql`
    insert into lead_markers as m (team_id, lead_uuid, sender_profile_uuid, email_sent_count, email_inbox_count,
      email_read_count, email_click_count, email_first_message_sent_at, email_last_message_sent_at,
      linkedin_last_connection_sent_at, linkedin_last_connection_accepted_at, linkedin_messages_sent_count,
      linkedin_messages_inbox_count, last_messaging_activity_at, updated_at)
    select ${teamId}, r.lead_uuid, (r.payload ->> 'sender_profile_uuid')::uuid,
      ${count(m.emailSent)}, ${count(m.emailReceived)}, ${count(m.emailOpened)}, ${count(m.emailClicked)},
      ${at('min', m.emailSent)}, ${at('max', m.emailSent)}, ${at('max', m.connectionSent)},
      ${at('max', m.connectionAccepted)}, ${count(m.linkedinSent)}, ${count(m.linkedinReceived)},
      ${at('max', MESSAGING)}, now()
    from ${source} r
    where r.lead_uuid is not null and r.type = any(${ALL}::text[])
      and r.payload ->> 'sender_profile_uuid' ~ '^[0-9a-fA-F-]{36}$'
    group by r.lead_uuid, (r.payload ->> 'sender_profile_uuid')::uuid
    on conflict (team_id, lead_uuid, sender_profile_uuid) do update set
      email_sent_count = m.email_sent_count + excluded.email_sent_count,
      email_inbox_count = m.email_inbox_count + excluded.email_inbox_count,
      email_read_count = m.email_read_count + excluded.email_read_count,
      email_click_count = m.email_click_count + excluded.email_click_count,
      email_first_message_sent_at = least(m.email_first_message_sent_at, excluded.email_first_message_sent_at),
      email_last_message_sent_at = greatest(m.email_last_message_sent_at, excluded.email_last_message_sent_at),
      linkedin_last_connection_sent_at =
        greatest(m.linkedin_last_connection_sent_at, excluded.linkedin_last_connection_sent_at),
      linkedin_last_connection_accepted_at =
        greatest(m.linkedin_last_connection_accepted_at, excluded.linkedin_last_connection_accepted_at),
      linkedin_messages_sent_count = m.linkedin_messages_sent_count + excluded.linkedin_messages_sent_count,
      linkedin_messages_inbox_count = m.linkedin_messages_inbox_count + excluded.linkedin_messages_inbox_count,
      last_messaging_activity_at = greatest(m.last_messaging_activity_at, excluded.last_messaging_activity_at),
      -- The inserted row's now(): Citus refuses a function in DO UPDATE SET.
      updated_at = excluded.updated_at
    returning 1`;
}

const MARKER_COUNTS = [
  'email_sent_count',
  'email_inbox_count',
  'email_read_count',
  'email_click_count',
  'linkedin_messages_sent_count',
  'linkedin_messages_inbox_count',
] as const;
const MARKER_TIMES = [
  'email_first_message_sent_at',
  'email_last_message_sent_at',
  'linkedin_last_connection_sent_at',
  'linkedin_last_connection_accepted_at',
  'linkedin_last_connection_lost_at',
  'last_messaging_activity_at',
] as const;

export type MarkerRow = { sender_profile_uuid: string | null } & Record<
  (typeof MARKER_COUNTS)[number],
  number
> &
  Record<(typeof MARKER_TIMES)[number], Date | null>;

/**
 * The contact's markers: one row per sender profile, then the aggregate row (sender_profile_uuid null:
 * counts summed, first dates the earliest, last dates the latest) - a contact has a few such rows.
 */
export async function selectLeadMarkers(
  db: Executor,
  teamId: number,
  leadUuid: string,
): Promise<MarkerRow[]> {
  const { rows } = await sql<MarkerRow>`
    select m.sender_profile_uuid, ${sql.join([...MARKER_COUNTS, ...MARKER_TIMES].map((f) => sql`m.${sql.ref(f)}`))}
    from lead_markers m where m.team_id = ${teamId} and m.lead_uuid = ${leadUuid}
    order by m.sender_profile_uuid
  `.execute(db);
  if (rows.length === 0) return [];
  const aggregate = { sender_profile_uuid: null } as MarkerRow;
  for (const field of MARKER_COUNTS) aggregate[field] = rows.reduce((sum, row) => sum + row[field], 0);
  for (const field of MARKER_TIMES) {
    const times = rows.flatMap((row) => (row[field] ? [new Date(row[field]).getTime()] : []));
    const pick = field === 'email_first_message_sent_at' ? Math.min : Math.max;
    aggregate[field] = times.length > 0 ? new Date(pick(...times)) : null;
  }
  return [...rows, aggregate];
}
