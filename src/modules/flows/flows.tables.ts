// Owner: flows writes flow_workspaces, flows, flow_versions, flow_filter_sources, flow_lead_count_deltas; engine, enrollments write flow_leads; engine writes flow_conversion_deltas.
import type { Generated } from 'kysely';
import type { CreatedAt, Defaulted, Json, NullableJson, UpdatedAt } from '../../db/column-types.js';
import type { Schedule } from '../../lib/schedule.js';

export type FlowStatus = 'on' | 'off' | 'draft' | 'archived';
export type EnrollmentStatus = 'in_progress' | 'paused' | 'finished' | 'canceled' | 'failed';

export interface FlowWorkspacesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string;
  order: Defaulted<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface FlowsTable {
  team_id: number;
  uuid: string;
  public_uuid: string | null;
  user_id: number | null;
  name: string;
  description: string | null;
  flow_workspace_uuid: string | null;
  /** The active version. */
  flow_version_uuid: string;
  use_sender_schedule: Defaulted<boolean>;
  schedule: Json<Schedule>;
  priority: Defaulted<number>;
  status: Defaulted<FlowStatus>;
  is_public: Defaulted<boolean>;
  settings: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Immutable: inserted once, never updated. */
export interface FlowVersionsTable {
  team_id: number;
  uuid: string;
  flow_uuid: string;
  nodes: Json<unknown[]>;
  contact_sources: Json<unknown[]>;
  first_common_node_id: number | null;
  created_at: CreatedAt;
}

/** An enrollment (the hosted service's flow-lead). */
export interface FlowLeadsTable {
  team_id: number;
  uuid: string;
  flow_uuid: string;
  flow_version_uuid: string;
  lead_uuid: string;
  contact_source_id: Defaulted<number>;
  added_by: Defaulted<'user' | 'filter' | 'flow'>;
  sender_profile_uuid: string | null;
  status: Defaulted<EnrollmentStatus>;
  flow_node_id: number | null;
  step: Defaulted<number>;
  next_run_at: Date | null;
  flow_active: Defaulted<boolean>;
  claim_token: Defaulted<number>;
  /** A worker's claim holds the row until then (engine-owned). */
  lease_until: Date | null;
  wait: NullableJson<Record<string, unknown>>;
  reason: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface FlowLeadCountDeltasTable {
  team_id: number;
  id: Generated<number>;
  flow_uuid: string;
  contact_source_id: number;
  added_by: string;
  status: string;
  delta: number;
}

export interface FlowConversionDeltasTable {
  team_id: number;
  id: Generated<number>;
  flow_uuid: string;
  flow_node_id: number;
  contact_source_id: number;
  /** The enrollment's sender (null on rows written before migration 1200). */
  sender_profile_uuid: string | null;
  channel: string;
  kind: string;
  delta: number;
  occurred_at: CreatedAt;
}

/** A self-filling contact source of an active version and where its background fill stands. */
export interface FlowFilterSourcesTable {
  team_id: number;
  flow_uuid: string;
  contact_source_id: number;
  flow_version_uuid: string;
  scan_after: string | null;
  changed_since: Defaulted<Date>;
  updated_at: UpdatedAt;
}
