// The contact and company objects of event payloads, built in SQL so one statement snapshots any
// number of records (a million-contact export included). Objects are rendered with row_to_json over a
// projection, about five times cheaper per row than jsonb_build_object with as many keys, and tag and
// custom field names come from two small jsonb maps computed once per statement, so the per-row work
// is in-memory lookups rather than a join per tag or field.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type CatalogField, inWireOrder, isoText, payloadExpression } from '../../lib/field-catalog.js';
import { LEAD_CATALOG } from '../record-fields/lead-catalog.js';

/** Timestamps as JavaScript's toISOString() writes them, so every date in a payload looks alike. */
const iso = isoText;

/** Name maps of the team: tag uuid → name and custom field uuid → name (contacts and companies). */
const names = (teamId: number) => sql`(
  select
    (select coalesce(jsonb_object_agg(t.uuid::text, t.name), '{}'::jsonb)
       from tags t where t.team_id = ${teamId}) as tags,
    (select coalesce(jsonb_object_agg(f.uuid::text, f.name), '{}'::jsonb)
       from custom_fields f where f.team_id = ${teamId} and f.object = 'lead') as lead_fields,
    (select coalesce(jsonb_object_agg(f.uuid::text, f.name), '{}'::jsonb)
       from custom_fields f where f.team_id = ${teamId} and f.object = 'company') as company_fields
)`;

// Most records have no tags or custom fields; the CASE skips the per-row subquery for them.
const tagNames = (column: string) => sql`case when cardinality(${sql.ref(column)}) = 0 then '[]'::json else (
  select coalesce(json_agg(n.tags ->> t.uuid::text), '[]'::json)
  from unnest(${sql.ref(column)}) as t(uuid) where n.tags ? t.uuid::text
) end`;

const customFieldsByName = (column: string, map: 'lead_fields' | 'company_fields') =>
  sql`case when ${sql.ref(column)} = '{}'::jsonb then '{}'::json else (
    select coalesce(json_object_agg(n.${sql.raw(map)} ->> f.key, f.value), '{}'::json)
    from jsonb_each(${sql.ref(column)}) as f where n.${sql.raw(map)} ? f.key
  ) end`;

const companyUrl = sql`case
  when c.linkedin is not null then 'https://www.linkedin.com/company/' || leadflow_url_encode(c.linkedin)
  when c.ln_id is not null then 'https://www.linkedin.com/company/' || c.ln_id
  end`;

/**
 * Key order of the contact object of event payloads (receivers may verify signatures over the bytes);
 * catalog fields added since go at the `*`.
 */
const CONTACT_PAYLOAD_ORDER = `uuid name first_name last_name company_name company_uuid position headline about
  avatar_url linkedin linkedin_url ln_id ln_member_id sn_id sales_navigator_url work_email personal_email
  work_phone_number personal_phone_number raw_address location connections_number followers_number * list_uuid
  list_name pipeline_stage_uuid pipeline_stage_name tags custom_fields status linkedin_status email_status
  created_at updated_at`;

export type PayloadField = {
  key: string;
  expression: RawBuilder<unknown>;
  /** The catalog field, unless the key is joined from another table. */
  field?: CatalogField;
  sample?: unknown;
};

/** The contact object's keys: the catalog's webhook fields with the joined names beside them. */
export const CONTACT_PAYLOAD_FIELDS: readonly PayloadField[] = inWireOrder<PayloadField>(
  CONTACT_PAYLOAD_ORDER,
  [
    ...LEAD_CATALOG.filter((field) => field.webhook).map((field): [string, PayloadField] => [
      field.key,
      { key: field.key, field, expression: payloadExpression(field, 'l') },
    ]),
    ['list_name', { key: 'list_name', expression: sql`ls.name`, sample: 'CMO Germany' }],
    ['pipeline_stage_name', { key: 'pipeline_stage_name', expression: sql`ps.name`, sample: 'Replied' }],
  ],
).map(([key, item]) => {
  if (key === 'tags') return { ...item, expression: tagNames('l.tags') };
  if (key === 'custom_fields') {
    return { ...item, expression: customFieldsByName('l.custom_fields', 'lead_fields') };
  }
  return item;
});

const contactJson = sql`(select row_to_json(o) from (select
  ${sql.join(CONTACT_PAYLOAD_FIELDS.map(({ key, expression }) => sql`${expression} as ${sql.id(key)}`))}
) o)`;

const accountJson = sql`case when c.uuid is null then null else (select row_to_json(o) from (select
  c.uuid, c.name, c.domain, c.website, c.industry, c.employees_range, c.employees_range as size,
  c.linkedin, ${companyUrl} as linkedin_url, c.ln_id, c.phone, c.hq_raw_address, c.logo_url, c.about,
  c.pipeline_stage_uuid, cps.name as pipeline_stage_name,
  ${tagNames('c.tags')} as tags, ${customFieldsByName('c.custom_fields', 'company_fields')} as custom_fields,
  c.status, c.linkedin_status, ${iso('c.created_at')} as created_at, ${iso('c.updated_at')} as updated_at
) o) end`;

/**
 * `select lead_uuid, contact, account` (json) for the team's contacts matching `where` (on alias `l`);
 * the account is the contact's linked company, or null.
 */
export function contactSnapshots(teamId: number, where: RawBuilder<SqlBool>) {
  return sql<{
    lead_uuid: string;
    contact: Record<string, unknown>;
    account: Record<string, unknown> | null;
  }>`
    select l.uuid as lead_uuid, ${contactJson} as contact, ${accountJson} as account
    from leads l
    cross join ${names(teamId)} n
    left join lists ls on ls.team_id = l.team_id and ls.uuid = l.list_uuid
    left join pipeline_stages ps on ps.team_id = l.team_id and ps.uuid = l.pipeline_stage_uuid
    left join companies c on c.team_id = l.team_id and c.uuid = l.company_uuid
    left join pipeline_stages cps on cps.team_id = c.team_id and cps.uuid = c.pipeline_stage_uuid
    where l.team_id = ${teamId} and ${where}`;
}

/** `select company_uuid, account` (json) for the team's companies matching `where` (on alias `c`). */
export function accountSnapshots(teamId: number, where: RawBuilder<SqlBool>) {
  return sql<{ company_uuid: string; account: Record<string, unknown> }>`
    select c.uuid as company_uuid, ${accountJson} as account
    from companies c
    cross join ${names(teamId)} n
    left join pipeline_stages cps on cps.team_id = c.team_id and cps.uuid = c.pipeline_stage_uuid
    where c.team_id = ${teamId} and ${where}`;
}
