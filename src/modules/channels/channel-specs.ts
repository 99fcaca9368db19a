// One entry per channel: what the dispatcher, the sender pauses and the outcome recording read about
// it instead of writing the channel out in their SQL and maps. A new channel is a driver (channels/
// driver.ts), one entry here, its action nodes (engine/nodes/) and its sender pause reasons.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EventName } from '../events/events.catalog.js';
import { type ActionType, type Channel, EMAIL_ACTIONS, LINKEDIN_ACTIONS } from './driver.js';

export type ChannelSpec = {
  /** The action types (node types of the channel's action nodes). */
  actions: readonly ActionType[];
  /**
   * The channel's action tasks over alias `t`, written as the partial indexes of `tasks` state it
   * (migration 0600), so the planner keeps using them: change both together.
   */
  taskTypes: RawBuilder<SqlBool>;
  /** Why a sender's enrollments park on this channel, with what clears each. */
  pauseReasons: Readonly<Record<string, string>>;
  /** The event a done action raises, and the conversion channel it counts under. */
  sent: Partial<Record<ActionType, { event: EventName; channel: string }>>;
};

const LINKEDIN = {
  actions: LINKEDIN_ACTIONS,
  taskTypes: sql<SqlBool>`t.type like 'linkedin_%'`,
  pauseReasons: {
    no_linkedin_seat: 'a LinkedIn seat is created for the sender',
    seat_login_issue: 'the seat is logged in and running again',
  },
  sent: {
    linkedin_send_connection_request: {
      event: 'sender_profile_sent_linkedin_connection_request',
      channel: 'linkedin_connection_request',
    },
    linkedin_send_message: { event: 'sender_profile_sent_linkedin_message', channel: 'linkedin_message' },
    linkedin_send_inmail: { event: 'sender_profile_sent_linkedin_inmail', channel: 'linkedin_inmail' },
  },
} as const satisfies ChannelSpec;

const EMAIL = {
  actions: EMAIL_ACTIONS,
  taskTypes: sql<SqlBool>`t.type = 'email_send_message'`,
  pauseReasons: {
    no_mailbox: 'a mailbox is connected to the sender',
    mailbox_unavailable: 'the mailbox is active again',
  },
  sent: { email_send_message: { event: 'sender_profile_sent_email', channel: 'email' } },
} as const satisfies ChannelSpec;

export const CHANNEL_SPECS: { readonly linkedin: typeof LINKEDIN; readonly email: typeof EMAIL } = {
  linkedin: LINKEDIN,
  email: EMAIL,
} satisfies Record<Channel, ChannelSpec>;

const SPECS: ChannelSpec[] = Object.values(CHANNEL_SPECS);

/** Action tasks of any channel over alias `t` (the predicate of the tasks' dispatch indexes). */
export const ACTION_TASK_TYPES: RawBuilder<SqlBool> = sql<SqlBool>`(${sql.join(
  SPECS.map((spec) => spec.taskTypes),
  sql` or `,
)})`;

/** What a done action of `type` raises and counts, if anything. */
export function sentOf(type: ActionType): { event: EventName; channel: string } | undefined {
  for (const spec of SPECS) if (spec.sent[type]) return spec.sent[type];
  return undefined;
}
