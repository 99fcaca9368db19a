import type { Generated } from 'kysely';
import type { CreatedAt, Defaulted, UpdatedAt } from '../../db/column-types.js';

export type SeatDriver = 'chromium' | 'sandbox';
export type SeatStatus =
  | 'running'
  | 'stopped'
  | 'idle'
  | 'start_issue'
  | 'running_issue'
  | 'login_issue'
  | 'initializing';

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
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
