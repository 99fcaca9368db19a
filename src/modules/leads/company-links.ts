// Contacts link to a company of their team when their company name or e-mail domain matches it.
// Called after contacts are written (scope: those contacts) and after companies are written (scope:
// contacts that could match those companies), always as one set-based statement.
//
// The two kinds of match are found by separate joins, driven from the side in scope, so each probe
// uses an index: companies by (team_id, domain) and (team_id, lower(name)); unlinked contacts by
// (team_id, split_part(work_email, '@', 2)) and (team_id, lower(company_name)).
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

// Generic mail providers say nothing about the employer.
const FREE_MAIL_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'yandex.ru',
  'mail.ru',
  'proton.me',
  'protonmail.com',
];

export type LinkScope = { leadUuids: string[] } | { companyUuids: string[] };

/** Sets company_uuid on unlinked contacts in scope that match a company; returns how many were linked. */
export async function linkLeadsToCompanies(db: Executor, teamId: number, scope: LinkScope): Promise<number> {
  if (
    ('leadUuids' in scope && scope.leadUuids.length === 0) ||
    ('companyUuids' in scope && scope.companyUuids.length === 0)
  ) {
    return 0;
  }
  const candidates =
    'leadUuids' in scope ? fromLeads(teamId, scope.leadUuids) : fromCompanies(teamId, scope.companyUuids);
  const result = await sql`
    with candidates as (${candidates}),
    best as (
      -- A domain match is more specific than a name match, so it wins; then the oldest company.
      select distinct on (lead_uuid) lead_uuid, company_uuid
      from candidates
      order by lead_uuid, rank, created_at, company_uuid
    )
    update leads l set company_uuid = b.company_uuid, updated_at = now()
    from best b
    where l.team_id = ${teamId} and l.uuid = b.lead_uuid
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Candidate links of a few contacts: each probes the company indexes on (team_id, domain / lower(name)). */
function fromLeads(teamId: number, leadUuids: string[]) {
  return sql`
    select l.uuid as lead_uuid, c.uuid as company_uuid, 0 as rank, c.created_at
    from leads l
    join companies c on c.team_id = ${teamId} and c.domain = split_part(l.work_email, '@', 2)
    where l.team_id = ${teamId} and l.uuid = any(${leadUuids}::uuid[]) and l.company_uuid is null
      and split_part(l.work_email, '@', 2) <> all(${FREE_MAIL_DOMAINS}::text[])
    union all
    select l.uuid, c.uuid, 1, c.created_at
    from leads l
    join companies c on c.team_id = ${teamId} and lower(c.name) = lower(l.company_name)
    where l.team_id = ${teamId} and l.uuid = any(${leadUuids}::uuid[]) and l.company_uuid is null`;
}

/**
 * Candidate links of a few companies: each company probes the unlinked-contact indexes. The lateral
 * subqueries end in OFFSET 0 so the planner keeps them as per-company probes instead of flattening
 * them into a join that scans every unlinked contact of the team.
 */
function fromCompanies(teamId: number, companyUuids: string[]) {
  return sql`
    select l.uuid as lead_uuid, c.uuid as company_uuid, 0 as rank, c.created_at
    from companies c
    cross join lateral (
      select l.uuid from leads l
      where l.team_id = ${teamId} and l.company_uuid is null and l.work_email is not null
        and split_part(l.work_email, '@', 2) = c.domain
      offset 0
    ) l
    where c.team_id = ${teamId} and c.uuid = any(${companyUuids}::uuid[]) and c.domain is not null
      and c.domain <> all(${FREE_MAIL_DOMAINS}::text[])
    union all
    select l.uuid, c.uuid, 1, c.created_at
    from companies c
    cross join lateral (
      select l.uuid from leads l
      where l.team_id = ${teamId} and l.company_uuid is null and lower(l.company_name) = lower(c.name)
      offset 0
    ) l
    where c.team_id = ${teamId} and c.uuid = any(${companyUuids}::uuid[]) and c.name is not null`;
}

/** Clears the company of the team's contacts linked to one of `companyUuids` (the companies are being deleted). */
export async function unlinkContactsFromCompanies(
  db: Executor,
  teamId: number,
  companyUuids: string[],
): Promise<void> {
  await sql`
    update leads l set company_uuid = null, updated_at = now()
    where l.team_id = ${teamId} and l.company_uuid = any(${companyUuids}::uuid[])
  `.execute(db);
}
