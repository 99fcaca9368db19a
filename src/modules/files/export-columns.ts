// The columns of a CSV export and the SQL that reads them. Every value leaves PostgreSQL as text (dates
// in ISO 8601, tags and lists as names joined by ", "), so the export job only quotes and writes.
// Header names are the import targets where one exists, so an export re-imports with a plain mapping.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { invalidField } from '../../lib/errors.js';
import { type CatalogField, exportExpression, inWireOrder } from '../../lib/field-catalog.js';
import type { CustomFieldDefinition } from '../custom-fields/custom-fields.repository.js';
import { LEAD_CATALOG } from '../record-fields/lead-catalog.js';
import type { ExportType } from './files.tables.js';

export type ExportColumn = { header: string; expression: RawBuilder<unknown> };

const iso = (column: string) =>
  sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const plain = (alias: string) => (column: string) => ({
  header: column,
  expression: sql.ref(`${alias}.${column}`),
});
const asText = (alias: string) => (column: string) => ({
  header: column,
  expression: sql`${sql.ref(`${alias}.${column}`)}::text`,
});
/** Names of a uuid array column from the jsonb name map `n.<map>` (uuid → name), in array order. */
const namesOf = (column: string, map: string) =>
  sql`case when cardinality(${sql.ref(column)}) = 0 then null else (
    select string_agg(n.${sql.raw(map)} ->> u.id::text, ', ' order by u.n)
    from unnest(${sql.ref(column)}) with ordinality u(id, n) where n.${sql.raw(map)} ? u.id::text
  ) end`;
const joined = (column: string) => sql`array_to_string(${sql.ref(column)}, ', ')`;

/**
 * Header order of contact exports (files re-import with a plain mapping, so it stays as clients know it);
 * catalog fields added since go at the `*`.
 */
const CONTACT_EXPORT_ORDER = `uuid first_name last_name name company_name position headline about work_email
  personal_email work_phone_number personal_phone_number linkedin linkedin_url ln_id sn_id sales_navigator_url
  ln_member_id facebook twitter avatar_url raw_address company_ln_id company_uuid connections_number
  followers_number primary_language skills supported_languages status linkedin_status email_status * list_uuid
  list_name pipeline_stage_uuid pipeline_stage_name tags created_at updated_at`;

/** The export columns of a record type: its catalog's exported fields, with joined names beside them. */
function catalogColumns(
  catalog: readonly CatalogField[],
  alias: string,
  order: string,
  special: Record<string, RawBuilder<unknown>>,
): ExportColumn[] {
  const fields = catalog
    .filter((field) => field.export)
    .map((field) => [field.key, special[field.key] ?? exportExpression(field, alias)] as const);
  const extras = Object.entries(special).filter(([key]) => !fields.some(([name]) => name === key));
  return inWireOrder(order, [...fields, ...extras]).map(([header, expression]) => ({ header, expression }));
}

const LEAD_COLUMNS = catalogColumns(LEAD_CATALOG, 'l', CONTACT_EXPORT_ORDER, {
  list_name: sql`ls.name`,
  pipeline_stage_name: sql`ps.name`,
  tags: namesOf('l.tags', 'tags'),
});

const c = plain('c');
const ct = asText('c');

const COMPANY_COLUMNS: ExportColumn[] = [
  ct('uuid'),
  ...['name', 'domain', 'website', 'linkedin'].map(c),
  {
    header: 'linkedin_url',
    expression: sql`case when c.linkedin is not null then 'https://www.linkedin.com/company/' || leadflow_url_encode(c.linkedin)
      when c.ln_id is not null then 'https://www.linkedin.com/company/' || c.ln_id end`,
  },
  ct('ln_id'),
  ...['industry', 'employees_range'].map(c),
  ...['employees_on_linkedin', 'followers', 'year_established'].map(ct),
  ...['phone', 'hq_raw_address', 'about', 'tagline', 'facebook', 'twitter', 'logo_url', 'network_type'].map(
    c,
  ),
  ct('deal_size'),
  { header: 'hashtags', expression: joined('c.hashtags') },
  { header: 'specialities', expression: joined('c.specialities') },
  ...['status', 'linkedin_status'].map(c),
  ct('pipeline_stage_uuid'),
  { header: 'pipeline_stage_name', expression: sql`ps.name` },
  { header: 'lists', expression: namesOf('c.lists', 'lists') },
  { header: 'tags', expression: namesOf('c.tags', 'tags') },
  { header: 'created_at', expression: iso('c.created_at') },
  { header: 'updated_at', expression: iso('c.updated_at') },
];

export function standardColumns(type: ExportType): ExportColumn[] {
  return type === 'contact_export_csv' ? LEAD_COLUMNS : COMPANY_COLUMNS;
}

/**
 * The columns of an export: the standard ones, then one per custom field named by the field (a name
 * that is also a standard column gets " (custom field)"), narrowed to `fields` when given.
 */
export function exportColumns(
  type: ExportType,
  definitions: Pick<CustomFieldDefinition, 'uuid' | 'name'>[],
  fields: string[] | null,
): ExportColumn[] {
  const standard = standardColumns(type);
  const alias = type === 'contact_export_csv' ? 'l' : 'c';
  const taken = new Set(standard.map((column) => column.header.toLowerCase()));
  const custom = definitions.map((definition) => ({
    header: taken.has(definition.name.toLowerCase()) ? `${definition.name} (custom field)` : definition.name,
    expression: sql`${sql.ref(`${alias}.custom_fields`)} ->> ${definition.uuid}`,
  }));
  const all = [...standard, ...custom];
  if (!fields) return all;
  const byHeader = new Map(all.map((column) => [column.header.toLowerCase(), column]));
  return fields.map((field, index) => {
    const column = byHeader.get(field.trim().toLowerCase());
    if (!column) {
      throw invalidField(
        `fields.${index}`,
        `fields.${index}: "${field}" is neither a standard export column nor one of your custom fields. Columns: ${all.map((col) => col.header).join(', ')}.`,
      );
    }
    return column;
  });
}

/**
 * The SELECT an export streams: one JSON array of the columns' text values per record of the team
 * matching `where`. One field per row instead of one per column costs the client a single JSON.parse
 * instead of dozens of field conversions, which is most of the export's time.
 */
export function exportQuery(
  type: ExportType,
  teamId: number,
  columns: ExportColumn[],
  where: RawBuilder<SqlBool> | undefined,
) {
  // An array constructor, unlike json_build_array, takes any number of columns (custom fields add up to 100).
  const selected = sql`to_json(array[${sql.join(columns.map((column) => column.expression))}]::text[]) as r`;
  const names = sql`(
    select
      (select coalesce(jsonb_object_agg(t.uuid::text, t.name), '{}'::jsonb) from tags t where t.team_id = ${teamId}) as tags,
      (select coalesce(jsonb_object_agg(s.uuid::text, s.name), '{}'::jsonb) from lists s where s.team_id = ${teamId}) as lists
  ) n`;
  const filter = where ?? sql<SqlBool>`true`;
  if (type === 'contact_export_csv') {
    return sql`
      select ${selected}
      from leads l
      cross join ${names}
      left join lists ls on ls.team_id = l.team_id and ls.uuid = l.list_uuid
      left join pipeline_stages ps on ps.team_id = l.team_id and ps.uuid = l.pipeline_stage_uuid
      where l.team_id = ${teamId} and ${filter}
      order by l.uuid`;
  }
  return sql`
    select ${selected}
    from companies c
    cross join ${names}
    left join pipeline_stages ps on ps.team_id = c.team_id and ps.uuid = c.pipeline_stage_uuid
    where c.team_id = ${teamId} and ${filter}
    order by c.uuid`;
}
