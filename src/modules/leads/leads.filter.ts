// The contact filter: every stored field of a contact in the shared filter language (src/lib/filter.ts)
// over the alias `l`, plus the derived keys clients use (q, tags_all, email, work_email_domain,
// custom_fields). Searches, counts, metrics, mass actions and webhook contact filters all compile
// through loadLeadFilterSpec, so a filter means the same thing everywhere.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import {
  caseInsensitiveField,
  compileValue,
  type FilterField,
  type FilterSpec,
  filterError,
  textContains,
} from '../../lib/filter.js';
import { parseLinkedInPerson } from '../../lib/linkedin.js';
import { normalizeDomain } from '../../lib/normalize.js';
import { customFieldsFilterField } from '../custom-fields/custom-fields.filter.js';
import {
  type CustomFieldDefinition,
  selectCustomFieldDefinitions,
} from '../custom-fields/custom-fields.repository.js';
import { hasUnreadFilterField } from '../read-state/read-state.repository.js';
import { tagFilterFields } from '../tags/tags.filter.js';
import { EMAIL_STATUSES, LEAD_STATUSES, LINKEDIN_STATUSES } from './lead-fields.js';

const lower = (value: string) => value.trim().toLowerCase();

function text(column: string, description?: string): FilterField {
  return { type: 'string', column, ...(description ? { description } : {}) };
}

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

/** The fields of the contact filter, with the team's custom field definitions. */
export function leadFilterFields(
  definitions: CustomFieldDefinition[],
  /** The team whose tag names `tags` may use (and whose unread messages `has_unread` reads). */
  teamId?: number,
): FilterSpec['fields'] {
  return {
    q: {
      type: 'string',
      description:
        'Free text: name, e-mails, position, headline or company name contain it (case-insensitive)',
      compile: (value, { path }) => textContains(sql.ref('l.search_text'), value, path),
    },
    uuid: { type: 'uuid', column: 'l.uuid' },
    user_id: { type: 'integer', column: 'l.user_id' },
    list_uuid: { type: 'uuid', column: 'l.list_uuid' },
    pipeline_stage_uuid: { type: 'uuid', column: 'l.pipeline_stage_uuid' },
    company_uuid: { type: 'uuid', column: 'l.company_uuid' },
    data_source_uuid: { type: 'uuid', column: 'l.data_source_uuid' },
    sender_profile_uuid: { type: 'uuid', column: 'l.sender_profile_uuid' },
    name: caseInsensitiveField('l.name', 'Full name, case-insensitive'),
    first_name: text('l.first_name'),
    last_name: text('l.last_name'),
    company_name: caseInsensitiveField('l.company_name', 'Company name, case-insensitive'),
    company_ln_id: text('l.company_ln_id'),
    position: text('l.position'),
    headline: text('l.headline'),
    about: text('l.about'),
    avatar_url: text('l.avatar_url'),
    ln_member_id: { type: 'integer', column: 'l.ln_member_id' },
    ln_id: text('l.ln_id'),
    sn_id: text('l.sn_id'),
    linkedin: {
      type: 'string',
      column: 'l.linkedin',
      description: 'LinkedIn nickname (a profile URL is accepted too)',
      normalize: (value) => parseLinkedInPerson(value)?.linkedin ?? lower(value),
    },
    facebook: text('l.facebook'),
    twitter: text('l.twitter'),
    work_email: { type: 'string', column: 'l.work_email', normalize: lower },
    personal_email: { type: 'string', column: 'l.personal_email', normalize: lower },
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
    work_phone_number: text('l.work_phone_number'),
    personal_phone_number: text('l.personal_phone_number'),
    connections_number: { type: 'integer', column: 'l.connections_number' },
    followers_number: { type: 'integer', column: 'l.followers_number' },
    primary_language: text('l.primary_language'),
    supported_languages: { type: 'string', array: true, column: 'l.supported_languages' },
    skills: { type: 'string', array: true, column: 'l.skills' },
    has_open_profile: { type: 'integer', column: 'l.has_open_profile' },
    has_verified_profile: { type: 'integer', column: 'l.has_verified_profile' },
    has_premium: { type: 'integer', column: 'l.has_premium' },
    raw_address: text('l.raw_address'),
    timezone: text('l.timezone'),
    status: { type: 'enum', values: LEAD_STATUSES, column: 'l.status' },
    linkedin_status: { type: 'enum', values: LINKEDIN_STATUSES, column: 'l.linkedin_status' },
    email_status: { type: 'enum', values: EMAIL_STATUSES, column: 'l.email_status' },
    is_blacklisted: { type: 'boolean', column: 'l.is_blacklisted' },
    has_unread: hasUnreadFilterField(teamId),
    ...tagFilterFields('l.tags', 'contact', teamId),
    custom_fields: customFieldsFilterField(definitions, 'l.custom_fields'),
    last_automation_approve_at: { type: 'datetime', column: 'l.last_automation_approve_at' },
    created_at: { type: 'datetime', column: 'l.created_at' },
    updated_at: { type: 'datetime', column: 'l.updated_at' },
  };
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
