import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, filterError, textContains } from '../../lib/filter.js';
import { parseLinkedInCompany, parseLinkedInPerson } from '../../lib/linkedin.js';
import { normalizeDomain, normalizeName } from '../../lib/normalize.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { CompanyBlacklistValues, LeadBlacklistValues } from './blacklist-match.js';

const lower = (value: string) => normalizeName(value) ?? value.trim().toLowerCase();

/** Free text over several columns: any of them contains the text. */
function anyContains(columns: string[], value: unknown, path: string): RawBuilder<SqlBool> {
  if (typeof value !== 'string' && typeof value !== 'number')
    throw filterError(path, `${path} must be a string`);
  return sql<SqlBool>`(${sql.join(
    columns.map((column) => textContains(sql.ref(column), value, path)),
    sql` or `,
  )})`;
}

export const leadsBlacklistFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name, company name, e-mail or LinkedIn handle contains (case-insensitive)',
    compile: (value, { path }) =>
      anyContains(['b.name', 'b.company_name', 'b.email', 'b.linkedin'], value, path),
  },
  uuid: { type: 'uuid', column: 'b.uuid' },
  name: { type: 'string', column: 'b.name', normalize: lower },
  company_name: { type: 'string', column: 'b.company_name', normalize: lower },
  email: { type: 'string', column: 'b.email', normalize: (value) => value.trim().toLowerCase() },
  linkedin: {
    type: 'string',
    column: 'b.linkedin',
    description: 'LinkedIn nickname or profile URL',
    normalize: (value) => parseLinkedInPerson(value)?.linkedin ?? value.trim().toLowerCase(),
  },
  ln_id: { type: 'string', column: 'b.ln_id' },
  created_at: { type: 'datetime', column: 'b.created_at' },
  updated_at: { type: 'datetime', column: 'b.updated_at' },
};

export const companiesBlacklistFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name, domain or LinkedIn slug contains (case-insensitive)',
    compile: (value, { path }) => anyContains(['b.name', 'b.domain', 'b.linkedin'], value, path),
  },
  uuid: { type: 'uuid', column: 'b.uuid' },
  name: { type: 'string', column: 'b.name', normalize: lower },
  domain: {
    type: 'string',
    column: 'b.domain',
    description: 'Domain, website URL or e-mail address',
    normalize: (value) => normalizeDomain(value) ?? value.trim().toLowerCase(),
  },
  linkedin: {
    type: 'string',
    column: 'b.linkedin',
    description: 'LinkedIn company page slug or URL',
    normalize: (value) => parseLinkedInCompany(value)?.linkedin ?? value.trim().toLowerCase(),
  },
  ln_id: { type: 'integer', column: 'b.ln_id' },
  created_at: { type: 'datetime', column: 'b.created_at' },
  updated_at: { type: 'datetime', column: 'b.updated_at' },
};

const leadsFilter: FilterSpec = { name: 'contact blacklist filter', fields: leadsBlacklistFilterFields };
const companiesFilter: FilterSpec = {
  name: 'company blacklist filter',
  fields: companiesBlacklistFilterFields,
};

export const blacklistSort: SortSpec = {
  fields: { created_at: 'b.created_at', updated_at: 'b.updated_at', name: 'b.name', uuid: 'b.uuid' },
  tiebreaker: 'b.uuid',
};

export type BlacklistTable = 'leads_blacklist' | 'companies_blacklist';

export async function selectLeadEntries(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(leadsFilter, filter);
  let base = db.selectFrom('leads_blacklist as b').where('b.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, blacklistSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectCompanyEntries(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(companiesFilter, filter);
  let base = db.selectFrom('companies_blacklist as b').where('b.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, blacklistSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectLeadEntry(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('leads_blacklist')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function selectCompanyEntry(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('companies_blacklist')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Blacklist writes of one team run one at a time, so two deletes never both see the other's entry. */
export async function lockTeamBlacklist(trx: Executor, table: BlacklistTable, teamId: number) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${table}:${teamId}`}, 0))`.execute(trx);
}

type EntryRow = { team_id: number; uuid: string; user_id: number | null };

/** Inserts the entry; undefined when an identical entry exists (the unique entry key). */
export async function insertLeadEntry(db: Executor, row: EntryRow & LeadBlacklistValues) {
  return db
    .insertInto('leads_blacklist')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      name: row.name,
      company_name: row.company_name,
      linkedin: row.linkedin,
      ln_id: row.ln_id,
      email: row.email,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function insertCompanyEntry(db: Executor, row: EntryRow & CompanyBlacklistValues) {
  return db
    .insertInto('companies_blacklist')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      name: row.name,
      domain: row.domain,
      linkedin: row.linkedin,
      ln_id: row.ln_id,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The entry holding exactly `values` (what the unique entry key compares). */
export async function selectSameLeadEntry(db: Executor, teamId: number, v: LeadBlacklistValues) {
  return db
    .selectFrom('leads_blacklist')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('linkedin', 'is not distinct from', v.linkedin)
    .where('ln_id', 'is not distinct from', v.ln_id)
    .where('email', 'is not distinct from', v.email)
    .where('name', 'is not distinct from', v.name)
    .where('company_name', 'is not distinct from', v.company_name)
    .executeTakeFirst();
}

export async function selectSameCompanyEntry(db: Executor, teamId: number, v: CompanyBlacklistValues) {
  return db
    .selectFrom('companies_blacklist')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('linkedin', 'is not distinct from', v.linkedin)
    .where('ln_id', 'is not distinct from', v.ln_id)
    .where('domain', 'is not distinct from', v.domain)
    .where('name', 'is not distinct from', v.name)
    .executeTakeFirst();
}

export async function deleteLeadEntry(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('leads_blacklist')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteCompanyEntry(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('companies_blacklist')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}
