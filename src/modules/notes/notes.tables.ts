// Owner: notes writes notes.
import type { CreatedAt, UpdatedAt } from '../../db/column-types.js';

export interface NotesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  object: 'lead' | 'company';
  object_uuid: string;
  note: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
