import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Uuid, withExample } from '../../http/schemas.js';
import { listFilterFields, listSort } from './lists.repository.js';

export const List = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer(),
  name: Type.String(),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const ListPage = Envelope(List);
export const ListsQuery = ListQuery(listSort, Object.keys(listFilterFields));

export const CreateListBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);
export const UpdateListBody = CreateListBody;

const deleteOptions = {
  move_to_list_uuid: Type.Optional(Uuid('Move the list\u2019s contacts to this list, then delete it')),
  delete_contacts: Type.Optional(
    Type.Boolean({ description: 'Permanently delete the list\u2019s contacts with it' }),
  ),
};
export const DeleteListBody = Type.Union([
  Type.Object(deleteOptions, { additionalProperties: false }),
  Type.Null(),
]);
export const DeleteListQuery = Type.Object({
  move_to_list_uuid: deleteOptions.move_to_list_uuid,
  delete_contacts: deleteOptions.delete_contacts,
});

export const ListMetricsBody = Type.Object(
  { uuids: Type.Array(Uuid(), { maxItems: 1000 }) },
  { additionalProperties: false },
);
export const ListMetrics = Type.Record(
  Type.String({ format: 'uuid' }),
  Type.Object({ leads_count: Type.Integer() }),
  {
    description: 'Lead count per list UUID (lists of other teams or unknown UUIDs are left out)',
  },
);

withExample(CreateListBody, { name: 'Q3 prospects' });
withExample(DeleteListBody, { move_to_list_uuid: '0190f000-0000-7000-8000-000000000002' });
withExample(ListMetricsBody, {
  uuids: ['0190f000-0000-7000-8000-000000000001', '0190f000-0000-7000-8000-000000000002'],
});
