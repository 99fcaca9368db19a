// Owner: saved-views writes saved_views.
import type { CreatedAt, Json, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type SavedViewPage = 'contacts' | 'companies' | 'tasks';
export type SavedViewSort = { field: string; direction: 'asc' | 'desc' };

/** A saved view of one of the web application's tables, owned by one user in one team (migration 1270). */
export interface SavedViewsTable {
  team_id: number;
  uuid: string;
  user_id: number;
  page: SavedViewPage;
  name: string;
  filter: Json<Record<string, unknown>>;
  sort: NullableJson<SavedViewSort>;
  columns: string[];
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
