import { Type } from 'typebox';
import {
  anyPresent,
  DateTime,
  Envelope,
  ListQuery,
  Nullable,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { tagFilterFields, tagSort } from './tags.repository.js';

const HEX_COLOR = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';

export const Tag = Type.Object(
  {
    uuid: Uuid('Tag id; contacts and companies list it in their `tags` array'),
    team_id: Type.Integer({ description: 'Team the tag belongs to' }),
    name: Type.String({ description: 'Unique within the team, case-insensitively' }),
    color: Nullable(Type.String({ description: 'Hex colour, lower case, e.g. #ff5733' })),
    created_at: DateTime('When the tag was created'),
    updated_at: DateTime('When the tag was last renamed or recoloured'),
  },
  { description: 'A tag of contacts and companies' },
);

export const TagPage = Envelope(Tag);
export const TagsQuery = ListQuery(tagSort, Object.keys(tagFilterFields));

const name = Type.String({ minLength: 1, maxLength: 255, description: 'Tag name (trimmed)' });
const color = Nullable(
  Type.String({ pattern: HEX_COLOR, description: 'Hex colour: #rrggbb or #rgb; null for none' }),
);

export const CreateTagBody = Type.Object(
  { name, color: Type.Optional(color) },
  { additionalProperties: false },
);
export const UpdateTagBody = Type.Object(
  { name: Type.Optional(name), color: Type.Optional(color) },
  {
    additionalProperties: false,
    description: 'Fields to change; give at least one',
    ...anyPresent(['name', 'color'], 'or color is required: give name and/or color to change'),
  },
);

export const TagMetricName = Type.Union([Type.Literal('leads_count'), Type.Literal('companies_count')]);

export const TagMetricsBody = Type.Object(
  {
    uuids: Type.Array(Uuid(), { maxItems: 1000, description: 'Tags to count' }),
    metrics: Type.Optional(
      Type.Array(TagMetricName, {
        maxItems: 2,
        description: 'Counts to compute (default both): leads_count, companies_count',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TagMetrics = Type.Record(
  Type.String({ format: 'uuid' }),
  Type.Object({
    leads_count: Type.Optional(Type.Integer({ description: 'Contacts carrying the tag' })),
    companies_count: Type.Optional(Type.Integer({ description: 'Companies carrying the tag' })),
  }),
  { description: 'Counts per tag UUID (tags of other teams and unknown UUIDs are left out)' },
);

withExample(CreateTagBody, { name: 'Hot lead', color: '#ff5733' });
withExample(UpdateTagBody, { color: '#2e86de' });
withExample(TagMetricsBody, {
  uuids: ['0190f000-0000-7000-8000-000000000001'],
  metrics: ['leads_count', 'companies_count'],
});
