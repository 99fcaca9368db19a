// Owner: attachments writes attachments.
import type { CreatedAt, UpdatedAt } from '../../db/column-types.js';

export interface AttachmentsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  /** The file name shown to recipients. */
  name: string;
  /** Where the file store keeps the bytes (also the wire `payload.path`). */
  storage_key: string;
  size_bytes: number;
  mime_type: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
