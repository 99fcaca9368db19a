import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid } from '../../../http/schemas.js';
import { workspaceFilterFields, workspaceSort } from './workspaces.repository.js';

export const FlowWorkspace = Type.Object(
  {
    uuid: Uuid('Workspace UUID'),
    team_id: Type.Integer({ description: 'Team' }),
    user_id: Nullable(Type.Integer({ description: 'Creator' })),
    name: Type.String({ description: 'Name' }),
    order: Type.Integer({ description: 'Position among the folders (ascending)' }),
    created_at: DateTime('Created'),
    updated_at: DateTime('Last changed'),
  },
  { description: 'A folder of flows' },
);

export const FlowWorkspacePage = Envelope(FlowWorkspace);
export const FlowWorkspacesQuery = ListQuery(workspaceSort, Object.keys(workspaceFilterFields));

const name = Type.String({ minLength: 1, maxLength: 255, description: 'Name' });
const order = Type.Integer({
  minimum: -1_000_000,
  maximum: 1_000_000,
  description: 'Position among the folders (ascending; default 0)',
});

export const CreateFlowWorkspaceBody = Type.Object(
  { name, order: Type.Optional(order) },
  { additionalProperties: false, examples: [{ name: 'Q2 Campaigns', order: 1 }] },
);

export const UpdateFlowWorkspaceBody = Type.Object(
  { name: Type.Optional(name), order: Type.Optional(order) },
  { additionalProperties: false, examples: [{ name: 'Q3 Campaigns' }] },
);
