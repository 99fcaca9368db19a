// The statements of a contact import chunk. Each takes the rows of a chunk (or round) at once: rows
// travel as one JSON parameter or as arrays, never one statement per row.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { leadBlacklistMatch } from '../blacklists/blacklist-match.js';
import type { LeadColumns, MatchKeys } from '../leads/leads.input.js';

export type StagedLead = {
  row: number;
  uuid: string;
  columns: LeadColumns;
  keys: MatchKeys;
  tags: string[];
  customFields: Record<string, unknown>;
  domain?: string;
};

/** Whether the team has blacklist entries and companies: without them two checks can be skipped. */
export async function teamFacts(db: Executor, teamId: number) {
  const result = await sql<{ blacklist: boolean; companies: boolean }>`
    select exists (select 1 from leads_blacklist where team_id = ${teamId}) as blacklist,
      exists (select 1 from companies where team_id = ${teamId}) as companies
  `.execute(db);
  return result.rows[0]!;
}

/** Rows whose own values match a blacklist entry of the team (the shared rule, one statement). */
export async function blacklistedRows(
  db: Executor,
  teamId: number,
  rows: StagedLead[],
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const payload = JSON.stringify(
    rows.map(({ row, columns }) => ({
      ord: row,
      linkedin: columns.linkedin ?? null,
      ln_id: columns.ln_id ?? null,
      work_email: columns.work_email ?? null,
      personal_email: columns.personal_email ?? null,
      name: columns.name ?? null,
      company_name: columns.company_name ?? null,
    })),
  );
  // A join, not exists (...): Citus refuses a correlated subquery beside a set-returning function.
  const result = await sql<{ ord: number }>`
    select distinct k.ord
    from jsonb_to_recordset(${payload}::jsonb)
      as k(ord integer, linkedin text, ln_id text, work_email text, personal_email text, name text, company_name text)
    join leads_blacklist b on b.team_id = ${teamId} and ${leadBlacklistMatch('k')}
  `.execute(db);
  return new Set(result.rows.map((r) => r.ord));
}

/**
 * Rows whose name + company some contact of the team already has (one index probe per row). With the
 * identifiers, which the insert's unique indexes check, these are the only rows that can match.
 */
export async function rowsMatchingByName(
  db: Executor,
  teamId: number,
  rows: StagedLead[],
): Promise<Set<number>> {
  const named = rows.filter((row) => row.keys.name !== null && row.keys.company_name !== null);
  if (named.length === 0) return new Set();
  const result = await sql<{ i: number }>`
    select k.i
    from unnest(${named.map((row) => row.keys.name)}::text[], ${named.map((row) => row.keys.company_name)}::text[])
      with ordinality k(name, company, i)
    cross join lateral (
      select 1 from leads l
      where l.team_id = ${teamId} and lower(l.name) = lower(k.name) and lower(l.company_name) = lower(k.company)
      limit 1
    ) m
  `.execute(db);
  return new Set(result.rows.map((hit) => named[hit.i - 1]!.row));
}

/** The team's company per domain (the oldest, as contact linking picks it). */
export async function companiesByDomain(db: Executor, teamId: number, domains: string[]) {
  if (domains.length === 0) return new Map<string, string>();
  const result = await sql<{ domain: string; uuid: string }>`
    select distinct on (c.domain) c.domain, c.uuid from companies c
    where c.team_id = ${teamId} and c.domain = any(${[...new Set(domains)]}::text[])
    order by c.domain, c.created_at
  `.execute(db);
  return new Map(result.rows.map((row) => [row.domain, row.uuid]));
}
