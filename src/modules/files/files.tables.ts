// Owner: files writes file_imports, file_exports.
import type { CreatedAt, Defaulted, Json, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type ImportType = 'csv_leads' | 'csv_companies';
export type JobStatus = 'queued' | 'processing' | 'done' | 'failed';
export type ImportStatus = 'uploaded' | JobStatus;
export type ExportType = 'contact_export_csv' | 'account_export_csv';

export type ImportRowError = { row: number; reason: string };

export interface FileImportsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  type: Defaulted<ImportType>;
  status: Defaulted<ImportStatus>;
  /** Name of the uploaded file as the client sent it. */
  file_name: string;
  /** Where the file store keeps it. */
  storage_key: string;
  size_bytes: number;
  encoding: string;
  has_bom: Defaulted<boolean>;
  delimiter: string;
  headers: Json<string[]>;
  rows_count: number;
  sample_rows: Json<Record<string, string>[]>;
  config: NullableJson<Record<string, unknown>>;
  total_rows: Defaulted<number>;
  processed_rows: Defaulted<number>;
  checkpoint_row: Defaulted<number>;
  created_count: Defaulted<number>;
  updated_count: Defaulted<number>;
  duplicate_count: Defaulted<number>;
  blacklisted_count: Defaulted<number>;
  /** Created contacts that had no key to deduplicate by (a name only). */
  undeduplicated_count: Defaulted<number>;
  error_count: Defaulted<number>;
  errors: Json<ImportRowError[]>;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  /** When retention removed the stored file (the record stays). */
  file_removed_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface FileExportsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  type: ExportType;
  status: Defaulted<JobStatus>;
  filter: Json<Record<string, unknown>>;
  fields: NullableJson<string[]>;
  skip_blacklisted: Defaulted<boolean>;
  file_name: string | null;
  storage_key: string | null;
  rows_count: number | null;
  size_bytes: number | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  /** When retention removed the stored file (the record stays). */
  file_removed_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
