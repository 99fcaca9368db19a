import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { savedViewFilterFields, savedViewSort } from './saved-views.repository.js';

/** Serialised size limit of a view's filter (checked by the service: JSON Schema cannot state it). */
export const MAX_FILTER_CHARS = 20_000;

const Page = Type.Union([Type.Literal('contacts'), Type.Literal('companies'), Type.Literal('tasks')], {
  description: 'The table the view belongs to',
});
const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description:
    'Unique among the user\u2019s views of the page (case-insensitive); surrounding blanks trimmed',
});
const Filter = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: 50,
  description:
    `The page's filters as the client keeps them (at most ${MAX_FILTER_CHARS} characters as JSON); the web ` +
    'application stores its filter rows under "conditions" (contacts, companies) or the task list\u2019s ' +
    'filter values (tasks). The server does not interpret it.',
});
const Sort = Nullable(
  Type.Object(
    {
      field: Type.String({ minLength: 1, maxLength: 64, description: 'A sort field of the page' }),
      direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
    },
    {
      additionalProperties: false,
      description: 'The sort of the table, or null for the page\u2019s default',
    },
  ),
);
const Columns = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 100,
  uniqueItems: true,
  description: 'The visible columns of the table, in order (column ids of the page)',
});

export const SavedView = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer(),
  user_id: Type.Integer({ description: 'The user who owns the view (only they see it)' }),
  page: Page,
  name: Type.String(),
  filter: Type.Record(Type.String(), Type.Unknown()),
  sort: Nullable(
    Type.Object({ field: Type.String(), direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) }),
  ),
  columns: Type.Array(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const SavedViewPageSchema = Envelope(SavedView);
export const SavedViewsQuery = ListQuery(savedViewSort, Object.keys(savedViewFilterFields));

export const CreateSavedViewBody = Type.Object(
  {
    name: Name,
    page: Page,
    filter: Type.Optional(Filter),
    sort: Type.Optional(Sort),
    columns: Type.Optional(Columns),
  },
  { additionalProperties: false },
);

export const UpdateSavedViewBody = Type.Object(
  {
    name: Type.Optional(Name),
    filter: Type.Optional(Filter),
    sort: Type.Optional(Sort),
    columns: Type.Optional(Columns),
  },
  { additionalProperties: false, description: 'The fields to change (rename with name alone)' },
);

withExample(CreateSavedViewBody, {
  name: 'Unread CTOs',
  page: 'contacts',
  filter: { conditions: [{ id: 1, field: 'position', op: 'is', value: 'CTO' }] },
  sort: { field: 'created_at', direction: 'desc' },
  columns: ['name', 'position', 'company_name'],
});
withExample(UpdateSavedViewBody, { name: 'Unread CTOs (EU)' });
