// Owner: companies writes companies.
import type { CreatedAt, Defaulted, Json, NullableJson, UpdatedAt } from '../../db/column-types.js';

export interface CompaniesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  data_source_uuid: string | null;
  pipeline_stage_uuid: string | null;
  name: string | null;
  /** Normalised host, e.g. acme.com (dedup key). */
  domain: string | null;
  website: string | null;
  /** Numeric LinkedIn company id (dedup key). */
  ln_id: number | null;
  /** LinkedIn page slug, lower case (dedup key). */
  linkedin: string | null;
  facebook: string | null;
  twitter: string | null;
  phone: string | null;
  hq_raw_address: string | null;
  hq_location: NullableJson<unknown[]>;
  logo_url: string | null;
  industry: string | null;
  employees_range: string | null;
  employees_on_linkedin: number | null;
  followers: number | null;
  year_established: number | null;
  about: string | null;
  tagline: string | null;
  hashtags: string[] | null;
  specialities: string[] | null;
  network_type: string | null;
  /** numeric: read as a string. */
  deal_size: string | number | null;
  lists: Defaulted<string[]>;
  tags: Defaulted<string[]>;
  /** custom field uuid → value */
  custom_fields: Json<Record<string, unknown>>;
  status: Defaulted<string>;
  linkedin_status: Defaulted<string>;
  is_blacklisted: Defaulted<boolean>;
  last_enrich_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
