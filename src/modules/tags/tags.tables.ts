// Owner: tags writes tags.
import type { CreatedAt, UpdatedAt } from '../../db/column-types.js';

export interface TagsTable {
  team_id: number;
  uuid: string;
  name: string;
  color: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
