// Contacts link to a company of their team when their company name or e-mail domain matches it.
// Called after contacts are written (scope: those contacts) and after companies are written (scope:
// contacts that could match those companies), always as one set-based statement.
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
  const leadFilter = 'leadUuids' in scope ? sql`and l.uuid = any(${scope.leadUuids}::uuid[])` : sql``;
  const companyFilter =
    'companyUuids' in scope ? sql`and c.uuid = any(${scope.companyUuids}::uuid[])` : sql``;
  if (
    ('leadUuids' in scope && scope.leadUuids.length === 0) ||
    ('companyUuids' in scope && scope.companyUuids.length === 0)
  ) {
    return 0;
  }
  // A domain match is more specific than a name match, so it wins.
  const result = await sql`
    update leads l set company_uuid = m.company_uuid, updated_at = now()
    from (
      select distinct on (l.uuid) l.uuid as lead_uuid, c.uuid as company_uuid
      from leads l
      join companies c on c.team_id = l.team_id ${companyFilter}
        and (
          (c.domain is not null and c.domain = split_part(coalesce(l.work_email, ''), '@', 2)
            and split_part(l.work_email, '@', 2) <> all(${FREE_MAIL_DOMAINS}::text[]))
          or (c.name is not null and l.company_name is not null and lower(c.name) = lower(l.company_name))
        )
      where l.team_id = ${teamId} and l.company_uuid is null ${leadFilter}
      order by l.uuid, (c.domain is not null and c.domain = split_part(coalesce(l.work_email, ''), '@', 2)) desc, c.created_at
    ) m
    where l.team_id = ${teamId} and l.uuid = m.lead_uuid
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
