// Owner: leads writes leads, lead_tombstones, lead_count_deltas.
import type {
  CreatedAt,
  Defaulted,
  Generated,
  Json,
  NullableJson,
  UpdatedAt,
} from '../../db/column-types.js';

export interface LeadsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string | null;
  list_uuid: string;
  data_source_uuid: string | null;
  pipeline_stage_uuid: string;
  company_uuid: string | null;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  company_ln_id: string | null;
  position: string | null;
  headline: string | null;
  about: string | null;
  avatar_url: string | null;
  /** Dedup keys, in the spec's order: ln_member_id, ln_id, sn_id, linkedin, work_email, personal_email. */
  ln_member_id: number | null;
  ln_id: string | null;
  sn_id: string | null;
  /** Public nickname, lower case. */
  linkedin: string | null;
  facebook: string | null;
  twitter: string | null;
  /** Lower case. */
  work_email: string | null;
  personal_email: string | null;
  work_phone_number: string | null;
  personal_phone_number: string | null;
  connections_number: number | null;
  followers_number: number | null;
  primary_language: string | null;
  supported_languages: string[] | null;
  has_open_profile: number | null;
  has_verified_profile: number | null;
  has_premium: number | null;
  experience: NullableJson<unknown[]>;
  posts: NullableJson<unknown[]>;
  educations: NullableJson<unknown[]>;
  skills: string[] | null;
  raw_address: string | null;
  location: NullableJson<unknown[]>;
  tags: Defaulted<string[]>;
  /** custom field uuid → value */
  custom_fields: Json<Record<string, unknown>>;
  status: Defaulted<string>;
  linkedin_status: Defaulted<string>;
  email_status: string | null;
  /** IANA zone of the contact (schedules with use_lead_timezone plan in it); null = unknown. */
  timezone: string | null;
  is_blacklisted: Defaulted<boolean>;
  last_automation_approve_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  search_text: Generated<string>;
}

export interface LeadTombstonesTable {
  team_id: number;
  uuid: string;
  deleted_at: Date;
}

/** Signed changes of a team's contact count, summed for exact totals (migration 0110). */
export interface LeadCountDeltasTable {
  team_id: number;
  id: Generated<number>;
  delta: number;
}
