// Owner: identity writes users, teams, team_members, api_keys.
import type { Generated } from 'kysely';
import type { CreatedAt, Json, UpdatedAt } from '../../db/column-types.js';

export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_status: Generated<string>;
  image_url: string | null;
  timezone: Generated<string>;
  config: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  color: string | null;
  status: Generated<string>;
  user_id: number | null;
  features: Json<Record<string, number | null>>;
  credits_activities: Generated<number>;
  credits_advanced_enrichment: Generated<number>;
  credits_llm: Generated<number>;
  config: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: Generated<string>;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  key_prefix: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface IdentityTables {
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  api_keys: ApiKeysTable;
}
