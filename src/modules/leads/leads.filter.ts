// The contact filter: every stored field of a contact in the shared filter language (src/lib/filter.ts)
// over the alias `l`, plus the derived keys clients use (q, tags_all, email, work_email_domain,
// custom_fields). Searches, counts, metrics, mass actions and webhook contact filters all compile
// through loadLeadFilterSpec, so a filter means the same thing everywhere.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { inWireOrder } from '../../lib/field-catalog.js';
import { compileValue, type FilterSpec, filterError, textContains } from '../../lib/filter.js';
import { normalizeDomain } from '../../lib/normalize.js';
import { customFieldsFilterField } from '../custom-fields/custom-fields.filter.js';
import {
  type CustomFieldDefinition,
  selectCustomFieldDefinitions,
} from '../custom-fields/custom-fields.repository.js';
import { hasUnreadFilterField } from '../read-state/read-state.repository.js';
import { LEAD_CATALOG } from '../record-fields/lead-catalog.js';
import { tagFilterFields } from '../tags/tags.filter.js';

const lower = (value: string) => value.trim().toLowerCase();

/** `email`: matches the work or the personal e-mail; equality, lists and is_null / is_not_null. */
function compileEmail(value: unknown, path: string): RawBuilder<SqlBool> {
  if (value === 'is_null' || value === null) {
    return sql<SqlBool>`(l.work_email is null and l.personal_email is null)`;
  }
  if (value === 'is_not_null')
    return sql<SqlBool>`(l.work_email is not null or l.personal_email is not null)`;
  const values = Array.isArray(value) ? value : [value];
  const emails = values.map((item, index) => {
    if (typeof item !== 'string') {
      throw filterError(
        Array.isArray(value) ? `${path}.${index}` : path,
        `${path} takes an e-mail address or a list of them (matched against work_email and personal_email)`,
      );
    }
    return lower(item);
  });
  return sql<SqlBool>`(l.work_email = any(${emails}::text[]) or l.personal_email = any(${emails}::text[]))`;
}

/**
 * Key order of the contact filter (schema descriptions and messages list the keys in it); catalog fields
 * added since go at the `*`.
 */
const FILTER_ORDER = `q uuid user_id list_uuid pipeline_stage_uuid company_uuid data_source_uuid sender_profile_uuid
  name first_name last_name company_name company_ln_id position headline about avatar_url ln_member_id ln_id
  sn_id linkedin facebook twitter work_email personal_email email work_email_domain work_phone_number
  personal_phone_number connections_number followers_number primary_language supported_languages skills
  has_open_profile has_verified_profile has_premium raw_address timezone * status linkedin_status email_status
  is_blacklisted has_unread tags tags_all custom_fields last_automation_approve_at created_at updated_at`;

/** The catalog's filterable fields (each filters its own column unless it says otherwise). */
const CATALOG_FILTERS = LEAD_CATALOG.flatMap((field) =>
  field.filter ? [[field.key, field.filter] as const] : [],
);

/** The fields of the contact filter, with the team's custom field definitions. */
export function leadFilterFields(
  definitions: CustomFieldDefinition[],
  /** The team whose tag names `tags` may use (and whose unread messages `has_unread` reads). */
  teamId?: number,
): FilterSpec['fields'] {
  const derived: FilterSpec['fields'] = {
    q: {
      type: 'string',
      description:
        'Free text: name, e-mails, position, headline or company name contain it (case-insensitive)',
      compile: (value, { path }) => textContains(sql.ref('l.search_text'), value, path),
    },
    email: {
      type: 'string',
      description: 'Work or personal e-mail equals (a list: any of them)',
      compile: (value, { path }) => compileEmail(value, path),
    },
    work_email_domain: {
      type: 'string',
      description: 'Domain of the work e-mail ("acme.com")',
      compile: (value, { path }) =>
        compileValue(
          { type: 'string', normalize: (v) => normalizeDomain(v) ?? lower(v) },
          sql`split_part(l.work_email, '@', 2)`,
          value,
          path,
        ),
    },
    has_unread: hasUnreadFilterField(teamId),
    ...tagFilterFields('l.tags', 'contact', teamId),
    custom_fields: customFieldsFilterField(definitions, 'l.custom_fields'),
  };
  return Object.fromEntries(inWireOrder(FILTER_ORDER, [...CATALOG_FILTERS, ...Object.entries(derived)]));
}

/** Keys of the contact filter (for schema descriptions; custom field names go under custom_fields). */
export const LEAD_FILTER_KEYS = Object.keys(leadFilterFields([]));

export function leadFilterSpec(definitions: CustomFieldDefinition[], teamId: number): FilterSpec {
  return { name: 'contact filter', fields: leadFilterFields(definitions, teamId) };
}

/** The contact filter spec of a team (over alias `l`), with its custom fields loaded. */
export async function loadLeadFilterSpec(db: Executor, teamId: number): Promise<FilterSpec> {
  return leadFilterSpec(await selectCustomFieldDefinitions(db, teamId, 'lead'), teamId);
}
