// Owner: email writes custom_tracking_domains.
import type { CreatedAt, Defaulted, UpdatedAt } from '../../../db/column-types.js';

export type TrackingDomainStatus = 'pending' | 'verified' | 'failed';

export interface CustomTrackingDomainsTable {
  team_id: number;
  uuid: string;
  /** The host the team points at Leadflow, lower case (track.example.com). */
  domain: string;
  status: Defaulted<TrackingDomainStatus>;
  /** The CNAME targets the last check found. */
  cname_found: Defaulted<string[]>;
  error: string | null;
  verified_at: Date | null;
  checked_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
