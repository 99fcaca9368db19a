// Values the contact field catalog names: the status vocabularies and the SQL of the computed URLs.
import { sql } from 'kysely';

/** Enrichment state of the LinkedIn data (the hosted service's values). */
export const LINKEDIN_STATUSES = [
  'need_enrichment',
  'enrichment_failed',
  'no_data',
  'blocked',
  'ok',
] as const;
/** State of the e-mail address. */
export const EMAIL_STATUSES = ['need_search', 'no_data', 'unsubscribed', 'ok'] as const;
/** Record quality; set by the service, not by clients. */
export const LEAD_STATUSES = ['ok', 'failed_validation', 'no_contact_data', 'duplicate'] as const;

// Same URLs as linkedInProfileUrl() and salesNavigatorUrl() in src/lib/linkedin.ts; plain ASCII
// nicknames skip the encoder.
export const profileUrl = sql`case
  when l.linkedin is null then null
  when l.linkedin ~ '^[A-Za-z0-9_-]+$' then 'https://www.linkedin.com/in/' || l.linkedin
  else 'https://www.linkedin.com/in/' || leadflow_url_encode(l.linkedin) end`;
export const salesNavigatorUrl = sql`'https://www.linkedin.com/sales/lead/' || l.sn_id`;

/** The deduplication keys (the catalog's `identifier` fields, in this order). */
export type IdentifierField =
  | 'ln_member_id'
  | 'ln_id'
  | 'sn_id'
  | 'linkedin'
  | 'work_email'
  | 'personal_email';

/** Input keys that identify a contact: the identifier columns and the aliases parsed into them. */
export const IDENTIFYING_INPUTS = [
  'linkedin_id',
  'linkedin',
  'ln_member_id',
  'ln_id',
  'sn_id',
  'email',
  'work_email',
  'personal_email',
] as const;
/** Input keys that name a contact. */
export const NAME_INPUTS = ['name', 'first_name', 'last_name'] as const;
