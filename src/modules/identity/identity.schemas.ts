import { Type } from 'typebox';
import { DateTime, Envelope, Id, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { apiKeySort, teamSort } from './identity.repository.js';

export const User = Type.Object({
  id: Type.Integer(),
  uuid: Uuid(),
  email: Type.String(),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  email_status: Type.String(),
  image_url: Nullable(Type.String()),
  timezone: Type.String({ description: 'IANA time zone, e.g. Europe/Berlin' }),
  config: Type.Record(Type.String(), Type.Unknown()),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const Team = Type.Object({
  id: Type.Integer(),
  cluster_id: Type.Integer(),
  subscription_id: Nullable(Type.Integer()),
  license_uuid: Nullable(Type.String()),
  name: Type.String(),
  color: Nullable(Type.String()),
  status: Type.String({ description: 'active' }),
  features: Type.Record(Type.String(), Nullable(Type.Integer()), {
    description: 'Plan limits; null = unlimited',
  }),
  credits: Type.Object({
    activities: Type.Integer(),
    advanced_enrichment: Type.Integer({ description: 'Spent by advanced enrichment' }),
    llm: Type.Integer(),
  }),
  config: Type.Record(Type.String(), Type.Unknown()),
  user_id: Nullable(Type.Integer({ description: 'Owner' })),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const TeamList = Envelope(Team);
export const TeamListQuery = ListQuery(teamSort);
export const TeamParams = Type.Object({ id: Id({ description: 'Team id' }) });

export const CreateApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export const CreatedApiKey = Type.Object({
  jti: Type.String({ description: 'Key id' }),
  id: Type.Integer(),
  user_id: Type.Integer(),
  team_id: Type.Integer({ description: 'The team of the request; keys work for every team of their user' }),
  name: Type.String(),
  last_token: Type.String({ description: 'The secret; shown only in this response' }),
  created_at: DateTime(),
});

export const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  key_prefix: Type.String({ description: 'First characters of the secret, to recognise it' }),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime('Updated at most once a minute')),
  revoked_at: Nullable(DateTime()),
});
export const ApiKeyPage = Envelope(ApiKey);
export const ApiKeyListQuery = ListQuery(apiKeySort);
export const ApiKeyParams = Type.Object({ id: Id({ description: 'API key id' }) });

withExample(CreateApiKeyBody, { name: 'Zapier' });
