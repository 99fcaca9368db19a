// The company filter (GET /leads/api/companies, POST /leads/api/companies/list and the mass actions) in
// the shared filter language over the alias `c`, plus the keys real clients send (q, tags_all,
// lead_status_uuid, deal_size as a minimum, custom_fields by name).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import {
  caseInsensitiveField,
  compileFilter,
  compileValue,
  type FilterField,
  type FilterSpec,
  textContains,
} from '../../lib/filter.js';
import { parseLinkedInCompany } from '../../lib/linkedin.js';
import { normalizeDomain } from '../../lib/normalize.js';
import type { SortSpec } from '../../lib/pagination.js';
import { customFieldsFilterField } from '../custom-fields/custom-fields.filter.js';
import {
  type CustomFieldDefinition,
  selectCustomFieldDefinitions,
} from '../custom-fields/custom-fields.repository.js';
import { tagFilterFields } from '../tags/tags.filter.js';
import { COMPANY_LINKEDIN_STATUSES, COMPANY_STATUSES } from './companies.fields.js';

const lower = (value: string) => value.trim().toLowerCase();

/** The expression of the trigram index companies_team_search_idx; written identically so it is used. */
const SEARCH_TEXT = sql`lower(coalesce(c.name, '') || ' ' || coalesce(c.domain, ''))`;

/**
 * `name`: a string (or a list of strings) the name contains, case-insensitively; the trigram index
 * over name + domain narrows the rows first. Operators ({"=": "Acme"}) and is_null compare exactly,
 * case-insensitively.
 */
function compileName(value: unknown, path: string): RawBuilder<SqlBool> {
  const contains = (item: unknown, itemPath: string) =>
    sql<SqlBool>`(${textContains(SEARCH_TEXT, item, itemPath)} and ${textContains(sql.ref('c.name'), item, itemPath)})`;
  if (typeof value === 'string' && value !== 'is_null' && value !== 'is_not_null')
    return contains(value, path);
  if (typeof value === 'number') return contains(value, path);
  if (Array.isArray(value)) {
    if (value.length === 0) return sql<SqlBool>`false`;
    return sql<SqlBool>`(${sql.join(
      value.map((item, index) => contains(item, `${path}.${index}`)),
      sql` or `,
    )})`;
  }
  return compileValue({ type: 'string', normalize: lower }, sql`lower(c.name)`, value, path);
}

/** `deal_size`: a bare number is the minimum (as the hosted service's clients send it); operators as usual. */
function compileDealSize(value: unknown, path: string): RawBuilder<SqlBool> {
  const field: FilterField = { type: 'number' };
  const isScalar =
    typeof value === 'number' ||
    (typeof value === 'string' && value !== 'is_null' && value !== 'is_not_null');
  return compileValue(field, sql.ref('c.deal_size'), isScalar ? { '>=': value } : value, path);
}

const stage: FilterField = {
  type: 'uuid',
  column: 'c.pipeline_stage_uuid',
  description: 'Pipeline stage UUID',
};

/** The fields of the company filter, with the team's company custom field definitions. */
export function companyFilterFields(
  definitions: CustomFieldDefinition[],
  /** The team whose tag names `tags` may use. */
  teamId?: number,
): FilterSpec['fields'] {
  return {
    q: {
      type: 'string',
      description: 'Free text: name or domain contains it (case-insensitive)',
      compile: (value, { path }) => textContains(SEARCH_TEXT, value, path),
    },
    uuid: { type: 'uuid', column: 'c.uuid', description: 'Company UUID' },
    name: {
      type: 'string',
      description: 'Name contains it (case-insensitive); {"=": "..."} compares exactly',
      compile: (value, { path }) => compileName(value, path),
    },
    domain: {
      type: 'string',
      column: 'c.domain',
      description:
        'Website domain equals (a URL is reduced to its domain: https://www.acme.com/x → acme.com)',
      normalize: (value) => normalizeDomain(value) ?? lower(value),
    },
    ln_id: { type: 'integer', column: 'c.ln_id', description: 'Numeric LinkedIn company id' },
    linkedin: {
      type: 'string',
      column: 'c.linkedin',
      description: 'LinkedIn page slug (a company page URL is accepted too)',
      normalize: (value) => parseLinkedInCompany(value)?.linkedin ?? lower(value),
    },
    linkedin_status: { type: 'enum', values: COMPANY_LINKEDIN_STATUSES, column: 'c.linkedin_status' },
    status: { type: 'enum', values: COMPANY_STATUSES, column: 'c.status' },
    lists: {
      type: 'uuid',
      array: true,
      column: 'c.lists',
      description: 'List UUIDs: companies in any of them; "is_null" companies in no list',
    },
    ...tagFilterFields('c.tags', 'company', teamId),
    pipeline_stage_uuid: stage,
    lead_status_uuid: { ...stage, description: 'Alias of pipeline_stage_uuid' },
    data_source_uuid: { type: 'uuid', column: 'c.data_source_uuid' },
    industry: caseInsensitiveField('c.industry', 'Industry equals (case-insensitive)'),
    employees_range: { type: 'string', column: 'c.employees_range', description: 'e.g. "51-200"' },
    deal_size: {
      type: 'number',
      description: 'A number is the minimum deal size; operators ({"<": 1000}) and {from, to} work too',
      compile: (value, { path }) => compileDealSize(value, path),
    },
    custom_fields: customFieldsFilterField(definitions, 'c.custom_fields'),
    is_blacklisted: { type: 'boolean', column: 'c.is_blacklisted' },
    created_at: { type: 'datetime', column: 'c.created_at' },
    updated_at: { type: 'datetime', column: 'c.updated_at' },
  };
}

/** Keys of the company filter (custom field names go under custom_fields). */
export const COMPANY_FILTER_KEYS = Object.keys(companyFilterFields([]));

export function companyFilterSpec(definitions: CustomFieldDefinition[], teamId: number): FilterSpec {
  return { name: 'company filter', fields: companyFilterFields(definitions, teamId) };
}

/** Compiles a company filter of a team; loads the custom field definitions only when it uses them. */
export async function compileCompanyFilter(
  db: Executor,
  teamId: number,
  filter: unknown,
  path = 'filter',
): Promise<RawBuilder<SqlBool> | undefined> {
  const usesCustomFields =
    filter !== null && typeof filter === 'object' && 'custom_fields' in (filter as object);
  const definitions = usesCustomFields ? await selectCustomFieldDefinitions(db, teamId, 'company') : [];
  return compileFilter(companyFilterSpec(definitions, teamId), filter, path);
}

export const companySort: SortSpec = {
  fields: {
    created_at: 'c.created_at',
    updated_at: 'c.updated_at',
    name: 'c.name',
    deal_size: 'c.deal_size',
    employees_on_linkedin: 'c.employees_on_linkedin',
    uuid: 'c.uuid',
  },
  tiebreaker: 'c.uuid',
};
