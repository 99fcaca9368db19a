// Owner: accounts writes user_passwords, user_sessions, password_tokens, team_invites.
import type { CreatedAt } from '../../db/column-types.js';

export interface UserPasswordsTable {
  user_id: number;
  hash: string;
  updated_at: Date;
}

export interface UserSessionsTable {
  token_hash: string;
  user_id: number;
  csrf_token: string;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Date;
  expires_at: Date;
}

export interface PasswordTokensTable {
  token_hash: string;
  user_id: number;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface TeamInvitesTable {
  team_id: number;
  uuid: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: number | null;
  created_at: CreatedAt;
  expires_at: Date;
  accepted_at: Date | null;
}

export interface AccountsTables {
  user_passwords: UserPasswordsTable;
  user_sessions: UserSessionsTable;
  password_tokens: PasswordTokensTable;
  team_invites: TeamInvitesTable;
}
