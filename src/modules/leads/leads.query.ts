// Reading contacts in bulk: the search page, counts and the metrics totals. Every statement is led by
// `l.team_id = $team`, so it runs on the team's slice of the (team_id, ...) indexes.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { PageRequest, SortSpec } from '../../lib/pagination.js';
import { teamLeadTotal } from './leads.counts.js';
import type { LeadRow } from './leads.present.js';

/**
 * Sort fields and the expression each sorts by; every one is the leading column (after team_id) of an
 * index, so no order scans a whole team. Names sort case-insensitively.
 */
const SORT_EXPRESSIONS: Record<string, RawBuilder<unknown>> = {
  created_at: sql`l.created_at`,
  updated_at: sql`l.updated_at`,
  uuid: sql`l.uuid`,
  name: sql`lower(l.name)`,
  company_name: sql`lower(l.company_name)`,
};

export const leadSort: SortSpec = {
  fields: Object.fromEntries(Object.keys(SORT_EXPRESSIONS).map((field) => [field, field])),
  default: 'created_at',
  tiebreaker: 'uuid',
};

export function teamScope(teamId: number, where: RawBuilder<SqlBool> | undefined): RawBuilder<SqlBool> {
  return where ? sql<SqlBool>`l.team_id = ${teamId} and ${where}` : sql<SqlBool>`l.team_id = ${teamId}`;
}

/**
 * One page of contacts. The page's uuids are found first from the narrow sort index (an index-only
 * scan even at deep offsets), then only those rows are read, so page 5,000 costs an index walk and 20
 * row reads instead of 100,000 row reads.
 */
export async function selectLeadPage(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool> | undefined,
  page: PageRequest,
): Promise<LeadRow[]> {
  const column = SORT_EXPRESSIONS[page.orderField] ?? SORT_EXPRESSIONS.created_at!;
  const direction = sql.raw(page.orderType);
  const result = await sql<LeadRow>`
    select l.* from (
      select l.uuid, ${column} as sort_key from leads l
      where ${teamScope(teamId, where)}
      order by ${column} ${direction}, l.uuid ${direction}
      limit ${page.limit} offset ${page.offset}
    ) p
    join leads l on l.team_id = ${teamId} and l.uuid = p.uuid
    order by p.sort_key ${direction}, p.uuid ${direction}
  `.execute(db);
  return result.rows;
}

/**
 * The page and the exact total in one statement, for filters served by GIN indexes (tags, custom
 * fields, free text): their matches must be read from the table either way (GIN has no index-only
 * scans), so one bitmap pass that counts and keeps the top rows beats a page query and a separate
 * count that would each read them. Returns undefined when the offset is past the end (no row to
 * carry the total), so the caller counts instead.
 */
export async function selectLeadPageAndTotal(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
  page: PageRequest,
): Promise<{ rows: LeadRow[]; total: number } | undefined> {
  const column = SORT_EXPRESSIONS[page.orderField] ?? SORT_EXPRESSIONS.created_at!;
  const direction = sql.raw(page.orderType);
  const result = await sql<LeadRow & { leadflow_total: number }>`
    select l.*, p.total as leadflow_total from (
      select l.uuid, ${column} as sort_key, count(*) over () as total from leads l
      where ${teamScope(teamId, where)}
      order by ${column} ${direction}, l.uuid ${direction}
      limit ${page.limit} offset ${page.offset}
    ) p
    join leads l on l.team_id = ${teamId} and l.uuid = p.uuid
    order by p.sort_key ${direction}, p.uuid ${direction}
  `.execute(db);
  const first = result.rows[0];
  if (!first) return undefined;
  return {
    total: Number(first.leadflow_total),
    rows: result.rows.map(({ leadflow_total: _total, ...row }) => row as LeadRow),
  };
}

export async function countLeads(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool> | undefined,
): Promise<number> {
  const result = await sql<{ total: number }>`
    select count(*)::bigint as total from leads l where ${teamScope(teamId, where)}
  `.execute(db);
  return result.rows[0]?.total ?? 0;
}

/** Contacts matching `where`, and those of them created within the period. */
export async function countLeadsForMetrics(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool> | undefined,
  period: { from: string; to: string },
): Promise<{ leads_count: number; new_leads_count: number }> {
  const created = sql<SqlBool>`l.created_at >= ${period.from}::timestamptz and l.created_at <= ${period.to}::timestamptz`;
  const [leads_count, new_leads_count] = await Promise.all([
    where ? countLeads(db, teamId, where) : teamLeadTotal(db, teamId),
    countLeads(db, teamId, where ? sql<SqlBool>`${where} and ${created}` : created),
  ]);
  return { leads_count, new_leads_count };
}
