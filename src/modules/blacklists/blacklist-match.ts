// The one place that decides whether a contact or company is blacklisted. Contacts and companies carry
// an `is_blacklisted` flag kept in step here, so lists, filters, mass actions, imports, enrichment and
// automations all read the same answer (and skip with a plain indexed `not is_blacklisted`). A contact
// that becomes blacklisted here also leaves every flow it is in (canceled, reason blacklisted).
//
// An entry matches a record when every field the entry sets matches (case-insensitively; LinkedIn
// handles and domains are normalised on both sides before they are stored).
//
// Index use, both directions:
// - record → entries (`leadBlacklistedSql`): an entry that matches sets at least one field equal to
//   the record's, so an OR of per-identifier equalities (each served by an index of migration 0130)
//   narrows the team's entries before the every-field test.
// - entry → records (`flagLeadsMatchingEntry`...): the entry's values are constants, so the test is
//   a conjunction of equalities on the record's indexed identifier columns.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { endEnrollments } from '../enrollments/enrollment-signals.js';

/**
 * SQL: does blacklist entry `b` match the contact aliased `alias`? (The record's identifiers against
 * the entry's, then every field the entry sets.)
 */
export function leadBlacklistMatch(alias: string): RawBuilder<SqlBool> {
  const l = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`(b.linkedin = ${l('linkedin')} or b.ln_id = ${l('ln_id')} or b.email = ${l('work_email')}
        or b.email = ${l('personal_email')} or b.name = lower(${l('name')})
        or b.company_name = lower(${l('company_name')}))
      and (b.linkedin is null or b.linkedin = ${l('linkedin')})
      and (b.ln_id is null or b.ln_id = ${l('ln_id')})
      and (b.email is null or b.email = ${l('work_email')} or b.email = ${l('personal_email')})
      and (b.name is null or b.name = lower(${l('name')}))
      and (b.company_name is null or b.company_name = lower(${l('company_name')}))`;
}

/**
 * SQL: does any blacklist entry of the team match the contact aliased `alias`? The team is the value,
 * not the row's column, so the statement stays a router query on Citus.
 */
export function leadBlacklistedSql(alias: string, teamId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from leads_blacklist b where b.team_id = ${teamId} and ${leadBlacklistMatch(alias)})`;
}

/** SQL: does blacklist entry `b` match the company aliased `alias`? */
export function companyBlacklistMatch(alias: string): RawBuilder<SqlBool> {
  const c = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`(b.linkedin = ${c('linkedin')} or b.ln_id = ${c('ln_id')} or b.domain = ${c('domain')}
        or b.name = lower(${c('name')}))
      and (b.linkedin is null or b.linkedin = ${c('linkedin')})
      and (b.ln_id is null or b.ln_id = ${c('ln_id')})
      and (b.domain is null or b.domain = ${c('domain')})
      and (b.name is null or b.name = lower(${c('name')}))`;
}

/** SQL: does any blacklist entry of the team match the company aliased `alias`? */
export function companyBlacklistedSql(alias: string, teamId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from companies_blacklist b where b.team_id = ${teamId} and ${companyBlacklistMatch(alias)})`;
}

export type RecordScope = { uuids: string[] } | { all: true };

function scopeSql(scope: RecordScope): RawBuilder<SqlBool> {
  return 'all' in scope ? sql<SqlBool>`true` : sql<SqlBool>`uuid = any(${scope.uuids}::uuid[])`;
}

/** Recomputes the flag for contacts just written (or all of a team's contacts). Returns rows changed. */
export async function refreshLeadBlacklistFlags(
  db: Executor,
  teamId: number,
  scope: RecordScope,
): Promise<number> {
  if ('uuids' in scope && scope.uuids.length === 0) return 0;
  const { rows } = await sql<{ changed: number; flagged: string[] | null }>`
    with changed as (
      update leads l set is_blacklisted = ${leadBlacklistedSql('l', teamId)}
      where l.team_id = ${teamId} and ${scopeSql(scope)}
        and l.is_blacklisted is distinct from ${leadBlacklistedSql('l', teamId)}
      returning l.uuid, l.is_blacklisted
    )
    select count(*)::int as changed, array_agg(uuid) filter (where is_blacklisted) as flagged from changed
  `.execute(db);
  await endEnrollmentsOfBlacklisted(db, teamId, rows[0]?.flagged ?? []);
  return rows[0]?.changed ?? 0;
}

/** Blacklisted contacts leave every flow they are in (their pending tasks are canceled). */
async function endEnrollmentsOfBlacklisted(db: Executor, teamId: number, leadUuids: string[]) {
  if (leadUuids.length === 0) return;
  await endEnrollments(
    db,
    teamId,
    { where: sql<SqlBool>`fl.lead_uuid = any(${leadUuids}::uuid[])` },
    'canceled',
    'blacklisted',
  );
}

export async function refreshCompanyBlacklistFlags(
  db: Executor,
  teamId: number,
  scope: RecordScope,
): Promise<number> {
  if ('uuids' in scope && scope.uuids.length === 0) return 0;
  const result = await sql`
    update companies c set is_blacklisted = ${companyBlacklistedSql('c', teamId)}
    where c.team_id = ${teamId} and ${scopeSql(scope)}
      and c.is_blacklisted is distinct from ${companyBlacklistedSql('c', teamId)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The normalised values of a contact blacklist entry (null: the entry does not test that field). */
export type LeadBlacklistValues = {
  name: string | null;
  company_name: string | null;
  linkedin: string | null;
  ln_id: string | null;
  email: string | null;
};

export type CompanyBlacklistValues = {
  name: string | null;
  domain: string | null;
  linkedin: string | null;
  ln_id: number | null;
};

/** SQL: does the contact aliased `alias` match `entry`? Each test is an equality on an indexed column. */
export function leadMatchesEntrySql(alias: string, entry: LeadBlacklistValues): RawBuilder<SqlBool> {
  const l = (column: string) => sql.ref(`${alias}.${column}`);
  const tests: RawBuilder<SqlBool>[] = [];
  if (entry.linkedin !== null) tests.push(sql<SqlBool>`${l('linkedin')} = ${entry.linkedin}`);
  if (entry.ln_id !== null) tests.push(sql<SqlBool>`${l('ln_id')} = ${entry.ln_id}`);
  if (entry.email !== null) {
    tests.push(
      sql<SqlBool>`(${l('work_email')} = ${entry.email} or ${l('personal_email')} = ${entry.email})`,
    );
  }
  if (entry.name !== null) tests.push(sql<SqlBool>`lower(${l('name')}) = ${entry.name}`);
  if (entry.company_name !== null) {
    tests.push(sql<SqlBool>`lower(${l('company_name')}) = ${entry.company_name}`);
  }
  // The table's check constraint guarantees one field; an empty entry must never match everything.
  return tests.length > 0 ? sql<SqlBool>`(${sql.join(tests, sql` and `)})` : sql<SqlBool>`false`;
}

export function companyMatchesEntrySql(alias: string, entry: CompanyBlacklistValues): RawBuilder<SqlBool> {
  const c = (column: string) => sql.ref(`${alias}.${column}`);
  const tests: RawBuilder<SqlBool>[] = [];
  if (entry.linkedin !== null) tests.push(sql<SqlBool>`${c('linkedin')} = ${entry.linkedin}`);
  if (entry.ln_id !== null) tests.push(sql<SqlBool>`${c('ln_id')} = ${entry.ln_id}`);
  if (entry.domain !== null) tests.push(sql<SqlBool>`${c('domain')} = ${entry.domain}`);
  if (entry.name !== null) tests.push(sql<SqlBool>`lower(${c('name')}) = ${entry.name}`);
  return tests.length > 0 ? sql<SqlBool>`(${sql.join(tests, sql` and `)})` : sql<SqlBool>`false`;
}

/** Flags the team's contacts a new entry matches. Returns how many were newly flagged. */
export async function flagLeadsMatchingEntry(
  db: Executor,
  teamId: number,
  entry: LeadBlacklistValues,
): Promise<number> {
  const { rows } = await sql<{ uuid: string }>`
    update leads l set is_blacklisted = true, updated_at = now()
    where l.team_id = ${teamId} and not l.is_blacklisted and ${leadMatchesEntrySql('l', entry)}
    returning l.uuid
  `.execute(db);
  await endEnrollmentsOfBlacklisted(
    db,
    teamId,
    rows.map((row) => row.uuid),
  );
  return rows.length;
}

export async function flagCompaniesMatchingEntry(
  db: Executor,
  teamId: number,
  entry: CompanyBlacklistValues,
): Promise<number> {
  const result = await sql`
    update companies c set is_blacklisted = true, updated_at = now()
    where c.team_id = ${teamId} and not c.is_blacklisted and ${companyMatchesEntrySql('c', entry)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * After an entry was deleted: recomputes the flag of the contacts it matched (another entry may still
 * match them). Run it after the delete, in the same transaction. Returns how many were un-flagged.
 */
export async function unflagLeadsOfRemovedEntry(
  db: Executor,
  teamId: number,
  entry: LeadBlacklistValues,
): Promise<number> {
  const result = await sql`
    update leads l set is_blacklisted = false, updated_at = now()
    where l.team_id = ${teamId} and l.is_blacklisted and ${leadMatchesEntrySql('l', entry)}
      and not ${leadBlacklistedSql('l', teamId)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function unflagCompaniesOfRemovedEntry(
  db: Executor,
  teamId: number,
  entry: CompanyBlacklistValues,
): Promise<number> {
  const result = await sql`
    update companies c set is_blacklisted = false, updated_at = now()
    where c.team_id = ${teamId} and c.is_blacklisted and ${companyMatchesEntrySql('c', entry)}
      and not ${companyBlacklistedSql('c', teamId)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
