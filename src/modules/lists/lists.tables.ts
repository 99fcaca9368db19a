// Owner: lists writes lists.
import type { CreatedAt, UpdatedAt } from '../../db/column-types.js';

export interface ListsTable {
  team_id: number;
  uuid: string;
  name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
