// Owner: browsers writes linkedin_browsers.
import type { Generated } from 'kysely';
import type { CreatedAt, Defaulted, Json, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type SeatDriver = 'chromium' | 'sandbox';
export type SeatStatus =
  | 'running'
  | 'stopped'
  | 'idle'
  | 'start_issue'
  | 'running_issue'
  | 'login_issue'
  | 'initializing';

/** A per-action circuit breaker: open (`open_since` set) pauses the action type for the seat. */
export type ActionBreaker = { misses: number; open_since: string | null; reason: string | null };

export const NOTE_QUOTA_ACTIONS = ['fail', 'send_without_note'] as const;
export type NoteQuotaAction = (typeof NOTE_QUOTA_ACTIONS)[number];

export type ProxyType = 'http' | 'https' | 'socks5';
/** A seat's own proxy as stored: the password is sealed in `proxy_password_sealed`, never here. */
export type StoredProxy = { type: ProxyType; host: string; port: number; username: string | null };

export interface LinkedinBrowsersTable {
  team_id: number;
  id: Generated<number>;
  sender_profile_uuid: string;
  driver: Defaulted<SeatDriver>;
  name: string | null;
  status: Defaulted<SeatStatus>;
  error_reason: string | null;
  linkedin_account_uuid: string | null;
  user_id: number | null;
  last_start_at: Date | null;
  external_id: string | null;
  shared_emails: Defaulted<string[]>;
  proxy_country_code: string | null;
  custom_proxy_config: Json<StoredProxy[]>;
  proxy_password_sealed: string | null;
  /** The LinkedIn session (cookies), sealed with the secret box. */
  session_sealed: string | null;
  session_version: Defaulted<number>;
  session_saved_at: Date | null;
  /** The account's member id as LinkedIn shows it (its profile path), once logged in. */
  linkedin_member_id: string | null;
  /** SHA-256 of the public login link's key. */
  access_key_hash: string | null;
  access_key_expires_at: Date | null;
  /** Someone is watching the live view until then; automation waits. */
  viewer_lease_until: Date | null;
  viewer_id: string | null;
  last_sync_at: Date | null;
  sync_cursor: NullableJson<Record<string, unknown>>;
  /** The last selector health tour's report (chromium-health.ts). */
  health: NullableJson<Record<string, unknown>>;
  health_checked_at: Date | null;
  /** A tour was asked for (API) at this time; the next health round runs it. */
  health_requested_at: Date | null;
  /** Per action type: misses in a row, and since when the type is paused (seat-health.ts). */
  action_breakers: Json<Record<string, ActionBreaker>>;
  /** The account is known to be Premium: notes up to 300 characters, no monthly note quota. */
  linkedin_premium: Defaulted<boolean>;
  /** What a note quota (predicted or shown by LinkedIn) does to an invitation. */
  note_quota_action: Defaulted<NoteQuotaAction>;
  /** Personalised invitations a free account may send per 30 days (LinkedIn: about 5). */
  free_notes_per_month: Defaulted<number>;
  /** When each note went out (or may have: unconfirmed), the last 30 days (seat-notes.ts). */
  notes_sent_at: Defaulted<Date[]>;
  /** When LinkedIn last refused a note (asked for Premium). */
  note_quota_refused_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
