// Owner: bulk-operations writes bulk_operations.
import type { CreatedAt, Defaulted, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type BulkOperationStatus = 'queued' | 'processing' | 'done' | 'failed';

export interface BulkOperationsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  type: string;
  status: Defaulted<BulkOperationStatus>;
  filter: NullableJson<unknown>;
  payload: NullableJson<unknown>;
  affected: number | null;
  error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  finished_at: Date | null;
}
