// The one place that decides whether a contact or company is blacklisted. Contacts and companies carry
// an `is_blacklisted` flag kept in step here, so lists, filters, mass actions, imports, enrichment and
// automations all read the same answer (and skip with a plain indexed `not is_blacklisted`).
//
// An entry matches a record when every field the entry sets matches (case-insensitively; LinkedIn
// handles and domains are normalised on both sides before they are stored).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** SQL: does any blacklist entry of the record's team match the contact aliased `alias`? */
export function leadBlacklistedSql(alias: string): RawBuilder<SqlBool> {
  const l = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`exists (
    select 1 from leads_blacklist b
    where b.team_id = ${l('team_id')}
      and (b.linkedin is null or b.linkedin = ${l('linkedin')})
      and (b.ln_id is null or b.ln_id = ${l('ln_id')})
      and (b.email is null or b.email = ${l('work_email')} or b.email = ${l('personal_email')})
      and (b.name is null or b.name = lower(${l('name')}))
      and (b.company_name is null or b.company_name = lower(${l('company_name')}))
  )`;
}

/** SQL: does any company blacklist entry match the company aliased `alias`? */
export function companyBlacklistedSql(alias: string): RawBuilder<SqlBool> {
  const c = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`exists (
    select 1 from companies_blacklist b
    where b.team_id = ${c('team_id')}
      and (b.linkedin is null or b.linkedin = ${c('linkedin')})
      and (b.ln_id is null or b.ln_id = ${c('ln_id')})
      and (b.domain is null or b.domain = ${c('domain')})
      and (b.name is null or b.name = lower(${c('name')}))
  )`;
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
  const result = await sql`
    update leads l set is_blacklisted = ${leadBlacklistedSql('l')}
    where l.team_id = ${teamId} and ${scopeSql(scope)}
      and l.is_blacklisted is distinct from ${leadBlacklistedSql('l')}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function refreshCompanyBlacklistFlags(
  db: Executor,
  teamId: number,
  scope: RecordScope,
): Promise<number> {
  if ('uuids' in scope && scope.uuids.length === 0) return 0;
  const result = await sql`
    update companies c set is_blacklisted = ${companyBlacklistedSql('c')}
    where c.team_id = ${teamId} and ${scopeSql(scope)}
      and c.is_blacklisted is distinct from ${companyBlacklistedSql('c')}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
