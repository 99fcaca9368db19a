// Owner: linkedin-messages writes linkedin_messages, linkedin_conversations, linkedin_sync_state; browsers writes sandbox_linkedin_inbox.
import type { Generated } from 'kysely';
import type { CreatedAt, Defaulted, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type LinkedInMessageType = 'inbox' | 'outbox';
export type LinkedInMessageAutomation = 'auto' | 'manual' | 'synced';
export type LinkedInMessageStatus = 'new' | 'in_progress' | 'done' | 'failed';

export interface LinkedinMessagesTable {
  team_id: number;
  uuid: string;
  sender_profile_uuid: string;
  linkedin_conversation_uuid: string | null;
  lead_uuid: string | null;
  user_id: number | null;
  flow_uuid: string | null;
  task_uuid: string | null;
  template_uuid: string | null;
  message_hash: string | null;
  subject: string | null;
  text: string | null;
  attachments: NullableJson<Array<{ uuid: string }>>;
  type: LinkedInMessageType;
  automation: LinkedInMessageAutomation;
  linkedin_type: string;
  status: LinkedInMessageStatus;
  fail_reason: string | null;
  attempts: Defaulted<number>;
  taken_at: Date | null;
  read_at: Date | null;
  sent_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LinkedinConversationsTable {
  team_id: number;
  uuid: string;
  id: Generated<number>;
  sender_profile_uuid: string;
  lead_uuid: string;
  conversation_hash: string | null;
  ln_id: string | null;
  ln_member_id: number | null;
  sn_id: string | null;
  lead_nickname: string | null;
  linkedin_messenger_type: Defaulted<string>;
  event_count: Defaulted<number>;
  unread_count: Defaulted<number>;
  last_activity_at: Date | null;
  last_stored_message_at: Date | null;
  last_msg_sync_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LinkedinSyncStateTable {
  team_id: number;
  sender_profile_uuid: string;
  cursor: string | null;
  next_sync_at: Defaulted<Date>;
  leased_until: Date | null;
  last_synced_at: Date | null;
  last_error: string | null;
  /** Conversations the inbox listed on its last read that listed any (null: never counted). */
  listed_conversations: number | null;
  /** Reads in a row that listed no conversation since. */
  empty_inbox_reads: Defaulted<number>;
}

export interface SandboxLinkedinInboxTable {
  team_id: number;
  id: Generated<number>;
  sender_profile_uuid: string;
  lead_uuid: string | null;
  kind: 'message' | 'accepted';
  conversation_id: string | null;
  member: Defaulted<Record<string, unknown>>;
  text: string | null;
  subject: string | null;
  linkedin_type: string | null;
  occurred_at: Date;
}
