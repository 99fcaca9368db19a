// Owner: senders writes sender_profiles.
import type { CreatedAt, Defaulted, Json, UpdatedAt } from '../../db/column-types.js';
import type { Schedule } from '../../lib/schedule.js';

export interface SenderProfilesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  assignee_user_id: number | null;
  first_name: string;
  last_name: string | null;
  label: string | null;
  avatar_url: string | null;
  schedule: Json<Schedule>;
  /** Action type → daily target overriding the default (see the senders module). */
  limits: Json<Record<string, number>>;
  /** Action type → rolling-7-day cap overriding the default (connection requests). */
  weekly_limits: Json<Record<string, number>>;
  smart_limits_enabled: Defaulted<boolean>;
  /** Seconds between two actions inside a window (randomised around it); null = the default. */
  action_interval_seconds: number | null;
  status: Defaulted<'enabled' | 'disabled'>;
  hold_tasks_till: Date | null;
  linkedin_browser_id: number | null;
  mailbox_uuid: string | null;
  notification_emails: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
