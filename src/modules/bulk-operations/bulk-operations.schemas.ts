import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../http/schemas.js';

export const BulkOperation = Type.Object(
  {
    uuid: Uuid('Operation identifier; poll GET /leads/api/bulk-operations/{uuid}'),
    team_id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'User who started it' })),
    type: Type.String({ description: 'The mass action, e.g. contact_add_tags' }),
    status: Type.Union(
      [Type.Literal('queued'), Type.Literal('processing'), Type.Literal('done'), Type.Literal('failed')],
      { description: 'queued → processing → done or failed' },
    ),
    filter: Type.Unknown({ description: 'The selection as sent (ids, all, filter keys)' }),
    payload: Type.Unknown({ description: 'The action payload, with names resolved to UUIDs' }),
    affected: Nullable(
      Type.Integer({
        description: 'Records changed so far (final once status is done); null before it starts',
      }),
    ),
    error: Nullable(Type.String({ description: 'Why it failed' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    finished_at: Nullable(DateTime()),
  },
  { title: 'Bulk operation' },
);
