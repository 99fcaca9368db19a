// Owner: engine, enrollments, tasks write tasks, task_count_deltas.
import type { Generated } from 'kysely';
import type { CreatedAt, Defaulted, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type TaskStatus = 'in_progress' | 'closed' | 'canceled' | 'failed' | 'skipped';

export interface TasksTable {
  team_id: number;
  uuid: string;
  lead_uuid: string;
  company_uuid: string | null;
  sender_profile_uuid: string | null;
  mailbox_uuid: string | null;
  flow_uuid: string | null;
  flow_lead_uuid: string | null;
  flow_node_id: number | null;
  /** The enrollment step this task is (automation tasks); unique per enrollment. */
  step: number | null;
  type: string;
  automation: 'manual' | 'auto';
  status: Defaulted<TaskStatus>;
  payload: NullableJson<Record<string, unknown>>;
  attempts: Defaulted<number>;
  error_msg: string | null;
  automation_error_code: string | null;
  fork_result: number | null;
  priority: Defaulted<number>;
  note: string | null;
  timezone: string | null;
  schedule_at: Date | null;
  executed_at: Date | null;
  taken_to_execute_at: Date | null;
  remote_ref: string | null;
  assigned_to: number | null;
  user_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TaskCountDeltasTable {
  team_id: number;
  id: Generated<number>;
  flow_uuid: string | null;
  flow_node_id: number | null;
  sender_profile_uuid: string | null;
  type: string;
  automation: string;
  status: string;
  fork_result: number | null;
  automation_error_code: string | null;
  delta: number;
}
