// Owner: engine writes lead_signals, contact_source_rotation; engine, enrollments write sender_channel_state; channels writes linkedin_read_pace; browsers writes sandbox_linkedin_actions.
import type { Generated } from 'kysely';
import type { Defaulted, Json, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type Channel = 'linkedin' | 'email';

export interface SenderChannelStateTable {
  team_id: number;
  sender_profile_uuid: string;
  channel: Channel;
  next_dispatch_at: Date | null;
  next_slot_at: Date | null;
  /** action type → ISO instant it is paused until */
  paused_until: Json<Record<string, string>>;
  /** flow uuid → ISO instant it was last served */
  flow_turns: Json<Record<string, string>>;
  actions_done: Defaulted<number>;
  leased_until: Date | null;
  pending_dispatch_at: Date | null;
  claim_token: Defaulted<number>;
  updated_at: UpdatedAt;
}

/** A sender's LinkedIn read budget per kind (drivers/read-pace.ts). */
export interface LinkedinReadPaceTable {
  team_id: number;
  sender_profile_uuid: string;
  kind: 'profile' | 'search';
  next_at: Date;
  /** The UTC day `count` counts. */
  day: string;
  count: number;
}

export type SignalKind =
  | 'connection_accepted'
  | 'linkedin_replied'
  | 'linkedin_inmail_replied'
  | 'email_replied'
  | 'email_opened'
  | 'link_clicked'
  | 'email_bounced'
  | 'email_unsubscribed';

export interface LeadSignalsTable {
  team_id: number;
  id: Generated<number>;
  lead_uuid: string;
  sender_profile_uuid: string | null;
  kind: SignalKind;
  occurred_at: Date;
  external_key: string | null;
  payload: NullableJson<Record<string, unknown>>;
}

export interface SandboxLinkedinActionsTable {
  team_id: number;
  id: Generated<number>;
  seat_id: number | null;
  sender_profile_uuid: string;
  lead_uuid: string;
  action: string;
  task_uuid: string | null;
  text: string | null;
  performed_at: Date;
  response: 'accept' | 'reply' | null;
  respond_at: Date | null;
  responded_at: Date | null;
  /** Names of the files sent with a message (migration 0920). */
  attachment_names: string[] | null;
}

export interface ContactSourceRotationTable {
  team_id: number;
  flow_uuid: string;
  contact_source_id: number;
  sender_profile_uuid: string;
  assigned: Defaulted<number>;
}
