// Owner: data-sources writes data_sources.
import type { CreatedAt, Defaulted, Json, UpdatedAt } from '../../db/column-types.js';
import type { DataSourceStatus, DataSourceType } from './data-sources.types.js';

export type DataSourcePayload = {
  /** The search, saved search, list or post URL (null for the sender's own network and inbox, CSV). */
  url?: string | null;
  /** Stop once this many contacts or companies were saved (status `contacts_limit_achieved`). */
  contacts_limit?: number | null;
};

export type DataSourceError = {
  at: string;
  reason: string;
  message: string;
  page?: number | null;
  row?: number | null;
};

export interface DataSourcesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  sender_profile_uuid: string | null;
  list_uuid: string;
  type: DataSourceType;
  status: Defaulted<DataSourceStatus>;
  payload: Json<DataSourcePayload>;
  tags: Defaulted<string[]>;
  errors: Json<DataSourceError[]>;
  /** The search page the next read asks for (from 1). */
  next_page: Defaulted<number>;
  /** How many results of `next_page` were already taken (a page cut short by contacts_limit). */
  next_index: Defaulted<number>;
  pages_read: Defaulted<number>;
  /** What the search says it holds, when it says. */
  total_results: number | null;
  /** Results taken from the search so far (saved + duplicate + blacklisted + error). */
  read_records: Defaulted<number>;
  saved_records: Defaulted<number>;
  duplicate_records: Defaulted<number>;
  blacklisted_records: Defaulted<number>;
  error_records: Defaulted<number>;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
