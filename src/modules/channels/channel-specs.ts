// One entry per channel: what the dispatcher, the sender pauses and limits, the outcome recording and
// the signals read about it instead of writing the channel out in their SQL and maps. A new channel is a
// driver (channels/driver.ts), one entry here, its action nodes (engine/nodes/) and its sender pause
// reasons.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { SignalKind } from '../engine/engine.tables.js';
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
  /**
   * The default limits of the channel's actions (senders/sender-limits.ts), in the order the API lists
   * them: per local day, the most an override may ask for, and for some a cap over a rolling week. An
   * action without an entry counts against another's (engine/limits.ts).
   */
  limits: Partial<Record<ActionType, ActionLimits>>;
  /**
   * What a signal the channel brings does (engine/signals.ts): the event it records; the conversion it
   * credits to the latest done action of `types` (kind); `reply`: the stop rule applies; `stopsActions`:
   * the contact's planned actions of the channel are skipped, with that code. The triggers a signal wakes
   * are the trigger nodes' own (engine/nodes/triggers.ts).
   */
  signals: Partial<Record<SignalKind, SignalSpec>>;
};

export type ActionLimits = { daily: number; maxDaily: number; weekly?: { default: number; max: number } };

export type SignalSpec = {
  event: EventName;
  conversion?: { kind: string; types: readonly ActionType[] };
  reply?: boolean;
  stopsActions?: string;
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
  // Connection requests, messages, InMails and visits are what careful LinkedIn tools ship (about 20 / 40
  // / 10 / 50); likes, endorsements and withdrawals sit in the published ranges; LinkedIn's own invitation
  // limit is about 100 a week. Above the maxima accounts get restricted. A comment counts as a like.
  limits: {
    linkedin_send_connection_request: { daily: 20, maxDaily: 100, weekly: { default: 100, max: 300 } },
    linkedin_send_message: { daily: 40, maxDaily: 250 },
    linkedin_send_inmail: { daily: 10, maxDaily: 100 },
    linkedin_visit_profile: { daily: 50, maxDaily: 500 },
    linkedin_like_latest_post: { daily: 20, maxDaily: 200 },
    linkedin_endorse_skills: { daily: 15, maxDaily: 200 },
    linkedin_withdraw_connection_request: { daily: 30, maxDaily: 200 },
  },
  signals: {
    connection_accepted: {
      event: 'contact_accepted_linkedin_connection_request',
      conversion: { kind: 'accepted', types: ['linkedin_send_connection_request'] },
    },
    linkedin_replied: {
      event: 'contact_replied_linkedin_message',
      conversion: { kind: 'replied', types: ['linkedin_send_message', 'linkedin_send_connection_request'] },
      reply: true,
    },
    linkedin_inmail_replied: {
      event: 'contact_replied_linkedin_inmail',
      conversion: { kind: 'replied', types: ['linkedin_send_inmail'] },
      reply: true,
    },
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
  // The 30-50 a day per mailbox cold-e-mail tools advise; Google Workspace stops at 2,000.
  limits: { email_send_message: { daily: 40, maxDaily: 2000 } },
  signals: {
    email_replied: {
      event: 'contact_replied_email',
      conversion: { kind: 'replied', types: ['email_send_message'] },
      reply: true,
    },
    email_opened: {
      event: 'contact_opened_email',
      conversion: { kind: 'opened', types: ['email_send_message'] },
    },
    link_clicked: {
      event: 'contact_clicked_email',
      conversion: { kind: 'clicked', types: ['email_send_message'] },
    },
    // After these the contact gets no more e-mail.
    email_unsubscribed: { event: 'contact_unsubscribed_email', stopsActions: 'email_unsubscribed' },
    email_bounced: {
      event: 'email_bounced',
      conversion: { kind: 'bounced', types: ['email_send_message'] },
      stopsActions: 'email_bounced',
    },
  },
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

/** What a signal of `kind` does, and the channel it belongs to, if any. */
export function signalOf(kind: SignalKind): (SignalSpec & { spec: ChannelSpec }) | undefined {
  for (const spec of SPECS) {
    const signal = spec.signals[kind];
    if (signal) return { ...signal, spec };
  }
  return undefined;
}

/** The signal kinds that are replies (the stop rule applies), in the order of the specs. */
export const REPLY_KINDS: readonly SignalKind[] = SPECS.flatMap((spec) =>
  (Object.entries(spec.signals) as Array<[SignalKind, SignalSpec]>)
    .filter(([, s]) => s.reply)
    .map(([k]) => k),
);
