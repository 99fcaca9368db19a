// Owner: custom-fields writes custom_fields.
import type { CreatedAt, Defaulted, UpdatedAt } from '../../db/column-types.js';

export type CustomFieldObject = 'lead' | 'company';
export type CustomFieldType = 'string' | 'number' | 'boolean' | 'date';

export interface CustomFieldsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string;
  object: CustomFieldObject;
  type: Defaulted<CustomFieldType>;
  order: Defaulted<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
