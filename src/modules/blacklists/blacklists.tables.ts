// Owner: blacklists writes leads_blacklist, companies_blacklist.
import type { CreatedAt, UpdatedAt } from '../../db/column-types.js';

/** Values are stored normalised: lower case, LinkedIn handles parsed, e-mails trimmed. */
export interface LeadsBlacklistTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string | null;
  company_name: string | null;
  linkedin: string | null;
  ln_id: string | null;
  email: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CompaniesBlacklistTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string | null;
  domain: string | null;
  linkedin: string | null;
  ln_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
