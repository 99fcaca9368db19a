import type { Executor } from '../../db/database.js';
import type { CustomFieldObject } from './custom-fields.tables.js';

/** A team's custom field definitions of one object type (at most 100), ordered for display. */
export async function selectCustomFieldDefinitions(db: Executor, teamId: number, object: CustomFieldObject) {
  return db
    .selectFrom('custom_fields')
    .select(['uuid', 'name', 'type', 'order'])
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .orderBy('order')
    .orderBy('created_at')
    .execute();
}

export type CustomFieldDefinition = Awaited<ReturnType<typeof selectCustomFieldDefinitions>>[number];
