// Writing what LinkedIn showed into contacts and companies, set-based: one UPDATE ... FROM
// jsonb_to_recordset per batch. A field is filled only when it is empty (null or ''), unless the entry
// asks to `refresh` (then a value LinkedIn shows replaces the stored one; a value it does not show
// never clears one). Identifiers (LinkedIn ids, slug, company domain) are deduplication keys, unique
// per team: they are only ever filled when empty and when no other record of the team holds them.
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { normalizeDomain } from '../../lib/normalize.js';
import type { LinkedInCompanyPage, LinkedInProfile } from '../channels/reader.js';
import { LEAD_CATALOG } from '../record-fields/lead-catalog.js';

type Column = { name: string; type: string };

/** The contact columns LinkedIn profiles fill (the catalog's `profile` fields), identifiers apart. */
const profileColumns = (identifiers: boolean): Column[] =>
  LEAD_CATALOG.filter((field) => field.profile && !!field.identifier === identifiers).map((field) => ({
    name: field.key,
    type: field.sql!,
  }));
const LEAD_FIELDS = profileColumns(false);
const LEAD_IDENTIFIERS = profileColumns(true);

const COMPANY_FIELDS: Column[] = [
  { name: 'name', type: 'text' },
  { name: 'website', type: 'text' },
  { name: 'industry', type: 'text' },
  { name: 'employees_range', type: 'text' },
  { name: 'employees_on_linkedin', type: 'integer' },
  { name: 'followers', type: 'integer' },
  { name: 'hq_raw_address', type: 'text' },
  { name: 'about', type: 'text' },
  { name: 'tagline', type: 'text' },
  { name: 'year_established', type: 'integer' },
  { name: 'specialities', type: 'text[]' },
  { name: 'phone', type: 'text' },
  { name: 'logo_url', type: 'text' },
];
const COMPANY_IDENTIFIERS: Column[] = [
  { name: 'ln_id', type: 'bigint' },
  { name: 'linkedin', type: 'text' },
  { name: 'domain', type: 'text' },
];

/** `x.col` is empty: null, '' for text. */
function empty(alias: string, column: Column): RawBuilder<unknown> {
  const ref = sql.ref(`${alias}.${column.name}`);
  return column.type === 'text' ? sql`nullif(${ref}, '')` : ref;
}

function fieldAssignments(alias: string, columns: Column[]) {
  return columns.map(
    (column) =>
      sql`${sql.id(column.name)} = case when v.refresh
        then coalesce(${sql.ref(`v.${column.name}`)}, ${sql.ref(`${alias}.${column.name}`)})
        else coalesce(${empty(alias, column)}, ${sql.ref(`v.${column.name}`)}) end`,
  );
}

function identifierAssignments(table: string, alias: string, columns: Column[], teamId: number) {
  return columns.map((column) => {
    const mine = sql.ref(`${alias}.${column.name}`);
    const value = sql.ref(`v.${column.name}`);
    return sql`${sql.id(column.name)} = coalesce(${mine}, case when not exists (
        select 1 from ${sql.table(table)} o where o.team_id = ${teamId}
          and ${sql.ref(`o.${column.name}`)} = ${value}) then ${value} end)`;
  });
}

function recordsetType(columns: Column[]) {
  return sql.join(
    [sql`uuid uuid`, sql`refresh boolean`, ...columns.map((c) => sql`${sql.id(c.name)} ${sql.raw(c.type)}`)],
    sql`, `,
  );
}

/** Drops identifier values a batch would give to two records (the unique keys allow one). */
function firstHolderOnly<T extends Record<string, unknown>>(rows: T[], identifiers: Column[]): T[] {
  const seen = new Map<string, Set<unknown>>(identifiers.map((c) => [c.name, new Set()]));
  return rows.map((row) => {
    const copy: Record<string, unknown> = { ...row };
    for (const column of identifiers) {
      const value = copy[column.name];
      if (value === null || value === undefined) continue;
      const held = seen.get(column.name)!;
      if (held.has(value)) copy[column.name] = null;
      else held.add(value);
    }
    return copy as T;
  });
}

export type LeadFill = { uuid: string; refresh: boolean; profile: LinkedInProfile };
export type CompanyFill = { uuid: string; refresh: boolean; page: LinkedInCompanyPage };

function leadRow(fill: LeadFill) {
  const p = fill.profile;
  const shown = p as unknown as Record<string, unknown>;
  // Lists LinkedIn shows empty are "no data", not a value that replaces one.
  const value = (column: Column) => {
    const given = shown[column.name] ?? null;
    const list = column.type === 'jsonb' || column.type === 'text[]';
    return list && Array.isArray(given) && given.length === 0 ? null : given;
  };
  return {
    uuid: fill.uuid,
    refresh: fill.refresh,
    ...Object.fromEntries(
      [...LEAD_FIELDS, ...LEAD_IDENTIFIERS].map((column) => [column.name, value(column)]),
    ),
    name: p.name ?? ([p.first_name, p.last_name].filter(Boolean).join(' ') || null),
    linkedin: p.linkedin?.toLowerCase() ?? null,
  };
}

function companyRow(fill: CompanyFill) {
  const p = fill.page;
  return {
    uuid: fill.uuid,
    refresh: fill.refresh,
    name: p.name,
    website: p.website,
    industry: p.industry,
    employees_range: p.employees_range,
    employees_on_linkedin: p.employees_on_linkedin,
    followers: p.followers,
    hq_raw_address: p.hq_raw_address,
    about: p.about,
    tagline: p.tagline,
    year_established: p.year_established,
    specialities: p.specialities && p.specialities.length > 0 ? p.specialities : null,
    phone: p.phone,
    logo_url: p.logo_url,
    ln_id: p.ln_id,
    linkedin: p.linkedin?.toLowerCase() ?? null,
    domain: normalizeDomain(p.domain ?? p.website ?? null) ?? null,
  };
}

/** Fills the contacts of `fills` (of one team) from their profiles; returns how many were updated. */
export async function fillLeads(db: Executor, teamId: number, fills: LeadFill[]): Promise<number> {
  if (fills.length === 0) return 0;
  const rows = firstHolderOnly(fills.map(leadRow), LEAD_IDENTIFIERS);
  const result = await sql`
    update leads l set
      ${sql.join([...fieldAssignments('l', LEAD_FIELDS), ...identifierAssignments('leads', 'l', LEAD_IDENTIFIERS, teamId)], sql`, `)},
      linkedin_status = 'ok',
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${recordsetType([...LEAD_FIELDS, ...LEAD_IDENTIFIERS])})
    where l.team_id = ${teamId} and l.uuid = v.uuid
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Fills the companies of `fills` (of one team) from their pages; returns how many were updated. */
export async function fillCompanies(db: Executor, teamId: number, fills: CompanyFill[]): Promise<number> {
  if (fills.length === 0) return 0;
  const rows = firstHolderOnly(fills.map(companyRow), COMPANY_IDENTIFIERS);
  const result = await sql`
    update companies c set
      ${sql.join([...fieldAssignments('c', COMPANY_FIELDS), ...identifierAssignments('companies', 'c', COMPANY_IDENTIFIERS, teamId)], sql`, `)},
      linkedin_status = 'ok',
      last_enrich_at = now(),
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${recordsetType([...COMPANY_FIELDS, ...COMPANY_IDENTIFIERS])})
    where c.team_id = ${teamId} and c.uuid = v.uuid
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Marks contacts or companies whose read failed for good (`no_data`: LinkedIn has no such page). */
export async function markReadFailures(
  db: Executor,
  teamId: number,
  table: 'leads' | 'companies',
  failures: Array<{ uuid: string; status: 'no_data' | 'enrichment_failed' }>,
): Promise<void> {
  if (failures.length === 0) return;
  await sql`
    update ${sql.table(table)} x set linkedin_status = v.status, updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(failures)}::jsonb) as v(uuid uuid, status text)
    where x.team_id = ${teamId} and x.uuid = v.uuid and x.linkedin_status <> 'ok'
  `.execute(db);
}
