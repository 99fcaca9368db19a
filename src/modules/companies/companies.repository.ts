// SQL of the companies API (alias `c` throughout, so compiled company filters apply everywhere).

import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { orderByClause, type PageRequest } from '../../lib/pagination.js';
import { deleteActivitiesOfCompanies } from '../activities/activities.repository.js';
import { unlinkContactsFromCompanies } from '../leads/company-links.js';
import type { LeadRow } from '../leads/leads.present.js';
import { deleteNotesOf } from '../notes/notes.repository.js';
import {
  COMPANY_INTEGER_FIELDS,
  COMPANY_TEXT_ARRAY_FIELDS,
  COMPANY_TEXT_FIELDS,
} from './companies.fields.js';
import { companySort } from './companies.filter.js';
import type { CompanyRow } from './companies.mapper.js';

export async function selectCompanyPage(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool> | undefined,
  page: PageRequest,
) {
  let base = db.selectFrom('companies as c').where('c.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('c')
      .orderBy(orderByClause(page, companySort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** How many of the team's companies match `where`. */
export async function countCompaniesWhere(db: Executor, teamId: number, where: RawBuilder<SqlBool>) {
  const row = await db
    .selectFrom('companies as c')
    .where('c.team_id', '=', teamId)
    .where(where)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function selectCompany(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('companies as c')
    .selectAll('c')
    .where('c.team_id', '=', teamId)
    .where('c.uuid', '=', uuid)
    .executeTakeFirst();
}

export async function selectCompaniesByUuids(db: Executor, teamId: number, uuids: string[]) {
  if (uuids.length === 0) return [];
  return db
    .selectFrom('companies as c')
    .selectAll('c')
    .where('c.team_id', '=', teamId)
    .where(sql<SqlBool>`c.uuid = any(${uuids}::uuid[])`)
    .execute();
}

/** Columns a company update writes; team_id, uuid, user_id, created_at and flags stay server-owned. */
const PATCH_COLUMNS = new Set<string>([
  'name',
  'website',
  'domain',
  'ln_id',
  'linkedin',
  ...COMPANY_TEXT_FIELDS,
  ...COMPANY_INTEGER_FIELDS,
  ...COMPANY_TEXT_ARRAY_FIELDS,
  'hq_location',
  'deal_size',
  'status',
  'linkedin_status',
  'data_source_uuid',
  'pipeline_stage_uuid',
  'tags',
  'lists',
  'custom_fields',
  'updated_at',
]);

export async function updateCompanyRow(
  db: Executor,
  teamId: number,
  uuid: string,
  values: Record<string, unknown>,
) {
  const named: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values)) {
    // A programming error, not a client one: the service hands over normalised columns only.
    if (!PATCH_COLUMNS.has(column)) throw new Error(`updateCompanyRow: ${column} is not an updatable column`);
    named[column] = value;
  }
  return db
    .updateTable('companies')
    .set(named)
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

/** The stored custom field values with `set` written over them and the `cleared` field uuids removed. */
export function mergedCustomFields(set: Record<string, unknown>, cleared: string[]) {
  return sql`(companies.custom_fields || ${JSON.stringify(set)}::jsonb) - ${cleared}::text[]`;
}

/** The company of the team that holds `value` in the unique column `field` (for 409 messages). */
export async function selectCompanyHolding(
  db: Executor,
  teamId: number,
  field: 'ln_id' | 'linkedin' | 'domain' | 'name',
  value: unknown,
  exceptUuid: string,
) {
  const column = field === 'name' ? sql`lower(c.name)` : sql.ref(`c.${field}`);
  const compared = field === 'name' ? String(value).toLowerCase() : value;
  const result = await sql<{ uuid: string }>`
    select c.uuid from companies c
    where c.team_id = ${teamId} and ${column} = ${compared} and c.uuid <> ${exceptUuid}
    limit 1
  `.execute(db);
  return result.rows[0]?.uuid;
}

/**
 * Deletes the team's companies matching `where` (alias `c`): their contacts keep existing without a
 * company (unlinked by the contacts module) and their notes and own activities go with them, each
 * through its owner. Returns how many companies were deleted. Run it in a transaction.
 */
export async function deleteCompaniesWhere(
  trx: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
): Promise<number> {
  const result = await sql<{ uuid: string }>`
    delete from companies c where c.team_id = ${teamId} and ${where} returning c.uuid
  `.execute(trx);
  const uuids = result.rows.map((row) => row.uuid);
  if (uuids.length === 0) return 0;
  await unlinkContactsFromCompanies(trx, teamId, uuids);
  await deleteNotesOf(trx, teamId, 'company', uuids);
  await deleteActivitiesOfCompanies(trx, teamId, uuids);
  return uuids.length;
}

/**
 * Adds `replacement` (when given) to the companies holding the list `listUuid` and removes that list from
 * them. Served by the GIN index on lists.
 */
export async function replaceListInCompanies(
  db: Executor,
  teamId: number,
  listUuid: string,
  replacement?: string,
) {
  await sql`
    update companies set
      lists = array(select distinct unnest(array_remove(lists, ${listUuid}::uuid) || ${replacement ? sql`array[${replacement}::uuid]` : sql`'{}'::uuid[]`})),
      updated_at = now()
    where team_id = ${teamId} and lists @> array[${listUuid}::uuid]
  `.execute(db);
}

/** Deletes one company of the team (see deleteCompaniesWhere); 0 when there is none. */
export function deleteCompany(db: Executor, teamId: number, uuid: string): Promise<number> {
  return deleteCompaniesWhere(db, teamId, sql<SqlBool>`c.uuid = ${uuid}`);
}

export type LookupKeys = {
  ln_id: number | null;
  linkedin: string | null;
  domain: string | null;
  name_key: string | null;
};

/**
 * For each criterion, in order, the best matching company of the team or undefined: one statement for
 * the whole array (unnest with ordinality + a lateral probe of the identifier indexes).
 */
export async function lookupCompanies(
  db: Executor,
  teamId: number,
  criteria: LookupKeys[],
): Promise<(CompanyRow | undefined)[]> {
  if (criteria.length === 0) return [];
  const column = <K extends keyof LookupKeys>(key: K) => criteria.map((criterion) => criterion[key]);
  const result = await sql<CompanyRow & { ord: number }>`
    select q.ord, m.*
    from unnest(${column('ln_id')}::bigint[], ${column('linkedin')}::text[], ${column('domain')}::text[],
                ${column('name_key')}::text[]) with ordinality as q(ln_id, linkedin, domain, name_key, ord)
    left join lateral (
      select c.* from companies c
      where c.team_id = ${teamId}
        and (c.ln_id = q.ln_id or c.linkedin = q.linkedin or c.domain = q.domain or lower(c.name) = q.name_key)
      order by case when c.ln_id = q.ln_id then 0 when c.linkedin = q.linkedin then 1
                    when c.domain = q.domain then 2 else 3 end, c.created_at, c.uuid
      limit 1
    ) m on true
    order by q.ord
  `.execute(db);
  return result.rows.map((row) => (row.uuid ? row : undefined));
}

export const CONTACTS_PER_COMPANY = 1000;

/** Contacts of the team's companies among `uuids` (oldest first, capped per company), in one query. */
export async function selectContactsOfCompanies(db: Executor, teamId: number, uuids: string[]) {
  const result = await sql<{ owner_uuid: string } & (LeadRow | { [K in keyof LeadRow]: null })>`
    select c.uuid as owner_uuid, l.*
    from companies c
    left join lateral (
      select l.* from leads l
      where l.team_id = ${teamId} and l.company_uuid = c.uuid
      order by l.created_at, l.uuid
      limit ${CONTACTS_PER_COMPANY}
    ) l on true
    where c.team_id = ${teamId} and c.uuid = any(${uuids}::uuid[])
    order by c.uuid, l.created_at, l.uuid
  `.execute(db);
  return result.rows;
}
