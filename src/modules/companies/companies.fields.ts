// The company record's field catalogue, shared by the schemas, the input normaliser and the SQL.

/** Record quality (the hosted service's values). */
export const COMPANY_STATUSES = ['ok', 'failed_validation', 'duplicate'] as const;
/** Enrichment state of the LinkedIn data. */
export const COMPANY_LINKEDIN_STATUSES = ['need_enrichment', 'enrichment_failed', 'no_data', 'ok'] as const;
/** IP network type of the website (the hosted service spells "eduction" that way). */
export const NETWORK_TYPES = ['business', 'eduction', 'hosting', 'isp'] as const;

/** Plain text columns a client may set. */
export const COMPANY_TEXT_FIELDS = [
  'facebook',
  'twitter',
  'phone',
  'hq_raw_address',
  'logo_url',
  'industry',
  'employees_range',
  'about',
  'tagline',
  'network_type',
] as const;

export const COMPANY_INTEGER_FIELDS = ['employees_on_linkedin', 'followers', 'year_established'] as const;
export const COMPANY_TEXT_ARRAY_FIELDS = ['hashtags', 'specialities'] as const;

/**
 * Columns the create/upsert statement writes from each input row, with their PostgreSQL types (the
 * column list of jsonb_to_recordset). Identifiers (ln_id, linkedin, domain) are handled apart.
 */
export const UPSERT_VALUE_COLUMNS: Record<string, string> = {
  name: 'text',
  website: 'text',
  ...Object.fromEntries(COMPANY_TEXT_FIELDS.map((field) => [field, 'text'])),
  ...Object.fromEntries(COMPANY_INTEGER_FIELDS.map((field) => [field, 'integer'])),
  ...Object.fromEntries(COMPANY_TEXT_ARRAY_FIELDS.map((field) => [field, 'text[]'])),
  hq_location: 'jsonb',
  deal_size: 'numeric',
};

/** Canonical LinkedIn page of a company, from its slug or else its numeric id. */
export function linkedInCompanyUrl(slug: string | null, lnId: number | null): string | null {
  if (slug) return `https://www.linkedin.com/company/${encodeURIComponent(slug)}`;
  if (lnId !== null && lnId !== undefined) return `https://www.linkedin.com/company/${lnId}`;
  return null;
}
