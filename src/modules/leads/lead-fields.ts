// The contact record's field catalogue, shared by the schemas, the input normaliser, the filter spec
// and the SQL: which columns exist, which a client may write and which values the status fields take.

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

/** Plain text columns a client may set on create, upsert and update. */
export const TEXT_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'company_name',
  'company_ln_id',
  'position',
  'headline',
  'about',
  'avatar_url',
  'facebook',
  'twitter',
  'work_phone_number',
  'personal_phone_number',
  'primary_language',
  'raw_address',
  /** IANA zone (checked in leads.input.ts): flows with use_lead_timezone plan this contact's steps in it. */
  'timezone',
] as const;

/** LinkedIn identifiers and e-mails: the deduplication keys, normalised before they are stored. */
export const IDENTIFIER_FIELDS = [
  'ln_member_id',
  'ln_id',
  'sn_id',
  'linkedin',
  'work_email',
  'personal_email',
] as const;

export const INTEGER_FIELDS = ['connections_number', 'followers_number'] as const;
export const FLAG_FIELDS = ['has_open_profile', 'has_verified_profile', 'has_premium'] as const;
export const TEXT_ARRAY_FIELDS = ['supported_languages', 'skills'] as const;
export const JSON_FIELDS = ['experience', 'posts', 'educations', 'location'] as const;
export const STATUS_FIELDS = ['linkedin_status', 'email_status'] as const;

/** Every column a client may write (besides list, stage, tags and custom fields). */
export const WRITABLE_COLUMNS = [
  ...TEXT_FIELDS,
  ...IDENTIFIER_FIELDS,
  ...INTEGER_FIELDS,
  ...FLAG_FIELDS,
  ...TEXT_ARRAY_FIELDS,
  ...JSON_FIELDS,
  ...STATUS_FIELDS,
] as const;

export type WritableColumn = (typeof WRITABLE_COLUMNS)[number];

/** PostgreSQL type of each writable column, for jsonb_to_recordset column lists and casts. */
export const COLUMN_SQL_TYPES: Record<WritableColumn, string> = {
  ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f, 'text'])) as Record<
    (typeof TEXT_FIELDS)[number],
    string
  >),
  ln_member_id: 'bigint',
  ln_id: 'text',
  sn_id: 'text',
  linkedin: 'text',
  work_email: 'text',
  personal_email: 'text',
  connections_number: 'integer',
  followers_number: 'integer',
  has_open_profile: 'smallint',
  has_verified_profile: 'smallint',
  has_premium: 'smallint',
  supported_languages: 'text[]',
  skills: 'text[]',
  experience: 'jsonb',
  posts: 'jsonb',
  educations: 'jsonb',
  location: 'jsonb',
  linkedin_status: 'text',
  email_status: 'text',
};
