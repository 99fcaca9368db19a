// Owner: activities writes activities, activity_count_deltas, lead_markers.
import type { Generated } from 'kysely';
import type { CreatedAt, Json } from '../../db/column-types.js';

export type ActivityObjectType = 'lead' | 'company';

export interface ActivitiesTable {
  team_id: number;
  uuid: string;
  object_type: ActivityObjectType;
  object_uuid: string;
  lead_uuid: string | null;
  company_uuid: string | null;
  type: string;
  payload: Json<Record<string, unknown>>;
  user_id: number | null;
  created_at: CreatedAt;
}

export interface ActivityCountDeltasTable {
  team_id: number;
  id: Generated<number>;
  type: string;
  delta: number;
}

export interface LeadMarkersTable {
  team_id: number;
  lead_uuid: string;
  sender_profile_uuid: string;
  email_sent_count: number;
  email_inbox_count: number;
  email_read_count: number;
  email_click_count: number;
  email_first_message_sent_at: Date | null;
  email_last_message_sent_at: Date | null;
  linkedin_last_connection_sent_at: Date | null;
  linkedin_last_connection_accepted_at: Date | null;
  linkedin_last_connection_lost_at: Date | null;
  linkedin_messages_sent_count: number;
  linkedin_messages_inbox_count: number;
  last_messaging_activity_at: Date | null;
  updated_at: Date;
}
