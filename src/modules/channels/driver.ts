// The one interface between the engine and the outside world. A channel driver does an action for a
// sender (an invitation, a message, an e-mail...), tells afterwards whether an action happened (for
// the never-twice rule after a crash), and reports what it cannot do as a typed reason instead of
// throwing. Incoming events (accepted invitations, replies) reach the engine through
// `ingestSignals` (engine/signals.ts), whichever way the driver learns about them.
import type { Executor } from '../../db/database.js';

export type Channel = 'linkedin' | 'email';

export const LINKEDIN_ACTIONS = [
  'linkedin_send_connection_request',
  'linkedin_send_message',
  'linkedin_send_inmail',
  'linkedin_visit_profile',
  'linkedin_like_latest_post',
  'linkedin_comment_latest_post',
  'linkedin_endorse_skills',
  'linkedin_withdraw_connection_request',
] as const;
export const EMAIL_ACTIONS = ['email_send_message'] as const;

export type LinkedInAction = (typeof LINKEDIN_ACTIONS)[number];
export type ActionType = LinkedInAction | (typeof EMAIL_ACTIONS)[number];

export function isActionType(type: string): type is ActionType {
  return (LINKEDIN_ACTIONS as readonly string[]).includes(type) || type === 'email_send_message';
}

/** Actions that are their text: a driver is never called for one of them without a text to send. */
export const TEXT_ACTIONS: ReadonlySet<string> = new Set<ActionType>([
  'linkedin_send_message',
  'linkedin_send_inmail',
  'linkedin_comment_latest_post',
  'email_send_message',
]);

export function channelOf(type: ActionType): Channel {
  return type === 'email_send_message' ? 'email' : 'linkedin';
}

/** The contact as a channel needs it. */
export type ActionLead = {
  uuid: string;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  ln_member_id: number | null;
  ln_id: string | null;
  sn_id: string | null;
  linkedin: string | null;
  work_email: string | null;
  personal_email: string | null;
};

export type ActionRequest = {
  teamId: number;
  /** The task: also the idempotency key the channel may use (and the outcome check looks for). */
  taskUuid: string;
  type: ActionType;
  senderProfileUuid: string;
  lead: ActionLead;
  /** Rendered text (message, note, comment, e-mail body); null sends without one. */
  text: string | null;
  subject: string | null;
  attachments: Array<{ uuid: string }>;
  /** Node options the action needs (skills to endorse, cc, e-mail field, thread...). */
  options: Record<string, unknown>;
  /** The engine's clock at the moment of the action. */
  at: Date;
};

/**
 * Why an action did not happen. The engine decides what each means (CONTEXT.md, "Action outcomes"):
 * skip and move on, fail the step, retry later, or pause the sender.
 */
export type FailureReason =
  | 'already_connected'
  | 'pending'
  | 'not_connected'
  | 'not_connectable'
  | 'not_found'
  | 'inmail_unavailable'
  | 'note_quota'
  | 'cant_resend_yet'
  | 'nothing_to_do'
  | 'invalid_recipient'
  | 'restricted'
  | 'weekly_limit'
  | 'rate_limited'
  | 'logged_out'
  | 'checkpoint'
  | 'no_channel'
  | 'transient'
  /**
   * The action passed its irreversible step (the click on Send, the SMTP DATA) but the channel could not
   * confirm it went out (a timeout, no confirmation on the page). Never retried: the engine asks
   * `checkOutcome` once nobody can still be acting on it, and only a sure `not_done` allows another try.
   */
  | 'unconfirmed'
  /**
   * The seat paused this action type: its pages no longer show what the driver needs (a failed health
   * check, or misses in a row). Held back like a limit, asked again after `retryAfterMs`.
   */
  | 'selector_health'
  /** E-mail: every mailbox of the sender is at its daily limit or inside its send interval. */
  | 'mailbox_limit'
  /** E-mail: the contact has no address to send to. */
  | 'no_email_address'
  /** E-mail: the contact's address bounced or unsubscribed. */
  | 'email_suppressed';

export type ActionOutcome =
  | { ok: true; remoteRef?: string; detail?: Record<string, unknown> }
  | { ok: false; reason: FailureReason; message: string; retryAfterMs?: number };

/** What a channel knows afterwards about an action whose outcome the engine never recorded. */
export type OutcomeCheck = 'done' | 'not_done' | 'unknown';

export interface ChannelDriver {
  /** 'sandbox', 'chromium', 'smtp'... (recorded on tasks). */
  readonly name: string;
  perform(request: ActionRequest): Promise<ActionOutcome>;
  /**
   * Several actions of one sender in order, when the channel can do them at once (the sandbox, when the
   * sender has no gap between actions); one outcome per request. Optional: without it they go one by one.
   */
  performMany?(requests: ActionRequest[]): Promise<ActionOutcome[]>;
  checkOutcome(request: ActionRequest): Promise<OutcomeCheck>;
}

/**
 * Finds the driver a sender acts through on a channel, or says why there is none (`unavailable`: the
 * sender's enrollments park until the cause is gone) or until when it is busy (`busyUntil`: someone holds
 * the seat's live view; actions wait, nothing is parked or counted).
 */
export interface DriverRegistry {
  resolve(
    teamId: number,
    senderProfileUuid: string,
    channel: Channel,
  ): Promise<ChannelDriver | { unavailable: string } | { busyUntil: Date }>;
}

/**
 * A channel that brings answers by itself instead of being read (the sandbox network): the engine's
 * dispatch loop delivers what is due, and a fake clock jumps to the next one.
 */
export interface ChannelPush {
  /** Delivers what is due at `now`; returns how many. */
  deliver(now: Date): Promise<number>;
  /** The earliest pending answer, or null. */
  nextAt(): Promise<Date | null>;
}

/** A done action (the channel confirmed it), as a channel's own records need it. */
export type SentAction = {
  taskUuid: string;
  flowUuid: string | null;
  senderProfileUuid: string | null;
  leadUuid: string;
  request: ActionRequest;
  outcome: ActionOutcome;
};

/**
 * What a channel records of its done actions, in the transaction that records their outcomes (the
 * LinkedIn messages list stores the messages flows sent). Given to the engine by the composition root.
 */
export type SentActionsHook = (trx: Executor, teamId: number, sent: SentAction[], now: Date) => Promise<void>;
